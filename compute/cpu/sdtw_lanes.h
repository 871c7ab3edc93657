// The first pass of four subsequence-DTW pieces at once, one per AVX2 lane
// (sdtw_lanes_avx2.cpp, compiled for it alone, without FMA contraction): every lane runs
// sdtw_stretch.cpp's recurrence (the same double operations and tie order, diagonal, up,
// left) on its own piece of the reference, so each piece comes out as sdtwStretch's, bit for
// bit, in about a third of the time a core takes for the four one after the other.
#pragma once
#include <cstddef>

#include "compute/core/job.h"
#include "compute/core/series.h"
#include "compute/cpu/sdtw_stretch.h"

namespace warplab::compute::reference::lanes {

// True when this CPU runs AVX2 (asked in sdtw_parallel.cpp, compiled for any x86-64).
bool available();

// out[l] = sdtwStretch(x, y, absCost, begin[l], begin[l] + len) for l = 0..3. One channel
// (x.dims == y.dims == 1). `cancel` is checked, and `progress` (may be null) told the columns
// swept, every 4,096 columns.
void sweep4(const Series& x, const Series& y, bool absCost, const std::size_t begin[4], std::size_t len,
            SdtwStretch out[4], const CancelToken* cancel, ProgressCounter* progress = nullptr);

}  // namespace warplab::compute::reference::lanes
