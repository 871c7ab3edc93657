// A build without a GPU library: the window path is never available.
#include "compute/core/error.h"
#include "compute/engine/window_matrix.h"

namespace warplab::compute {

bool gpuWindowMatrixSortsRows() { return false; }

std::string gpuWindowMatrixUnavailable(const std::string&, const Params&) { return "no GPU backend in this build"; }

void gpuWindowMatrix(const WindowMatrixRequest&, const RowBlockSink&, const RunOptions&) {
    throw EngineError(EngineError::Kind::Device, "gpu", "no GPU backend in this build");
}

}  // namespace warplab::compute
