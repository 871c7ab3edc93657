// Shrinks a large matrix for display: each output cell is the mean of its block of input
// cells, ignoring +inf (cells outside a band); a block with no finite cell becomes NaN, which
// the colour maps draw as transparent. A 20000 x 20000 cost matrix thus shows as 600 x 600.
#pragma once
#include <cstddef>
#include <vector>

namespace warplab::widgets {

struct DisplayMatrix {
    std::size_t rows = 0, cols = 0;     // of the display grid
    std::size_t rowStep = 1, colStep = 1;  // input cells per display cell
    std::vector<double> values;         // rows x cols, row-major
};

DisplayMatrix downsampleMatrix(const double* values, std::size_t rows, std::size_t cols, std::size_t maxRows,
                               std::size_t maxCols);

}  // namespace warplab::widgets
