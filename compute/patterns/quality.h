// How well one pattern's distances separate ictal from interictal epochs (METRICS.md,
// "Seizure pattern discovery"): `auc` and `infogain`. Both take one full row of the
// patterns x epochs matrix and the epoch labels; larger is better for both.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace warplab::compute {

enum class Quality { Auc, InfoGain };

std::string_view qualityName(Quality q);  // "auc", "infogain"
std::optional<Quality> parseQuality(std::string_view name);

// Area under the ROC curve of the classifier "distance below threshold means ictal":
// the probability that a random ictal epoch is nearer than a random interictal one, ties
// counting one half (Mann-Whitney U / (n_ictal * n_interictal)). Rank based, O(n log n).
// Needs at least one epoch of each class (the pipeline checks that before).
double aucQuality(std::span<const double> distances, std::span<const unsigned char> ictal);

// Information gain (bits) of the best split "distance <= t" versus "distance > t", as for
// shapelets (Ye & Keogh 2009): entropy of the labels minus the size-weighted entropies of the
// two sides, maximised over thresholds between distinct consecutive distances. O(n log n).
double infoGainQuality(std::span<const double> distances, std::span<const unsigned char> ictal);

double quality(Quality q, std::span<const double> distances, std::span<const unsigned char> ictal);

// The same measures from a row already sorted by (distance, epoch), so that the pipeline
// sorts each row once for the quality, the histogram and the nearest epochs. The sort happens
// on the host (sortRow) or on the device (compute/gpu/kernels/sort/row_sort.h); both give the same order.
// Distances are floats when every one is a float widened to double (the fp32 kernels: the
// GPU's, cpu.simd's), else doubles (the reference kernels).
template <typename D>
struct SortedView {
    std::span<const D> distance;             // ascending
    std::span<const std::uint32_t> epoch;    // the epoch of each; equal distances in epoch order
    std::size_t size() const { return distance.size(); }
};

// A row sorted on the host: `floats` says which of the two distance vectors is filled.
struct SortedRow {
    bool floats = true;
    std::vector<float> distanceF;
    std::vector<double> distanceD;
    std::vector<std::uint32_t> epoch;
    SortedView<float> viewF() const { return {distanceF, epoch}; }
    SortedView<double> viewD() const { return {distanceD, epoch}; }
};
SortedRow sortRow(std::span<const double> distances);
// Whether a distance is a float widened to double, as sortRow decides its view (NaN: not).
inline bool floatExact(double v) { return double(float(v)) == v; }
// sortRow's permutation alone (the epochs in (distance, epoch) order), without the distances.
std::vector<std::uint32_t> sortedEpochs(std::span<const double> distances);

template <typename D>
double aucSorted(SortedView<D> sorted, std::span<const unsigned char> ictal);
template <typename D>
double infoGainSorted(SortedView<D> sorted, std::span<const unsigned char> ictal);
template <typename D>
double qualitySorted(Quality q, SortedView<D> sorted, std::span<const unsigned char> ictal) {
    return q == Quality::Auc ? aucSorted(sorted, ictal) : infoGainSorted(sorted, ictal);
}

}  // namespace warplab::compute
