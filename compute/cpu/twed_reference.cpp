// TWED reference (Marteau; the convention of cuTWED's reference_implementation/twed.c): padded
// with a zero sample at time 0, p-norm point distances rooted separately in the match term.
#include <algorithm>
#include <cmath>
#include <limits>

#include "compute/core/recurrences.h"
#include "compute/cpu/reference.h"

namespace warplab::compute::reference {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Timestamp of 0-based sample i; the padding sample x(-1) has t = 0 (METRICS.md).
double stamp(long i, double rate) {
    if (i < 0) return 0.0;
    return rate > 0 ? double(i) / rate : double(i);
}

const float* prevSample(const Series& s, std::size_t i) { return i == 0 ? nullptr : s.sample(i - 1); }

// Fills DP rows 1..n (METRICS.md indices) and hands each finished row to `row` (1-based
// cells 1..m at indices 1..m of the vector).
template <typename RowFn>
void run(const Series& x, const Series& y, double nu, double lambda, double p, double rate, RowFn row) {
    const std::size_t n = x.length, m = y.length;
    const int d = int(x.dims);
    std::vector<double> dy(m);  // |y_j - y_{j-1}|_p, independent of the row
    for (std::size_t j = 0; j < m; ++j) dy[j] = cell::pointDistP<double>(y.sample(j), prevSample(y, j), d, p);
    std::vector<double> prev(m + 1, kInf), cur(m + 1, kInf);
    prev[0] = 0;  // DP(0,0)
    for (std::size_t i = 0; i < n; ++i) {
        const double dx = cell::pointDistP<double>(x.sample(i), prevSample(x, i), d, p);
        const double ta = stamp(long(i), rate), tap = stamp(long(i) - 1, rate);
        cur[0] = kInf;
        for (std::size_t j = 0; j < m; ++j) {
            double dmatch = cell::pointDistP<double>(x.sample(i), y.sample(j), d, p);
            const float* xp = prevSample(x, i);
            const float* yp = prevSample(y, j);
            // |x_{i-1} - y_{j-1}|_p with either side possibly the zero padding sample.
            if (xp && yp) dmatch += cell::pointDistP<double>(xp, yp, d, p);
            else if (xp) dmatch += cell::pointDistP<double, float>(xp, nullptr, d, p);
            else if (yp) dmatch += cell::pointDistP<double, float>(yp, nullptr, d, p);
            const double tb = stamp(long(j), rate), tbp = stamp(long(j) - 1, rate);
            cur[j + 1] = cell::twedCombine(prev[j + 1], cur[j], prev[j], dx, dy[j], dmatch, ta, tap,
                                           tb, tbp, nu, lambda);
        }
        row(i, cur);
        std::swap(prev, cur);
    }
}
}  // namespace

double twed(const Series& x, const Series& y, double nu, double lambda, double degree, double rate) {
    double result = kInf;
    const std::size_t n = x.length, m = y.length;
    run(x, y, nu, lambda, degree, rate, [&](std::size_t i, const std::vector<double>& r) {
        if (i == n - 1) result = r[m];
    });
    return result;
}

std::vector<double> twedMatrix(const Series& x, const Series& y, double nu, double lambda,
                               double degree, double rate, const RowHook& onRow) {
    const std::size_t m = y.length;
    std::vector<double> out(x.length * m);
    run(x, y, nu, lambda, degree, rate, [&](std::size_t i, const std::vector<double>& r) {
        for (std::size_t j = 0; j < m; ++j) out[i * m + j] = r[j + 1];
        if (onRow) onRow(i + 1, x.length);
    });
    return out;
}

Path twedBacktrack(const Series& x, const Series& y, const std::vector<double>& acc, double nu,
                   double lambda, double degree, double rate) {
    // Walks back through the operation that gave each cell its value (match, then delete in x,
    // then delete in y on ties, the order of METRICS.md's backtracking), recomputing the three
    // candidate terms from the DP, so the path is the one TWED actually took.
    const std::size_t m = y.length;
    const int d = int(x.dims);
    auto dp = [&](long i, long j) {  // METRICS.md's DP(i+1, j+1); DP(0,0) = 0, other borders +inf
        if (i < 0 && j < 0) return 0.0;
        if (i < 0 || j < 0) return kInf;
        return acc[std::size_t(i) * m + std::size_t(j)];
    };
    auto pd = [&](const float* a, const float* b) {
        if (!a && !b) return 0.0;
        return a ? cell::pointDistP<double, float>(a, b, d, degree) : cell::pointDistP<double, float>(b, nullptr, d, degree);
    };
    Path path;
    long i = long(x.length) - 1, j = long(m) - 1;
    while (i >= 0 && j >= 0) {
        path.emplace_back(std::size_t(i), std::size_t(j));
        const float* xp = prevSample(x, std::size_t(i));
        const float* yp = prevSample(y, std::size_t(j));
        const double ta = stamp(i, rate), tap = stamp(i - 1, rate), tb = stamp(j, rate), tbp = stamp(j - 1, rate);
        const double match = dp(i - 1, j - 1) + pd(x.sample(std::size_t(i)), y.sample(std::size_t(j))) + pd(xp, yp) +
                             nu * (std::fabs(ta - tb) + std::fabs(tap - tbp));
        const double delX = dp(i - 1, j) + pd(x.sample(std::size_t(i)), xp) + nu * (ta - tap) + lambda;
        const double delY = dp(i, j - 1) + pd(y.sample(std::size_t(j)), yp) + nu * (tb - tbp) + lambda;
        if (match <= delX && match <= delY) { --i; --j; }
        else if (delX <= delY) { --i; }
        else { --j; }
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace warplab::compute::reference
