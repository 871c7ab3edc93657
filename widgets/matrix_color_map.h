// Shows a display matrix (matrix_downsample.h) in a QCustomPlot colour map: one cell per
// display cell, placed at the centres of its blocks in input sample coordinates, so that axes
// keep counting input rows and columns however much the matrix was shrunk.
#pragma once

class QCPColorMap;

namespace warplab::widgets {

struct DisplayMatrix;

// Sizes `map` to `d`, fills its cells and rescales its colour range to the values.
void showDisplayMatrix(QCPColorMap* map, const DisplayMatrix& d);

}  // namespace warplab::widgets
