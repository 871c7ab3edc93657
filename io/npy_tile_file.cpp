// Tiles put in place in a .npy matrix file (npy_tile_file.h).
#include "io/npy_tile_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "io/io_error.h"

namespace warplab::io {

namespace {

std::string sysError(int e) { return std::strerror(e); }

std::string gigabytes(std::size_t bytes) {
    char s[32];
    std::snprintf(s, sizeof s, "%.2f GB", double(bytes) / 1e9);
    return s;
}

}  // namespace

void pwriteAll(int fd, const char* data, std::size_t bytes, off_t at, const std::string& path) {
    while (bytes > 0) {
        const ssize_t n = ::pwrite(fd, data, bytes, at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw IoError(path, "data", "cannot write: " + (n < 0 ? sysError(errno) : std::string("no space written")));
        data += n;
        bytes -= std::size_t(n);
        at += n;
    }
}

void checkTileInside(const std::string& path, const compute::Tile& tile, std::size_t rows, std::size_t cols) {
    if (tile.rowEnd > rows || tile.colEnd > cols || tile.rowBegin > tile.rowEnd || tile.colBegin > tile.colEnd)
        throw IoError(path, "tile", "rows " + std::to_string(tile.rowBegin) + ".." + std::to_string(tile.rowEnd) +
                                        ", columns " + std::to_string(tile.colBegin) + ".." + std::to_string(tile.colEnd) +
                                        " outside the " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
}

NpyTileFile::NpyTileFile(std::string path, int fd, std::size_t dataOffset, std::size_t rows, std::size_t cols,
                         bool float32, Access access)
    : path_(std::move(path)),
      fd_(fd),
      dataOffset_(dataOffset),
      rows_(rows),
      cols_(cols),
      valueBytes_(float32 ? sizeof(float) : sizeof(double)),
      fileBytes_(dataOffset + rows * cols * valueBytes_) {
    if (access != Access::Mapped) return;
    // fallocate itself, not posix_fallocate: where the filesystem cannot reserve, the latter
    // writes zeros over the whole file, which is what this class exists to avoid.
    if (::fallocate(fd_, 0, off_t(dataOffset_), off_t(fileBytes_ - dataOffset_)) != 0) {
        const int e = errno;
        if (e == ENOSPC || e == EFBIG || e == EDQUOT) {
            ::close(fd_);
            fd_ = -1;
            throw IoError(path_, "data", "no room on the disk for the " + gigabytes(fileBytes_) + " matrix: " + sysError(e));
        }
        return;  // cannot reserve (EOPNOTSUPP, ...): a mapped write could not report a full disk
    }
    void* m = ::mmap(nullptr, fileBytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (m != MAP_FAILED) map_ = static_cast<char*>(m);
}

NpyTileFile::~NpyTileFile() {
    if (map_) ::munmap(map_, fileBytes_);
    if (fd_ >= 0) ::close(fd_);
}

void NpyTileFile::writeTile(const compute::Tile& tile, const double* values) {
    if (fd_ < 0) throw IoError(path_, "tile", "written after the file was closed");
    checkTileInside(path_, tile, rows_, cols_);
    const std::size_t w = tile.cols();
    std::vector<float> rounded(valueBytes_ == sizeof(float) && !map_ ? w : 0);
    for (std::size_t r = 0; r < tile.rows(); ++r) {
        const std::size_t at = dataOffset_ + ((tile.rowBegin + r) * cols_ + tile.colBegin) * valueBytes_;
        const double* row = values + r * w;
        if (map_) {
            if (valueBytes_ == sizeof(double)) {
                std::memcpy(map_ + at, row, w * sizeof(double));
                continue;
            }
            // The header leaves the values 4-byte aligned only as a float array's start:
            // copy through memcpy, not a float*, so no alignment is assumed.
            float f[256];
            for (std::size_t c0 = 0; c0 < w; c0 += 256) {
                const std::size_t n = std::min<std::size_t>(256, w - c0);
                for (std::size_t c = 0; c < n; ++c) f[c] = float(row[c0 + c]);  // to the nearest float
                std::memcpy(map_ + at + c0 * sizeof(float), f, n * sizeof(float));
            }
            continue;
        }
        if (valueBytes_ == sizeof(double)) {
            pwriteAll(fd_, reinterpret_cast<const char*>(row), w * sizeof(double), off_t(at), path_);
            continue;
        }
        for (std::size_t c = 0; c < w; ++c) rounded[c] = float(row[c]);
        pwriteAll(fd_, reinterpret_cast<const char*>(rounded.data()), w * sizeof(float), off_t(at), path_);
    }
}

void NpyTileFile::close(bool flush) {
    if (fd_ < 0) return;
    const int fd = std::exchange(fd_, -1);
    if (map_) {
        // The mapping's pages are the file's page cache: unmapping loses nothing, and the bytes
        // reach the disk as a write()'s would (or now, with fsync).
        ::munmap(map_, fileBytes_);
        map_ = nullptr;
    }
    if (flush && ::fsync(fd) != 0) {
        const std::string why = sysError(errno);
        ::close(fd);
        throw IoError(path_, "", "cannot flush: " + why);
    }
    if (::close(fd) != 0) throw IoError(path_, "", "cannot close: " + sysError(errno));
}

}  // namespace warplab::io
