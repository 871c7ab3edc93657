// NumPy .npy arrays (format versions 1-3): reading float/int arrays of 1 or 2 dimensions as
// doubles, and the header for writing little-endian float64 in C order.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace warplab::io {

struct NpyArray {
    std::vector<std::size_t> shape;  // 1 or 2 dimensions
    std::vector<double> data;        // C order
    std::size_t rows() const { return shape.size() == 2 ? shape[0] : 1; }
    std::size_t cols() const { return shape.empty() ? 0 : shape.back(); }
};

// Accepts <f8, <f4, <i2, <i4, <i8 (and '|' byte order for one-byte types: |i1, |u1), C or
// Fortran order. Throws IoError naming the file, field ("magic", "descr", "shape", "data")
// and reason.
NpyArray parseNpy(const std::string& file, std::string_view bytes);
NpyArray readNpy(const std::string& path);

// Magic, version 1.0 header dict for '<f8', C order, `shape`, padded to a 64-byte boundary.
std::string npyHeader(const std::vector<std::size_t>& shape);

}  // namespace warplab::io
