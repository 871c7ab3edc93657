#include "app/cli/csv_output.h"

#include <charconv>
#include <cmath>
#include <iostream>
#include <stdexcept>

namespace warplab::cli {

std::string formatDouble(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
    if (ec != std::errc()) throw std::runtime_error("cannot format a number");
    return std::string(buf, end);
}

void writeMatrixCsv(std::ostream& out, const compute::DistanceMatrix& m) {
    std::string line;
    for (std::size_t r = 0; r < m.rows; ++r) {
        line.clear();
        for (std::size_t c = 0; c < m.cols; ++c) {
            if (c) line += ',';
            line += formatDouble(m.at(r, c));
        }
        line += '\n';
        out << line;
    }
}

void flushStdout() {
    std::cout.flush();
    if (!std::cout) throw std::runtime_error("stdout: write failed");
}

}  // namespace warplab::cli
