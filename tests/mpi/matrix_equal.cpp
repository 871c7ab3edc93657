// matrix_equal A B: exit 0 when two matrix files (.npy, .h5, .csv) hold the same shape, names
// and values bit for bit. For .h5, whose object headers carry modification times, byte
// comparison of the files would depend on the second they were written.
#include <cstdio>
#include <cstring>
#include <exception>

#include "io/matrix_io.h"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s A B\n", argv[0]);
        return 2;
    }
    try {
        const auto a = warplab::io::readMatrix(argv[1]), b = warplab::io::readMatrix(argv[2]);
        const bool same = a.rows == b.rows && a.cols == b.cols && a.rowNames == b.rowNames && a.colNames == b.colNames &&
                          a.values.size() == b.values.size() &&
                          std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)) == 0;
        std::printf("%s: %zu x %zu %s\n", argv[2], b.rows, b.cols, same ? "identical" : "DIFFERENT");
        return same ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
