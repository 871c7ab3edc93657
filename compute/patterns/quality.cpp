#include "compute/patterns/quality.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace warplab::compute {

std::string_view qualityName(Quality q) { return q == Quality::Auc ? "auc" : "infogain"; }

std::optional<Quality> parseQuality(std::string_view name) {
    if (name == "auc") return Quality::Auc;
    if (name == "infogain") return Quality::InfoGain;
    return std::nullopt;
}

namespace {

// Epoch indices ordered by distance (stable, so equal distances keep epoch order).
std::vector<std::size_t> orderByDistance(std::span<const double> d) {
    std::vector<std::size_t> order(d.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return d[a] < d[b]; });
    return order;
}

// Binary entropy in bits of a set with `pos` ictal out of `total`.
double entropy(double pos, double total) {
    if (total <= 0) return 0;
    double h = 0;
    for (double k : {pos, total - pos}) {
        if (k > 0) {
            double p = k / total;
            h -= p * std::log2(p);
        }
    }
    return h;
}

}  // namespace

double aucQuality(std::span<const double> d, std::span<const unsigned char> ictal) {
    const auto order = orderByDistance(d);
    // Sum of the (1-based, tie-averaged) ranks of the ictal epochs, ascending distance.
    double rankSumIctal = 0;
    double nIctal = 0;
    for (std::size_t a = 0; a < order.size();) {
        std::size_t b = a;
        while (b < order.size() && d[order[b]] == d[order[a]]) ++b;
        const double meanRank = (double(a + 1) + double(b)) / 2.0;
        for (std::size_t k = a; k < b; ++k)
            if (ictal[order[k]]) {
                rankSumIctal += meanRank;
                nIctal += 1;
            }
        a = b;
    }
    const double nInter = double(d.size()) - nIctal;
    if (nIctal == 0 || nInter == 0) return 0.5;
    // U counts the (ictal, interictal) pairs where the interictal epoch is nearer; a pattern
    // that puts every ictal epoch first has U = 0 and AUC 1.
    const double uIctalAbove = rankSumIctal - nIctal * (nIctal + 1) / 2.0;
    return 1.0 - uIctalAbove / (nIctal * nInter);
}

double infoGainQuality(std::span<const double> d, std::span<const unsigned char> ictal) {
    const auto order = orderByDistance(d);
    const double total = double(d.size());
    double totalIctal = 0;
    for (std::size_t i = 0; i < d.size(); ++i) totalIctal += ictal[i] ? 1 : 0;
    const double parent = entropy(totalIctal, total);
    double best = 0;
    double leftIctal = 0;
    for (std::size_t k = 0; k + 1 < order.size(); ++k) {
        leftIctal += ictal[order[k]] ? 1 : 0;
        if (d[order[k]] == d[order[k + 1]]) continue;  // a threshold cannot split equal distances
        const double left = double(k + 1), right = total - left;
        const double h = (left / total) * entropy(leftIctal, left) +
                         (right / total) * entropy(totalIctal - leftIctal, right);
        best = std::max(best, parent - h);
    }
    return best;
}

double quality(Quality q, std::span<const double> d, std::span<const unsigned char> ictal) {
    return q == Quality::Auc ? aucQuality(d, ictal) : infoGainQuality(d, ictal);
}

}  // namespace warplab::compute
