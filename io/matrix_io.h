// Writing and reading distance matrices: CSV (round-trip precision), NPY (<f8, C order),
// HDF5 (chunked /distance with metric attributes). Format chosen by extension.
#pragma once
#include <memory>
#include <string>

#include "compute/core/results.h"
#include "compute/core/tile.h"

namespace warplab::io {

// The values' type in a .npy (<f8, <f4) or HDF5 file (IEEE float64, float32). Float32 rounds
// each value to the nearest float, which loses nothing where the kernel computed in fp32 (the
// GPU kernels); readMatrix reads either type. CSV is always written at full precision.
enum class MatrixValueType { Float64, Float32 };

void writeMatrix(const std::string& path, const compute::DistanceMatrix& m,
                 MatrixValueType type = MatrixValueType::Float64);
compute::DistanceMatrix readMatrix(const std::string& path);

// Streams tiles of a rows x cols matrix to disk as they are computed (NPY or HDF5), so a
// matrix larger than memory never exists at once. Writes to a temporary name and renames
// on finish(); destroyed without finish() (cancelled, failed), it removes the temporary.
class MatrixStreamWriter {
public:
    static std::unique_ptr<MatrixStreamWriter> create(const std::string& path, std::size_t rows,
                                                      std::size_t cols, const compute::Params& params);
    // With `symmetric` (all pairs of one set), tiles carry the upper triangle (col >= row) and
    // the writer mirrors each value to (col, row); finish() checks that every upper cell came.
    static std::unique_ptr<MatrixStreamWriter> create(const std::string& path, std::size_t rows,
                                                      std::size_t cols, const compute::Params& params,
                                                      bool symmetric,
                                                      MatrixValueType type = MatrixValueType::Float64);
    virtual ~MatrixStreamWriter() = default;
    virtual void writeTile(const compute::Tile& tile, const double* values) = 0;
    // Whether writeTile may be called from several threads at once (for different tiles): the
    // engine's SinkCalls::Concurrent.
    virtual bool concurrentTiles() const { return false; }
    // Throws IoError when cells are missing (not every tile arrived) or the rename fails.
    virtual void finish() = 0;
};

}  // namespace warplab::io
