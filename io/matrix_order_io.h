// The permutation written beside an exported distance matrix, so that the order the user saw
// (clustered, by label) can be undone: "<matrix file>.order.csv" with one row per matrix row,
//   position,row,name[,label]
// position: 0-based row in the exported file; row: 0-based row of the matrix as computed (file
// or channel order); name: the row's name; label: its group when ordered by label. A square
// matrix's columns are in the same order as its rows.
#pragma once
#include <string>
#include <vector>

namespace warplab::io {

std::string matrixOrderPath(const std::string& matrixPath);  // "<matrixPath>.order.csv"

// Throws IoError when the file cannot be written. `labels` may be empty.
void writeMatrixOrder(const std::string& path, const std::vector<std::size_t>& order, const std::vector<std::string>& names,
                      const std::vector<std::string>& labels);

}  // namespace warplab::io
