// The per-format matrix writers and readers behind writeMatrix/readMatrix (internal to io/).
#pragma once
#include <string>

#include "compute/core/results.h"
#include "io/temporary_files.h"

namespace warplab::io {

void writeMatrixCsv(const std::string& path, const compute::DistanceMatrix& m);
compute::DistanceMatrix readMatrixCsv(const std::string& path);
void writeMatrixNpy(const std::string& path, const compute::DistanceMatrix& m, bool float32 = false);
compute::DistanceMatrix readMatrixNpy(const std::string& path);
void writeMatrixHdf5(const std::string& path, const compute::DistanceMatrix& m, bool float32 = false);
compute::DistanceMatrix readMatrixHdf5(const std::string& path);

// "out.h5" -> ".h5" lower-cased.
std::string lowerExtension(const std::string& path);
// temporaryPathFor (a temporary name next to `path`) lives in io/temporary_files.h.

}  // namespace warplab::io
