// `mpirun -n K warplab-cli patterns ...` (docs/SCALING.md): each rank computes the rows of its
// share of every channel's patterns (PatternRequest::patternBegin/End, balanced by count;
// every row is the pattern against all epochs, so its quality is the one a single process
// gets) on its own GPUs or cores; rank 0 receives every rank's scores and ranks them with the
// pipeline's own order (quality descending, ties by lower pattern index).
#pragma once
#include <vector>

#include "compute/core/job.h"
#include "compute/patterns/pattern_discovery.h"

namespace warplab::cli {

// Every rank calls it. On rank 0 the rankings hold every pattern's score (index, quality,
// start and the class means; no histograms or nearest epochs); on the others they are empty.
std::vector<compute::PatternRanking> findPatternsMpi(std::vector<compute::PatternRequest> requests,
                                                     compute::RunOptions options);

}  // namespace warplab::cli
