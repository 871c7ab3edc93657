#include "widgets/matrix_downsample.h"

#include <cmath>
#include <limits>

namespace warplab::widgets {

DisplayMatrix downsampleMatrix(const double* values, std::size_t rows, std::size_t cols, std::size_t maxRows,
                               std::size_t maxCols) {
    DisplayMatrix d;
    if (rows == 0 || cols == 0) return d;
    d.rowStep = (rows + maxRows - 1) / maxRows;
    d.colStep = (cols + maxCols - 1) / maxCols;
    d.rows = (rows + d.rowStep - 1) / d.rowStep;
    d.cols = (cols + d.colStep - 1) / d.colStep;
    d.values.assign(d.rows * d.cols, 0.0);
    std::vector<std::size_t> counts(d.rows * d.cols, 0);
    for (std::size_t i = 0; i < rows; ++i) {
        const std::size_t di = i / d.rowStep;
        for (std::size_t j = 0; j < cols; ++j) {
            const double v = values[i * cols + j];
            if (!std::isfinite(v)) continue;
            const std::size_t k = di * d.cols + j / d.colStep;
            d.values[k] += v;
            ++counts[k];
        }
    }
    for (std::size_t k = 0; k < d.values.size(); ++k)
        d.values[k] = counts[k] ? d.values[k] / counts[k] : std::numeric_limits<double>::quiet_NaN();
    return d;
}

}  // namespace warplab::widgets
