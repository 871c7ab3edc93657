// The per-format matrix writers and readers behind writeMatrix/readMatrix (internal to io/).
#pragma once
#include <string>

#include "compute/core/results.h"

namespace warplab::io {

void writeMatrixCsv(const std::string& path, const compute::DistanceMatrix& m);
compute::DistanceMatrix readMatrixCsv(const std::string& path);
void writeMatrixNpy(const std::string& path, const compute::DistanceMatrix& m);
compute::DistanceMatrix readMatrixNpy(const std::string& path);
void writeMatrixHdf5(const std::string& path, const compute::DistanceMatrix& m);
compute::DistanceMatrix readMatrixHdf5(const std::string& path);

// "out.h5" -> ".h5" lower-cased.
std::string lowerExtension(const std::string& path);
// A temporary name next to `path` (same directory, so rename() is atomic).
std::string temporaryPathFor(const std::string& path);

}  // namespace warplab::io
