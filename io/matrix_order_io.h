// The permutation written beside an exported distance matrix, so that the order the user saw
// (clustered, by label) can be undone: "<matrix file>.order.csv" with one row per matrix row,
//   position,row,name[,label]
// position: 0-based row in the exported file; row: 0-based row of the matrix as computed (file
// or channel order); name: the row's name; label: its group when ordered by label. A square
// matrix's columns are in the same order as its rows.
#pragma once
#include <string>
#include <vector>

#include "compute/core/results.h"

namespace warplab::io {

std::string matrixOrderPath(const std::string& matrixPath);  // "<matrixPath>.order.csv"

// Throws IoError when the file cannot be written. `labels` may be empty. Written under a
// temporary name and renamed over: a full disk keeps the previous file.
void writeMatrixOrder(const std::string& path, const std::vector<std::size_t>& order, const std::vector<std::string>& names,
                      const std::vector<std::string>& labels);

// The matrix (writeMatrix, already in the order shown) and its order file beside it, as a pair:
// the order goes to a temporary first, then the matrix is written, then the order is renamed
// into place. A failure of either leaves both previous files as they were, never a new matrix
// beside an old order. Throws IoError naming the file that failed.
void writeMatrixWithOrder(const std::string& path, const compute::DistanceMatrix& shown, const std::vector<std::size_t>& order,
                          const std::vector<std::string>& names, const std::vector<std::string>& labels);

}  // namespace warplab::io
