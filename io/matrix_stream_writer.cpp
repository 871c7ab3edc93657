// MatrixStreamWriter: tiles of a distance matrix go to disk as they are computed (NPY by
// pwrite into a pre-sized file, HDF5 by hyperslab), under a temporary name that finish()
// renames into place and the destructor removes when the job was cancelled or failed.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "io/hdf5_handles.h"
#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/matrix_io.h"
#include "io/npy.h"
#include "io/npy_offset_writer.h"
#include "io/npy_tile_file.h"

namespace warplab::io {

namespace {

class StreamWriterBase : public MatrixStreamWriter {
public:
    StreamWriterBase(std::string path, std::size_t rows, std::size_t cols, bool symmetric)
        : path_(std::move(path)), tmp_(temporaryPathFor(path_)), rows_(rows), cols_(cols), symmetric_(symmetric) {
        if (rows == 0 || cols == 0)
            throw IoError(path_, "matrix", "an empty matrix (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
        if (symmetric && rows != cols)
            throw IoError(path_, "matrix", "symmetric but " + std::to_string(rows) + " x " + std::to_string(cols));
    }

    void writeTile(const compute::Tile& t, const double* values) override {
        if (finished_) throw IoError(path_, "tile", "written after finish()");
        checkTileInside(path_, t, rows_, cols_);
        writeBlock(t.rowBegin, t.colBegin, t.rows(), t.cols(), t.cols(), values);
        if (!symmetric_) {
            cellsWritten_ += t.cells();
            return;
        }
        // Mirror the upper cells (r < c) of the tile: for column c they form one contiguous
        // run of output row c, columns [rowBegin, min(rowEnd, c)).
        std::vector<double> run;
        std::size_t upper = 0;  // cells on or above the diagonal
        for (std::size_t c = t.colBegin; c < t.colEnd; ++c) {
            const std::size_t end = std::min(t.rowEnd, c);
            if (c >= t.rowBegin) upper += std::min(t.rowEnd, c + 1) - t.rowBegin;
            if (end <= t.rowBegin) continue;
            run.resize(end - t.rowBegin);
            for (std::size_t r = t.rowBegin; r < end; ++r) run[r - t.rowBegin] = values[(r - t.rowBegin) * t.cols() + (c - t.colBegin)];
            writeBlock(c, t.rowBegin, 1, run.size(), run.size(), run.data());
        }
        cellsWritten_ += upper;
    }

    void finish() override {
        if (finished_) return;
        const std::size_t expected = symmetric_ ? rows_ * (rows_ + 1) / 2 : rows_ * cols_;
        const std::size_t written = cellsWritten_.load();
        if (written != expected)
            throw IoError(path_, "matrix", std::to_string(written) + " of " + std::to_string(expected) +
                                               " cells were written; the export is incomplete");
        close();
        std::error_code ec;
        std::filesystem::rename(tmp_, path_, ec);
        if (ec) throw IoError(path_, "", "cannot rename the finished file into place: " + ec.message());
        finished_ = true;
    }

protected:
    // `values` row-major with row stride `stride`.
    virtual void writeBlock(std::size_t r0, std::size_t c0, std::size_t nr, std::size_t nc, std::size_t stride,
                            const double* values) = 0;
    virtual void close() = 0;
    void discard() {
        if (!finished_) std::remove(tmp_.c_str());
    }

    std::string path_, tmp_;
    std::size_t rows_, cols_;
    bool symmetric_;
    bool finished_ = false;
    std::atomic<std::size_t> cellsWritten_{0};
};

class NpyStreamWriter final : public StreamWriterBase {
public:
    NpyStreamWriter(const std::string& path, std::size_t rows, std::size_t cols, bool symmetric, bool float32)
        : StreamWriterBase(path, rows, cols, symmetric) {
        // The destructor does not run for a constructor that throws: the temporary goes here.
        int fd = -1;
        try {
            createNpyShell(tmp_, rows, cols, float32);
            fd = ::open(tmp_.c_str(), O_RDWR | O_CLOEXEC);
            if (fd < 0) throw IoError(tmp_, "", std::string("cannot open for writing: ") + std::strerror(errno));
        } catch (const IoError& e) {  // named by the file the user asked for, not its temporary
            std::remove(tmp_.c_str());
            throw IoError(path_, e.field(), e.reason());
        }
        try {
            file_ = std::make_unique<NpyTileFile>(path_, fd, npyHeader({rows, cols}, float32 ? "<f4" : "<f8").size(), rows,
                                                  cols, float32, NpyTileFile::Access::Mapped);
        } catch (...) {  // it closed fd
            std::remove(tmp_.c_str());
            throw;
        }
    }
    ~NpyStreamWriter() override {
        file_.reset();
        discard();
    }
    bool concurrentTiles() const override { return true; }

private:
    void writeBlock(std::size_t r0, std::size_t c0, std::size_t nr, std::size_t nc, std::size_t,
                    const double* values) override {
        file_->writeTile({r0, r0 + nr, c0, c0 + nc}, values);
    }
    void close() override { file_->close(false); }
    std::unique_ptr<NpyTileFile> file_;
};

class Hdf5StreamWriter final : public StreamWriterBase {
public:
    Hdf5StreamWriter(const std::string& path, std::size_t rows, std::size_t cols, const compute::Params& params,
                     bool symmetric, bool float32)
        : StreamWriterBase(path, rows, cols, symmetric) {
        std::lock_guard lock(hdf5Mutex());
        try {
            auto [f, d] = createMatrixFile(tmp_, rows, cols, params, symmetric, float32);
            file_ = std::move(f);
            dset_ = std::move(d);
        } catch (const IoError& e) {
            std::remove(tmp_.c_str());
            throw IoError(path_, e.field(), e.reason());
        }
    }
    ~Hdf5StreamWriter() override {
        std::lock_guard lock(hdf5Mutex());
        dset_.reset();
        file_.reset();
        discard();
    }

private:
    void writeBlock(std::size_t r0, std::size_t c0, std::size_t nr, std::size_t nc, std::size_t stride,
                    const double* values) override {
        std::lock_guard lock(hdf5Mutex());
        if (stride == nc) {
            writeMatrixBlock(path_, dset_.get(), r0, c0, nr, nc, values);
            return;
        }
        for (std::size_t r = 0; r < nr; ++r) writeMatrixBlock(path_, dset_.get(), r0 + r, c0, 1, nc, values + r * stride);
    }
    void close() override {
        std::lock_guard lock(hdf5Mutex());
        dset_.reset();
        if (file_.valid() && H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) throw IoError(path_, "", "HDF5 flush failed: " + hdf5Reason());
        file_.reset();
    }
    H5Handle file_, dset_;
};

}  // namespace

std::unique_ptr<MatrixStreamWriter> MatrixStreamWriter::create(const std::string& path, std::size_t rows,
                                                               std::size_t cols, const compute::Params& params) {
    return create(path, rows, cols, params, false);
}

std::unique_ptr<MatrixStreamWriter> MatrixStreamWriter::create(const std::string& path, std::size_t rows,
                                                               std::size_t cols, const compute::Params& params,
                                                               bool symmetric, MatrixValueType type) {
    const std::string ext = lowerExtension(path);
    const bool float32 = type == MatrixValueType::Float32;
    if (ext == ".npy") return std::make_unique<NpyStreamWriter>(path, rows, cols, symmetric, float32);
    if (ext == ".h5" || ext == ".hdf5")
        return std::make_unique<Hdf5StreamWriter>(path, rows, cols, params, symmetric, float32);
    throw IoError(path, "format", "streaming export writes .npy or .h5, not \"" + ext + "\"");
}

}  // namespace warplab::io
