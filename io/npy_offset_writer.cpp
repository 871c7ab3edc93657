// Offset writes into a preallocated .npy (npy_offset_writer.h).
#include "io/npy_offset_writer.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "io/io_error.h"
#include "io/npy.h"

namespace warplab::io {

namespace {
std::string sysError() { return std::strerror(errno); }
}  // namespace

std::string npyPartialPath(const std::string& finalPath) { return finalPath + ".partial"; }

void createNpyShell(const std::string& path, std::size_t rows, std::size_t cols, bool float32) {
    const std::string header = npyHeader({rows, cols}, float32 ? "<f4" : "<f8");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError(path, "", "cannot create: " + sysError());
    try {
        pwriteAll(fd, header.data(), header.size(), 0, path);
        // The values' room as a hole: no bytes are written twice (the writers reserve it where
        // the filesystem can: npy_tile_file.h).
        const off_t size = off_t(header.size() + rows * cols * (float32 ? sizeof(float) : sizeof(double)));
        if (::ftruncate(fd, size) != 0) throw IoError(path, "data", "cannot size the file: " + sysError());
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0) throw IoError(path, "", "cannot close: " + sysError());
}

NpyOffsetWriter::NpyOffsetWriter(const std::string& path, std::size_t rows, std::size_t cols, bool float32, bool oneHost)
    : oneHost_(oneHost) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) throw IoError(path, "", "cannot open for writing (must be on a filesystem every process sees): " + sysError());
    // Every process reserves the same room; the filesystem does it once.
    file_ = std::make_unique<NpyTileFile>(path, fd, npyHeader({rows, cols}, float32 ? "<f4" : "<f8").size(), rows, cols,
                                          float32, oneHost ? NpyTileFile::Access::Mapped : NpyTileFile::Access::Pwrite);
}

void NpyOffsetWriter::writeTile(const compute::Tile& tile, const double* values) { file_->writeTile(tile, values); }

void NpyOffsetWriter::close() { file_->close(!oneHost_); }

}  // namespace warplab::io
