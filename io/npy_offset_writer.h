// A float64 (or float32) .npy matrix written in place by several processes at once (MPI ranks on a shared
// filesystem): one process creates the file at its full size (header, then zeros), every
// process opens it and writes its tiles at their byte offsets, and only after all have
// succeeded does one process rename it to its final name. Until then it carries a temporary
// name, so a failed job leaves nothing that looks complete.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "compute/core/tile.h"

namespace warplab::io {

// The temporary name under which `finalPath` is written ("<path>.partial").
std::string npyPartialPath(const std::string& finalPath);

// Creates (or truncates) `path` holding the header of a rows x cols float64 (float32) matrix and
// room for every value. Throws IoError naming the file.
void createNpyShell(const std::string& path, std::size_t rows, std::size_t cols, bool float32 = false);

class NpyOffsetWriter {
public:
    // Opens the shell `path` (created by createNpyShell with the same shape and type) for writing.
    NpyOffsetWriter(const std::string& path, std::size_t rows, std::size_t cols, bool float32 = false);
    ~NpyOffsetWriter();
    NpyOffsetWriter(const NpyOffsetWriter&) = delete;
    NpyOffsetWriter& operator=(const NpyOffsetWriter&) = delete;
    // Row-major tile values; each tile row is one write at its offset (float32: rounded to the
    // nearest float first).
    void writeTile(const compute::Tile& tile, const double* values);
    // Flushes to the file (fsync) and closes it; throws IoError when that fails.
    void close();

private:
    std::string path_;
    std::size_t rows_, cols_, valueBytes_, dataOffset_;
    int fd_ = -1;
    std::vector<float> rounded_;
};

}  // namespace warplab::io
