// DTW and Sakoe-Chiba band DTW reference (METRICS.md), plus the shared backtracking.
#include <algorithm>
#include <cmath>
#include <limits>

#include "compute/core/preprocess.h"
#include "compute/core/recurrences.h"
#include "compute/cpu/reference.h"

namespace warplab::compute::reference {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Columns of row i that are computed: the whole row without a band.
BandRange rowRange(long i, long n, long m, long band) {
    if (band < 0) return {0, m - 1};
    return bandRow(i, n, m, band);
}
}  // namespace

double dtw(const Series& x, const Series& y, bool absCost, long band) {
    const long n = long(x.length), m = long(y.length);
    const int d = int(x.dims);
    // Two rows; every cell outside the band stays +inf, so neighbours read it as unreachable.
    std::vector<double> prev(std::size_t(m), kInf), cur(std::size_t(m), kInf);
    BandRange prevR{0, -1};
    for (long i = 0; i < n; ++i) {
        BandRange r = rowRange(i, n, m, band);
        std::fill(cur.begin(), cur.end(), kInf);
        for (long j = r.lo; j <= r.hi; ++j) {
            const double c = cell::localCostN<double>(x.sample(std::size_t(i)), y.sample(std::size_t(j)), d, absCost);
            if (i == 0 && j == 0) { cur[0] = c; continue; }
            const double up = (i > 0 && j >= prevR.lo && j <= prevR.hi) ? prev[std::size_t(j)] : kInf;
            const double left = j > 0 ? cur[std::size_t(j - 1)] : kInf;
            const double diag = (i > 0 && j > 0 && j - 1 >= prevR.lo && j - 1 <= prevR.hi) ? prev[std::size_t(j - 1)] : kInf;
            cur[std::size_t(j)] = cell::dtwStep(c, up, left, diag);
        }
        std::swap(prev, cur);
        prevR = r;
    }
    return prev[std::size_t(m - 1)];
}

std::vector<double> dtwMatrix(const Series& x, const Series& y, bool absCost, long band, const RowHook& onRow) {
    const long n = long(x.length), m = long(y.length);
    const int d = int(x.dims);
    std::vector<double> D(std::size_t(n * m), kInf);
    auto at = [&](long i, long j) { return (i < 0 || j < 0) ? kInf : D[std::size_t(i * m + j)]; };
    for (long i = 0; i < n; ++i) {
        BandRange r = rowRange(i, n, m, band);
        for (long j = r.lo; j <= r.hi; ++j) {
            const double c = cell::localCostN<double>(x.sample(std::size_t(i)), y.sample(std::size_t(j)), d, absCost);
            D[std::size_t(i * m + j)] =
                (i == 0 && j == 0) ? c : cell::dtwStep(c, at(i - 1, j), at(i, j - 1), at(i - 1, j - 1));
        }
        if (onRow) onRow(std::size_t(i + 1), std::size_t(n));
    }
    return D;
}

namespace {

// Walks back from (i, j) preferring diagonal, then (i-1, j), then (i, j-1) on ties (METRICS.md).
// DTW ends at (0, 0); a subsequence match ends anywhere in row 0.
Path backtrackFrom(const std::vector<double>& acc, std::size_t m, std::size_t i, std::size_t j, bool toRowZero) {
    Path path;
    path.emplace_back(i, j);
    while (i > 0 || (!toRowZero && j > 0)) {
        if (i == 0) {
            --j;
        } else if (j == 0) {
            --i;
        } else {
            const double diag = acc[(i - 1) * m + (j - 1)];
            const double up = acc[(i - 1) * m + j];
            const double left = acc[i * m + (j - 1)];
            if (diag <= up && diag <= left) { --i; --j; }
            else if (up <= left) { --i; }
            else { --j; }
        }
        path.emplace_back(i, j);
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace

Path backtrack(const std::vector<double>& acc, std::size_t n, std::size_t m) {
    return backtrackFrom(acc, m, n - 1, m - 1, false);
}

Path sdtwBacktrack(const std::vector<double>& acc, std::size_t n, std::size_t m, std::size_t end) {
    return backtrackFrom(acc, m, n - 1, end, true);
}

}  // namespace warplab::compute::reference
