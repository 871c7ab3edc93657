// Subsequence DTW of one query on all cores. The single-process CPU search used to sweep the
// reference column by column on one core (sdtwTopK), so a 40-hour channel took minutes on a
// laptop. Here the reference is cut into stretches that are swept at once (sdtw_stretch.h:
// each as if nothing came before it), then chained in order, each stretch recomputed from the
// exact column before it until it agrees with its own first pass (about a query length: all
// pieces at once, since a piece that agrees ends as its first pass did; a piece that never
// agrees makes the next one be redone in order). The last row is then exactly sdtwTopK's, so
// are the matches, bit for bit.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/results.h"
#include "compute/core/series.h"
#include "compute/cpu/sdtw_stretch.h"

namespace warplab::compute::reference {

// sdtwStretch(x, y, absCost, a, b) computed by up to `threads` cores (0: all): the same last
// row and end column. Pieces are at least `minPiece` columns (0: 16 query lengths, so that a
// piece's correction, about a query length, is a small part of it; tests pass shorter ones to
// make corrections run through whole pieces). `cancel` is checked every few thousand columns,
// when `progress` (may be empty) is told the fraction of the first pass's b - a columns swept.
// `simd`: one channel runs four pieces a core in AVX2 lanes where the CPU has them
// (sdtw_lanes.h); false keeps every piece scalar (tests compare the two).
SdtwStretch sdtwStretchParallel(const Series& x, const Series& y, bool absCost, std::size_t a, std::size_t b,
                                int threads, const CancelToken* cancel = nullptr, std::size_t minPiece = 0,
                                bool simd = true, const ProgressFn& progress = {});

// sdtwTopK(x, y, absCost, k, excludedEnds) on up to `threads` cores; `progress` as above.
std::vector<Match> sdtwTopKParallel(const Series& x, const Series& y, bool absCost, int k,
                                    const std::vector<std::pair<std::size_t, std::size_t>>& excludedEnds, int threads,
                                    const CancelToken* cancel = nullptr, const ProgressFn& progress = {},
                                    const std::vector<ExcludedSpan>& spans = {});

}  // namespace warplab::compute::reference
