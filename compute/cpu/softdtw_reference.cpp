// Soft-DTW reference (Cuturi & Blondel 2017): value by the forward recursion with a stable
// soft-min, gradient with respect to x by their backward recursion for the expected
// alignment matrix E.
#include <cmath>
#include <limits>

#include "compute/core/recurrences.h"
#include "compute/cpu/reference.h"

namespace warplab::compute::reference {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// R padded by one row and column on each side, (n+2) x (m+2), 1-based cells as in the
// reference code mblondel/soft-dtw: R(0,0) = 0, the rest of the top row and left column +inf.
std::vector<double> paddedR(const Series& x, const Series& y, bool absCost, double gamma,
                            std::vector<double>* costs, const RowHook& onRow = {}) {
    const std::size_t n = x.length, m = y.length, w = m + 2;
    const int d = int(x.dims);
    std::vector<double> R((n + 2) * w, kInf);
    if (costs) costs->assign((n + 2) * w, 0.0);
    R[0] = 0;
    for (std::size_t i = 1; i <= n; ++i) {
        for (std::size_t j = 1; j <= m; ++j) {
            const double c = cell::localCostN<double>(x.sample(i - 1), y.sample(j - 1), d, absCost);
            if (costs) (*costs)[i * w + j] = c;
            R[i * w + j] = cell::softDtwStep(c, R[(i - 1) * w + j], R[i * w + j - 1],
                                             R[(i - 1) * w + j - 1], gamma);
        }
        if (onRow) onRow(i, n);
    }
    return R;
}
}  // namespace

double softDtw(const Series& x, const Series& y, bool absCost, double gamma, long band) {
    const std::size_t n = x.length, m = y.length;
    const int d = int(x.dims);
    // prev[j + 1] = R(i-1, j); index 0 is the padding column.
    std::vector<double> prev(m + 1, kInf), cur(m + 1, kInf);
    prev[0] = 0;  // R(-1, -1)
    for (std::size_t i = 0; i < n; ++i) {
        cur[0] = kInf;
        for (std::size_t j = 0; j < m; ++j) {
            if (band >= 0 && !cell::inBand(long(i), long(j), long(n), long(m), band)) {
                cur[j + 1] = kInf;
                continue;
            }
            const double c = cell::localCostN<double>(x.sample(i), y.sample(j), d, absCost);
            cur[j + 1] = cell::softDtwStep(c, prev[j + 1], cur[j], prev[j], gamma);
        }
        std::swap(prev, cur);
    }
    return prev[m];
}

std::vector<double> softDtwMatrix(const Series& x, const Series& y, bool absCost, double gamma,
                                  const RowHook& onRow) {
    const std::size_t n = x.length, m = y.length, w = m + 2;
    std::vector<double> R = paddedR(x, y, absCost, gamma, nullptr, onRow);
    std::vector<double> out(n * m);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) out[i * m + j] = R[(i + 1) * w + j + 1];
    return out;
}

std::vector<double> softDtwGradient(const Series& x, const Series& y, bool absCost, double gamma) {
    const std::size_t n = x.length, m = y.length, w = m + 2, d = x.dims;
    std::vector<double> C;
    std::vector<double> R = paddedR(x, y, absCost, gamma, &C);
    // Backward pass: the cells past the end are -inf so that their weights exp(...) vanish,
    // except the corner, which carries R(n, m) and E = 1.
    for (std::size_t i = 1; i <= n; ++i) R[i * w + m + 1] = -kInf;
    for (std::size_t j = 1; j <= m; ++j) R[(n + 1) * w + j] = -kInf;
    R[(n + 1) * w + m + 1] = R[n * w + m];
    std::vector<double> E((n + 2) * w, 0.0);
    E[(n + 1) * w + m + 1] = 1;
    for (std::size_t j = m; j >= 1; --j)
        for (std::size_t i = n; i >= 1; --i) {
            const double r = R[i * w + j];
            const double a = std::exp((R[(i + 1) * w + j] - r - C[(i + 1) * w + j]) / gamma);
            const double b = std::exp((R[i * w + j + 1] - r - C[i * w + j + 1]) / gamma);
            const double c = std::exp((R[(i + 1) * w + j + 1] - r - C[(i + 1) * w + j + 1]) / gamma);
            E[i * w + j] = E[(i + 1) * w + j] * a + E[i * w + j + 1] * b + E[(i + 1) * w + j + 1] * c;
        }
    // Chain rule: d c(x_i, y_j) / d x_ic is 2 (x_ic - y_jc) (sq) or sign(x_ic - y_jc) (abs).
    std::vector<double> grad(n * d, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) {
            const double e = E[(i + 1) * w + j + 1];
            if (e == 0) continue;
            for (std::size_t c = 0; c < d; ++c) {
                const double diff = double(x.sample(i)[c]) - double(y.sample(j)[c]);
                const double dc = absCost ? (diff > 0 ? 1.0 : (diff < 0 ? -1.0 : 0.0)) : 2.0 * diff;
                grad[i * d + c] += e * dc;
            }
        }
    return grad;
}

}  // namespace warplab::compute::reference
