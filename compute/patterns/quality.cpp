#include "compute/patterns/quality.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace warplab::compute {

std::string_view qualityName(Quality q) { return q == Quality::Auc ? "auc" : "infogain"; }

std::optional<Quality> parseQuality(std::string_view name) {
    if (name == "auc") return Quality::Auc;
    if (name == "infogain") return Quality::InfoGain;
    return std::nullopt;
}

namespace {

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

namespace {

// Order-preserving map of a double to an unsigned integer (IEEE 754: flip the sign bit of
// positives, every bit of negatives), so that an integer radix sort orders the distances.
std::uint64_t orderedBits(double v) {
    std::uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    return (u >> 63) ? ~u : (u | (std::uint64_t(1) << 63));
}

}  // namespace

namespace {

// Order-preserving map of a float, as orderedBits for doubles.
std::uint32_t orderedBits32(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    return (u >> 31) ? ~u : (u | (std::uint32_t(1) << 31));
}

// One stable LSD radix sort of (key, idx) by 16-bit digits; idx starts in epoch order.
template <typename Key>
void radixSort(std::vector<Key>& key, std::vector<std::uint32_t>& idx) {
    const std::size_t n = key.size();
    std::vector<Key> keyTmp(n);
    std::vector<std::uint32_t> idxTmp(n);
    std::vector<std::size_t> count(1 << 16);
    for (int shift = 0; shift < int(sizeof(Key) * 8); shift += 16) {
        std::fill(count.begin(), count.end(), 0);
        for (std::size_t j = 0; j < n; ++j) ++count[(key[j] >> shift) & 0xffff];
        if (n == 0 || count[(key[0] >> shift) & 0xffff] == n) continue;  // one digit value: nothing to move
        std::size_t sum = 0;
        for (auto& c : count) {
            const std::size_t k = c;
            c = sum;
            sum += k;
        }
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t at = count[(key[j] >> shift) & 0xffff]++;
            keyTmp[at] = key[j];
            idxTmp[at] = idx[j];
        }
        key.swap(keyTmp);
        idx.swap(idxTmp);
    }
}

}  // namespace

namespace {

// The permutation of a row by (distance, epoch), and whether every distance is a float.
// LSD radix sort, 16-bit digits: rows hold up to ~10^6 epochs and the pipeline sorts one per
// pattern, so this is several times faster than a comparison sort. Each pass is stable and the
// input is in epoch order, so equal distances stay in epoch order. Distances from fp32 kernels
// (the GPU's, cpu.simd's) are floats widened exactly to double: then 32-bit keys (two passes
// instead of three or four) order them the same way, since widening is exact and monotone, so
// the permutation is the same either way.
bool sortOrder(std::span<const double> d, std::vector<std::uint32_t>& epoch) {
    const std::size_t n = d.size();
    epoch.resize(n);
    for (std::size_t j = 0; j < n; ++j) epoch[j] = std::uint32_t(j);
    bool floats = true;
    for (std::size_t j = 0; j < n && floats; ++j) floats = floatExact(d[j]);  // NaN: the 64-bit path
    if (floats) {
        std::vector<std::uint32_t> key(n);
        for (std::size_t j = 0; j < n; ++j) key[j] = orderedBits32(float(d[j]));
        radixSort(key, epoch);
    } else {
        std::vector<std::uint64_t> key(n);
        for (std::size_t j = 0; j < n; ++j) key[j] = orderedBits(d[j]);
        radixSort(key, epoch);
    }
    return floats;
}

}  // namespace

SortedRow sortRow(std::span<const double> d) {
    const std::size_t n = d.size();
    SortedRow out;
    out.floats = sortOrder(d, out.epoch);
    if (out.floats) {
        out.distanceF.resize(n);
        for (std::size_t j = 0; j < n; ++j) out.distanceF[j] = float(d[out.epoch[j]]);
    } else {
        out.distanceD.resize(n);
        for (std::size_t j = 0; j < n; ++j) out.distanceD[j] = d[out.epoch[j]];
    }
    return out;
}

std::vector<std::uint32_t> sortedEpochs(std::span<const double> d) {
    std::vector<std::uint32_t> epoch;
    sortOrder(d, epoch);
    return epoch;
}

template <typename D>
double aucSorted(SortedView<D> s, std::span<const unsigned char> ictal) {
    // Sum of the (1-based, tie-averaged) ranks of the ictal epochs, ascending distance. Every
    // term is a multiple of 1/2 below 2^40, so the sum is exact whatever the order.
    double rankSumIctal = 0;
    double nIctal = 0;
    const std::size_t n = s.size();
    for (std::size_t a = 0; a < n;) {
        std::size_t b = a;
        while (b < n && s.distance[b] == s.distance[a]) ++b;
        const double meanRank = (double(a + 1) + double(b)) / 2.0;
        for (std::size_t k = a; k < b; ++k)
            if (ictal[s.epoch[k]]) {
                rankSumIctal += meanRank;
                nIctal += 1;
            }
        a = b;
    }
    const double nInter = double(n) - nIctal;
    if (nIctal == 0 || nInter == 0) return 0.5;
    // U counts the (ictal, interictal) pairs where the interictal epoch is nearer (ties one
    // half); a pattern that puts every ictal epoch first has U = 0 and AUC 1.
    const double uIctalAbove = rankSumIctal - nIctal * (nIctal + 1) / 2.0;
    return 1.0 - uIctalAbove / (nIctal * nInter);
}

template <typename D>
double infoGainSorted(SortedView<D> s, std::span<const unsigned char> ictal) {
    const std::size_t n = s.size();
    const double total = double(n);
    double totalIctal = 0;
    for (std::size_t k = 0; k < n; ++k) totalIctal += ictal[s.epoch[k]] ? 1 : 0;
    const double parent = entropy(totalIctal, total);
    double best = 0;
    double leftIctal = 0;
    for (std::size_t k = 0; k + 1 < n; ++k) {
        leftIctal += ictal[s.epoch[k]] ? 1 : 0;
        if (s.distance[k] == s.distance[k + 1]) continue;  // a threshold cannot split equal distances
        const double left = double(k + 1), right = total - left;
        const double h = (left / total) * entropy(leftIctal, left) +
                         (right / total) * entropy(totalIctal - leftIctal, right);
        best = std::max(best, parent - h);
    }
    return best;
}

template double aucSorted<float>(SortedView<float>, std::span<const unsigned char>);
template double aucSorted<double>(SortedView<double>, std::span<const unsigned char>);
template double infoGainSorted<float>(SortedView<float>, std::span<const unsigned char>);
template double infoGainSorted<double>(SortedView<double>, std::span<const unsigned char>);

namespace {
double qualityOf(Quality q, std::span<const double> d, std::span<const unsigned char> ictal) {
    const SortedRow s = sortRow(d);
    return s.floats ? qualitySorted(q, s.viewF(), ictal) : qualitySorted(q, s.viewD(), ictal);
}
}  // namespace

double aucQuality(std::span<const double> d, std::span<const unsigned char> ictal) {
    return qualityOf(Quality::Auc, d, ictal);
}

double infoGainQuality(std::span<const double> d, std::span<const unsigned char> ictal) {
    return qualityOf(Quality::InfoGain, d, ictal);
}

double quality(Quality q, std::span<const double> d, std::span<const unsigned char> ictal) {
    return qualityOf(q, d, ictal);
}

}  // namespace warplab::compute
