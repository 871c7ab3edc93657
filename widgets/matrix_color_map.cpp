#include "widgets/matrix_color_map.h"

#include <qcustomplot.h>

#include "widgets/matrix_downsample.h"

namespace warplab::widgets {

void showDisplayMatrix(QCPColorMap* map, const DisplayMatrix& d) {
    map->data()->setSize(int(d.cols), int(d.rows));
    map->data()->setRange(QCPRange((d.colStep - 1) / 2.0, (d.cols - 1) * d.colStep + (d.colStep - 1) / 2.0),
                          QCPRange((d.rowStep - 1) / 2.0, (d.rows - 1) * d.rowStep + (d.rowStep - 1) / 2.0));
    for (std::size_t i = 0; i < d.rows; ++i)
        for (std::size_t j = 0; j < d.cols; ++j) map->data()->setCell(int(j), int(i), d.values[i * d.cols + j]);
    map->rescaleDataRange(true);
}

}  // namespace warplab::widgets
