// Distance matrices as NumPy .npy: little-endian float64, C order, shape (rows, cols).
#include <fstream>

#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/npy.h"

namespace warplab::io {

void writeMatrixNpy(const std::string& path, const compute::DistanceMatrix& m) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw IoError(path, "", "cannot create the file");
    const std::string header = npyHeader({m.rows, m.cols});
    out.write(header.data(), std::streamsize(header.size()));
    out.write(reinterpret_cast<const char*>(m.values.data()), std::streamsize(m.values.size() * sizeof(double)));
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
