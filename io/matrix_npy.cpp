// Distance matrices as NumPy .npy: little-endian float64 (or float32), C order, shape (rows, cols).
#include <algorithm>
#include <fstream>
#include <vector>

#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/npy.h"

namespace warplab::io {

void writeMatrixNpy(const std::string& path, const compute::DistanceMatrix& m, bool float32) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw IoError(path, "", "cannot create the file");
    const std::string header = npyHeader({m.rows, m.cols}, float32 ? "<f4" : "<f8");
    out.write(header.data(), std::streamsize(header.size()));
    if (!float32) {
        out.write(reinterpret_cast<const char*>(m.values.data()), std::streamsize(m.values.size() * sizeof(double)));
    } else {
        std::vector<float> piece;  // rounded a piece at a time, never a second whole matrix
        for (std::size_t at = 0; at < m.values.size(); at += std::size_t(1) << 20) {
            const std::size_t n = std::min(m.values.size() - at, std::size_t(1) << 20);
            piece.assign(m.values.begin() + std::ptrdiff_t(at), m.values.begin() + std::ptrdiff_t(at + n));
            out.write(reinterpret_cast<const char*>(piece.data()), std::streamsize(n * sizeof(float)));
        }
    }
    if (!out.flush()) throw IoError(path, "", "write failed (disk full?)");
}

compute::DistanceMatrix readMatrixNpy(const std::string& path) {
    NpyArray a = readNpy(path);
    compute::DistanceMatrix m;
    m.rows = a.rows();
    m.cols = a.cols();
    m.values = std::move(a.data);
    return m;
}

}  // namespace warplab::io
