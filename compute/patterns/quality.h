// How well one pattern's distances separate ictal from interictal epochs (METRICS.md,
// "Seizure pattern discovery"): `auc` and `infogain`. Both take one full row of the
// patterns x epochs matrix and the epoch labels; larger is better for both.
#pragma once
#include <cstddef>
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
// sorts each row once for the quality and for the nearest epochs.
struct RankedDistance {
    double distance = 0;
    std::size_t epoch = 0;
};
std::vector<RankedDistance> sortRow(std::span<const double> distances);
double aucSorted(std::span<const RankedDistance> sorted, std::span<const unsigned char> ictal);
double infoGainSorted(std::span<const RankedDistance> sorted, std::span<const unsigned char> ictal);
double qualitySorted(Quality q, std::span<const RankedDistance> sorted, std::span<const unsigned char> ictal);

}  // namespace warplab::compute
