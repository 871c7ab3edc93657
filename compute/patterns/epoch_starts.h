// Epochs at arbitrary starts (those of compute/window_matrix.h's stretches: the recordings of
// a study laid end to end), where epoch_layout.h assumes epoch j starts at j * s.
#pragma once
#include <vector>

#include "compute/patterns/epoch_layout.h"

namespace warplab::compute {

// 1 for an ictal epoch: at least half of [start, start + e) lies inside the seizure spans
// (sorted, disjoint); the same rule as ictalEpochs, which this equals for starts j * s.
std::vector<unsigned char> ictalEpochsAt(const std::vector<SampleSpan>& seizures, const std::vector<long long>& starts,
                                         long long epoch);

}  // namespace warplab::compute
