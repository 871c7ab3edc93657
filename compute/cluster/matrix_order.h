// Orders for showing a distance matrix: by group label (a region kind, a class) and the
// permuted copy of the matrix that the view shows and exports.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "compute/core/results.h"

namespace warplab::compute {

// Rows sorted by label (byte order), "" (no label) last, file order inside a label (stable).
std::vector<std::size_t> orderByLabel(const std::vector<std::string>& labels);

// The matrix with rows in `rowOrder` and columns in `colOrder` (order[position] = original
// index), names moved with them. Throws EngineError(BadInput, "order") unless each order is a
// permutation of its dimension.
DistanceMatrix permuteMatrix(const DistanceMatrix& m, const std::vector<std::size_t>& rowOrder,
                             const std::vector<std::size_t>& colOrder);

}  // namespace warplab::compute
