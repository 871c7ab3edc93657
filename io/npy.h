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

// An .npy file's header, for reading part of its values without the rest (an MPI rank's
// stretch of a long reference): the values are `count` items of `valueSize` bytes from byte
// `dataStart`, in C order (Fortran order for 2-D: the same as C for one row or one column).
struct NpyLayout {
    std::vector<std::size_t> shape;
    std::string type;  // the descr, e.g. "<f4"
    bool fortran = false;
    std::size_t valueSize = 0, dataStart = 0, count = 0;
};
// Reads the header only; the errors of readNpy (the file's size must hold every value).
NpyLayout readNpyLayout(const std::string& path);
// Values [first, first + count) in file order, as doubles; IoError naming the file when they lie
// outside the array or the file ends early.
std::vector<double> readNpyValues(const std::string& path, const NpyLayout& layout, std::size_t first,
                                  std::size_t count);

// The header of an .npy file held in memory, its data's size checked (the errors of parseNpy).
NpyLayout parseNpyLayout(const std::string& file, std::string_view bytes);
// Values [first, first + count) in file order of an .npy held in memory (`bytes` as given to
// parseNpyLayout, which checked they are there), as doubles, into `out`.
void decodeNpyValues(const NpyLayout& layout, std::string_view bytes, std::size_t first, std::size_t count, double* out);

// Magic, version 1.0 header dict for `descr` ('<f8' doubles, '<f4' floats), C order, `shape`,
// padded to a 64-byte boundary.
std::string npyHeader(const std::vector<std::size_t>& shape, const std::string& descr = "<f8");

}  // namespace warplab::io
