// Result types the engine returns and the views and writers consume.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/params.h"

namespace warplab::compute {

struct DistanceMatrix {
    std::size_t rows = 0, cols = 0;
    std::vector<double> values;  // row-major rows x cols
    bool symmetric = false;      // all pairs of one set: values mirrored from the upper triangle
    Params params;
    std::vector<std::string> rowNames, colNames;

    double at(std::size_t r, std::size_t c) const { return values[r * cols + c]; }
    double& at(std::size_t r, std::size_t c) { return values[r * cols + c]; }
};

// One alignment of x (rows, n) against y (columns, m).
struct Alignment {
    double distance = 0;                              // after --sqrt when asked
    std::vector<std::pair<std::size_t, std::size_t>> path;  // (i, j) from (0,0)-ish to (n-1, m-1)
    std::size_t n = 0, m = 0;
    std::vector<double> matrix;  // accumulated cost n x m when requested (empty otherwise)
};

struct Match {
    double cost = 0;       // accumulated cost (after --sqrt when asked)
    std::size_t start = 0; // first reference sample of the match
    std::size_t end = 0;   // last reference sample of the match (inclusive)
};

}  // namespace warplab::compute
