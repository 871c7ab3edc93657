// A block of a distance matrix (row and column ranges), shared by the CPU and GPU paths,
// progress reporting and streaming export, as dtaidistance computes matrices by blocks.
#pragma once
#include <cstddef>
#include <vector>

namespace warplab::compute {

struct Tile {
    std::size_t rowBegin = 0, rowEnd = 0;  // [rowBegin, rowEnd)
    std::size_t colBegin = 0, colEnd = 0;  // [colBegin, colEnd)
    std::size_t rows() const { return rowEnd - rowBegin; }
    std::size_t cols() const { return colEnd - colBegin; }
    std::size_t cells() const { return rows() * cols(); }
};

// Splits rows x cols into tiles of at most tileRows x tileCols. With `symmetric`, only tiles
// that touch the upper triangle (col >= row) are produced.
std::vector<Tile> makeTiles(std::size_t rows, std::size_t cols, std::size_t tileRows,
                            std::size_t tileCols, bool symmetric);

}  // namespace warplab::compute
