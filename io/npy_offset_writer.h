// A float64 (or float32) .npy matrix written in place by several processes at once (MPI ranks on a shared
// filesystem): one process creates the file at its full size (header, then zeros), every
// process opens it and writes its tiles at their byte offsets, and only after all have
// succeeded does one process rename it to its final name. Until then it carries a temporary
// name, so a failed job leaves nothing that looks complete.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "compute/core/tile.h"
#include "io/npy_tile_file.h"

namespace warplab::io {

// The temporary name under which `finalPath` is written ("<path>.partial").
std::string npyPartialPath(const std::string& finalPath);

// Creates (or truncates) `path` holding the header of a rows x cols float64 (float32) matrix and
// room for every value. Throws IoError naming the file.
void createNpyShell(const std::string& path, std::size_t rows, std::size_t cols, bool float32 = false);

class NpyOffsetWriter {
public:
    // Opens the shell `path` (created by createNpyShell with the same shape and type) for writing.
    // `oneHost`: every process writing it runs on this host, so all share its page cache; the
    // file is then mapped (npy_tile_file.h) and close() need not flush it to the disk. Otherwise
    // each tile row is one pwrite (a network filesystem writes back only the bytes each process
    // wrote) and close() flushes, so that the rename after every process closed finds every value.
    NpyOffsetWriter(const std::string& path, std::size_t rows, std::size_t cols, bool float32, bool oneHost);
    // Row-major tile values (float32: rounded to the nearest float); from several threads at once
    // for tiles that do not overlap.
    void writeTile(const compute::Tile& tile, const double* values);
    // Closes the file (flushing it first unless oneHost); throws IoError when that fails.
    void close();

private:
    std::unique_ptr<NpyTileFile> file_;
    bool oneHost_;
};

}  // namespace warplab::io
