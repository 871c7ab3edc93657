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

void writeAll(int fd, const char* data, std::size_t bytes, off_t at, const std::string& path) {
    while (bytes > 0) {
        const ssize_t n = ::pwrite(fd, data, bytes, at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw IoError(path, "data", "cannot write: " + (n < 0 ? sysError() : std::string("no space written")));
        data += n;
        bytes -= std::size_t(n);
        at += n;
    }
}
}  // namespace

std::string npyPartialPath(const std::string& finalPath) { return finalPath + ".partial"; }

void createNpyShell(const std::string& path, std::size_t rows, std::size_t cols, bool float32) {
    const std::string header = npyHeader({rows, cols}, float32 ? "<f4" : "<f8");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError(path, "", "cannot create: " + sysError());
    try {
        writeAll(fd, header.data(), header.size(), 0, path);
        // The values' room as a hole: no bytes are written twice, and a filesystem that
        // supports sparse files spends nothing until the ranks write.
        const off_t size = off_t(header.size() + rows * cols * (float32 ? sizeof(float) : sizeof(double)));
        if (::ftruncate(fd, size) != 0) throw IoError(path, "data", "cannot size the file: " + sysError());
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0) throw IoError(path, "", "cannot close: " + sysError());
}

NpyOffsetWriter::NpyOffsetWriter(const std::string& path, std::size_t rows, std::size_t cols, bool float32)
    : path_(path),
      rows_(rows),
      cols_(cols),
      valueBytes_(float32 ? sizeof(float) : sizeof(double)),
      dataOffset_(npyHeader({rows, cols}, float32 ? "<f4" : "<f8").size()) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw IoError(path, "", "cannot open for writing (must be on a filesystem every process sees): " + sysError());
}

NpyOffsetWriter::~NpyOffsetWriter() {
    if (fd_ >= 0) ::close(fd_);
}

void NpyOffsetWriter::writeTile(const compute::Tile& tile, const double* values) {
    if (tile.rowEnd > rows_ || tile.colEnd > cols_)
        throw IoError(path_, "data", "a tile reaches past the " + std::to_string(rows_) + " x " + std::to_string(cols_) + " matrix");
    const std::size_t w = tile.cols();
    for (std::size_t r = 0; r < tile.rows(); ++r) {
        const off_t at = off_t(dataOffset_ + ((tile.rowBegin + r) * cols_ + tile.colBegin) * valueBytes_);
        if (valueBytes_ == sizeof(double)) {
            writeAll(fd_, reinterpret_cast<const char*>(values + r * w), w * sizeof(double), at, path_);
            continue;
        }
        rounded_.assign(values + r * w, values + (r + 1) * w);
        writeAll(fd_, reinterpret_cast<const char*>(rounded_.data()), w * sizeof(float), at, path_);
    }
}

void NpyOffsetWriter::close() {
    if (fd_ < 0) return;
    const int fd = fd_;
    fd_ = -1;
    if (::fsync(fd) != 0) {
        const std::string why = sysError();
        ::close(fd);
        throw IoError(path_, "", "cannot flush: " + why);
    }
    if (::close(fd) != 0) throw IoError(path_, "", "cannot close: " + sysError());
}

}  // namespace warplab::io
