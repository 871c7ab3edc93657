// Subsequence DTW reference (METRICS.md): a match may start at any reference column; top-k
// matches with an exclusion zone of floor(n/2) columns either side of each end.
#include <algorithm>
#include <limits>

#include "compute/core/recurrences.h"
#include "compute/cpu/reference.h"

namespace warplab::compute::reference {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Last row D(n-1, j) and, per column, the start column that backtracking would reach. The
// start is carried forwards with the tie order of backtracking (diagonal, up, left), which
// picks the same predecessor at every cell, so no full matrix is needed.
void lastRow(const Series& x, const Series& y, bool absCost, std::vector<double>& cost,
             std::vector<std::size_t>& start) {
    const std::size_t n = x.length, m = y.length;
    const int d = int(x.dims);
    std::vector<double> prev(m), cur(m);
    std::vector<std::size_t> prevS(m), curS(m);
    for (std::size_t j = 0; j < m; ++j) {
        prev[j] = cell::localCostN<double>(x.sample(0), y.sample(j), d, absCost);
        prevS[j] = j;
    }
    for (std::size_t i = 1; i < n; ++i) {
        const double c0 = cell::localCostN<double>(x.sample(i), y.sample(0), d, absCost);
        cur[0] = c0 + prev[0];
        curS[0] = prevS[0];
        for (std::size_t j = 1; j < m; ++j) {
            const double c = cell::localCostN<double>(x.sample(i), y.sample(j), d, absCost);
            const double diag = prev[j - 1], up = prev[j], left = cur[j - 1];
            if (diag <= up && diag <= left) { cur[j] = c + diag; curS[j] = prevS[j - 1]; }
            else if (up <= left) { cur[j] = c + up; curS[j] = prevS[j]; }
            else { cur[j] = c + left; curS[j] = curS[j - 1]; }
        }
        std::swap(prev, cur);
        std::swap(prevS, curS);
    }
    cost = std::move(prev);
    start = std::move(prevS);
}
}  // namespace

std::vector<Match> sdtwTopK(const Series& x, const Series& y, bool absCost, int k) {
    return sdtwTopK(x, y, absCost, k, {});
}

std::vector<Match> sdtwTopK(const Series& x, const Series& y, bool absCost, int k,
                            const std::vector<std::pair<std::size_t, std::size_t>>& excludedEnds) {
    return sdtwTopK(x, y, absCost, k, excludedEnds, {});
}

std::vector<Match> sdtwTopK(const Series& x, const Series& y, bool absCost, int k,
                            const std::vector<std::pair<std::size_t, std::size_t>>& excludedEnds,
                            const std::vector<ExcludedSpan>& spans) {
    std::vector<double> cost;
    std::vector<std::size_t> start;
    lastRow(x, y, absCost, cost, start);
    const std::size_t m = y.length, half = x.length / 2;
    for (const auto& r : excludedEnds)
        for (std::size_t j = r.first; j <= r.second && j < m; ++j) cost[j] = kInf;
    for (const ExcludedSpan& s : spans)
        for (std::size_t j = 0; j < m; ++j)
            if (overlapsBeyond(start[j], j, s)) cost[j] = kInf;
    std::vector<Match> out;
    for (int r = 0; r < k; ++r) {
        std::size_t best = m;
        for (std::size_t j = 0; j < m; ++j)  // strict < keeps the smallest j on ties
            if (cost[j] < kInf && (best == m || cost[j] < cost[best])) best = j;
        if (best == m) break;
        out.push_back(Match{cost[best], start[best], best});
        const std::size_t lo = best >= half ? best - half : 0, hi = std::min(m - 1, best + half);
        for (std::size_t j = lo; j <= hi; ++j) cost[j] = kInf;
    }
    return out;
}

double sdtw(const Series& x, const Series& y, bool absCost) {
    return sdtwTopK(x, y, absCost, 1).front().cost;
}

std::vector<double> sdtwMatrix(const Series& x, const Series& y, bool absCost, const RowHook& onRow) {
    const std::size_t n = x.length, m = y.length;
    const int d = int(x.dims);
    std::vector<double> D(n * m);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < m; ++j) {
            const double c = cell::localCostN<double>(x.sample(i), y.sample(j), d, absCost);
            if (i == 0) D[j] = c;
            else if (j == 0) D[i * m] = c + D[(i - 1) * m];
            else D[i * m + j] = cell::dtwStep(c, D[(i - 1) * m + j], D[i * m + j - 1], D[(i - 1) * m + j - 1]);
        }
        if (onRow) onRow(i + 1, n);
    }
    return D;
}

}  // namespace warplab::compute::reference
