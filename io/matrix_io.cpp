// writeMatrix / readMatrix: the format follows the extension; every writer goes to a
// temporary name first and renames, so a failed export never leaves half a file behind.
#include "io/matrix_io.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>

#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/trim_lower.h"

namespace warplab::io {

std::string lowerExtension(const std::string& path) {
    return lower(std::filesystem::path(path).extension().string());
}

void writeMatrix(const std::string& path, const compute::DistanceMatrix& m, MatrixValueType type) {
    if (m.values.size() != m.rows * m.cols)
        throw IoError(path, "matrix", std::to_string(m.values.size()) + " values for " + std::to_string(m.rows) +
                                          " x " + std::to_string(m.cols));
    const std::string ext = lowerExtension(path);
    if (ext != ".csv" && ext != ".npy" && ext != ".h5" && ext != ".hdf5")
        throw IoError(path, "format", "unknown matrix format \"" + ext + "\" (use .csv, .npy or .h5)");
    const bool float32 = type == MatrixValueType::Float32;
    if (float32 && ext == ".csv") throw IoError(path, "dtype", "float32 values are written to .npy or .h5, not .csv");
    const std::string tmp = temporaryPathFor(path);
    try {
        if (ext == ".csv") writeMatrixCsv(tmp, m);
        else if (ext == ".npy") writeMatrixNpy(tmp, m, float32);
        else writeMatrixHdf5(tmp, m, float32);
    } catch (const IoError& e) {
        std::remove(tmp.c_str());
        throw IoError(path, e.field(), e.reason());  // named after `path`, not the temporary
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw IoError(path, "", "cannot rename the finished file into place: " + ec.message());
    }
}

compute::DistanceMatrix readMatrix(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw IoError(path, "", "no such file");
    const std::string ext = lowerExtension(path);
    if (ext == ".csv") return readMatrixCsv(path);
    if (ext == ".npy") return readMatrixNpy(path);
    if (ext == ".h5" || ext == ".hdf5") return readMatrixHdf5(path);
    throw IoError(path, "format", "unknown matrix format \"" + ext + "\" (use .csv, .npy or .h5)");
}

}  // namespace warplab::io
