// A build without a GPU library: the device-epoch path is never available.
#include "compute/core/error.h"
#include "compute/engine/epoch_matrix.h"

namespace warplab::compute {

bool gpuEpochMatrixSortsRows() { return false; }

std::string gpuEpochMatrixUnavailable(const std::string&, const Params&) { return "no GPU backend in this build"; }

void gpuEpochMatrix(const EpochMatrixRequest&, const RowBlockSink&, const RunOptions&) {
    throw EngineError(EngineError::Kind::Device, "gpu", "no GPU backend in this build");
}

}  // namespace warplab::compute
