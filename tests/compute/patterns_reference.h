// Independent expectations for the pattern tests, written straight from METRICS.md and kept
// deliberately naive (full scans, pairwise counts) so that they share no code with the
// pipeline: a scalar band DTW, pairwise AUC, exhaustive information gain, and the ranking.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <vector>

namespace patterns_reference {

// cdtw_w with squared cost; out-of-band cells are +inf (METRICS.md).
inline double cdtw(const float* x, const float* y, long n, long w) {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> D(std::size_t(n * n), inf);
    for (long i = 0; i < n; ++i)
        for (long j = std::max(0L, i - w); j <= std::min(n - 1, i + w); ++j) {
            const double c = (double(x[i]) - double(y[j])) * (double(x[i]) - double(y[j]));
            if (i == 0 && j == 0) {
                D[0] = c;
                continue;
            }
            double best = inf;
            if (i > 0) best = std::min(best, D[std::size_t((i - 1) * n + j)]);
            if (j > 0) best = std::min(best, D[std::size_t(i * n + j - 1)]);
            if (i > 0 && j > 0) best = std::min(best, D[std::size_t((i - 1) * n + j - 1)]);
            D[std::size_t(i * n + j)] = c + best;
        }
    return D[std::size_t(n * n - 1)];
}

// P(ictal distance < interictal distance) + 1/2 P(equal), over every pair.
inline double auc(const std::vector<double>& d, const std::vector<unsigned char>& ictal) {
    double wins = 0, pairs = 0;
    for (std::size_t a = 0; a < d.size(); ++a) {
        if (!ictal[a]) continue;
        for (std::size_t b = 0; b < d.size(); ++b) {
            if (ictal[b]) continue;
            pairs += 1;
            wins += d[a] < d[b] ? 1.0 : d[a] == d[b] ? 0.5 : 0.0;
        }
    }
    return wins / pairs;
}

inline double entropyBits(double pos, double total) {
    double h = 0;
    for (double k : {pos, total - pos})
        if (k > 0 && total > 0) h -= (k / total) * std::log2(k / total);
    return h;
}

// Best "distance <= t" split over every observed distance t (the largest one splits nothing).
inline double infoGain(const std::vector<double>& d, const std::vector<unsigned char>& ictal) {
    const double n = double(d.size());
    double pos = 0;
    for (auto v : ictal) pos += v;
    const double parent = entropyBits(pos, n);
    double best = 0;
    for (double t : d) {
        double l = 0, lp = 0;
        for (std::size_t k = 0; k < d.size(); ++k)
            if (d[k] <= t) {
                l += 1;
                lp += ictal[k];
            }
        if (l == n) continue;
        const double gain = parent - (l / n) * entropyBits(lp, l) - ((n - l) / n) * entropyBits(pos - lp, n - l);
        best = std::max(best, gain);
    }
    return best;
}

// Pattern indices, best quality first, lower index first on ties.
inline std::vector<std::size_t> ranking(const std::vector<double>& quality) {
    std::vector<std::size_t> order(quality.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return quality[a] > quality[b]; });
    return order;
}

}  // namespace patterns_reference
