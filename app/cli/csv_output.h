// Machine-readable text on stdout: numbers in the shortest form that reads back bit-exact
// (std::to_chars), matrices as CSV rows. Kept apart from the io writers, which write files.
#pragma once
#include <ostream>
#include <string>

#include "compute/core/results.h"

namespace warplab::cli {

// Shortest decimal text that parses back to exactly `v` ("inf", "-inf", "nan" for those).
std::string formatDouble(double v);

// One line per row, values separated by commas, no header.
void writeMatrixCsv(std::ostream& out, const compute::DistanceMatrix& m);

// Flushes stdout and throws when it could not be written (a closed pipe, a full disk), so
// that a truncated output never ends with exit code 0.
void flushStdout();

}  // namespace warplab::cli
