// The values of a rows x cols .npy matrix on disk, put in place tile by tile as the engine
// finishes them, from several threads at once. Both .npy writers go through it: one process's
// (MatrixStreamWriter) and each MPI rank's (NpyOffsetWriter).
//
// Where the file can be mapped, its room is reserved on the disk first (fallocate: a full disk
// is refused here, by name, instead of failing a write hours later) and tiles are copied into a
// shared mapping of it: tile rows are short (8 KB) and far apart, and a write() per row, one
// thread at a time, wrote slower than the disk itself (four threads copying into the mapping
// wrote about 6 GB/s on an H200 host). Elsewhere (a filesystem that cannot reserve room;
// processes on several hosts, which must write back only the bytes they wrote) each tile row is
// one pwrite.
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <string>

#include "compute/core/tile.h"

namespace warplab::io {

// Writes bytes [data, data + bytes) at offset `at` of `fd` (pwrite until all are written).
// Throws IoError naming `path` (field "data") when a write fails.
void pwriteAll(int fd, const char* data, std::size_t bytes, off_t at, const std::string& path);

// Throws IoError (field "tile", naming `path`) unless `tile` lies inside a rows x cols matrix.
void checkTileInside(const std::string& path, const compute::Tile& tile, std::size_t rows, std::size_t cols);

class NpyTileFile {
public:
    enum class Access {
        Mapped,  // mapped where the filesystem can reserve the room, else pwrite
        Pwrite,  // one pwrite per tile row, always
    };
    // Takes `fd` (open for reading and writing, the file already of its full size: header, then
    // rows x cols values of 8 bytes, or 4 with `float32`, from byte `dataOffset`). `path` names
    // the file in messages. Throws IoError (the room cannot be reserved: a full disk, say);
    // `fd` is then closed.
    NpyTileFile(std::string path, int fd, std::size_t dataOffset, std::size_t rows, std::size_t cols, bool float32,
                Access access);
    ~NpyTileFile();
    NpyTileFile(const NpyTileFile&) = delete;
    NpyTileFile& operator=(const NpyTileFile&) = delete;

    // Row-major tile values (float32: each rounded to the nearest float). Safe from several
    // threads at once for tiles that do not overlap. Throws IoError for a tile outside the
    // matrix or a failed write.
    void writeTile(const compute::Tile& tile, const double* values);
    // Unmaps and closes the file; with `flush` its bytes reach the disk first (fsync). Throws
    // IoError when that fails. Called again, does nothing.
    void close(bool flush);

    bool mapped() const { return map_ != nullptr; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    int fd_;
    std::size_t dataOffset_, rows_, cols_, valueBytes_, fileBytes_;
    char* map_ = nullptr;
};

}  // namespace warplab::io
