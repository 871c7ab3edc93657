// The first two bounds of the window search (LB_Kim, then LB_Keogh of the query envelope
// against the window) for four consecutive windows at once, in AVX2 (window_bounds_avx2.cpp,
// compiled for it alone; `window_search.cpp` asks `available()` before calling). Consecutive
// windows start one sample apart, so their i-th z-values come from one unaligned load of four
// samples: the bound costs a quarter of the instructions, and no data-dependent branch (the
// scalar bound mispredicts about half of its "above, below or inside the envelope" tests).
#pragma once
#include <cstddef>

namespace warplab::compute::windowbounds {

// True when this CPU runs the AVX2 + FMA code (defined in window_search.cpp, which is compiled
// for any x86-64, so that asking never executes an AVX instruction).
bool available();

// Lane l (bit l of the masks) is the window starting at x + l, z-normalised as
// (x[l + i] - mean[l]) * inv[l]. Only lanes set in `active` are bounded. Returns the lanes
// whose bounds both stay <= limit; *kim gets the lanes LB_Kim pruned (LB_Keogh pruned the
// other active lanes that are not returned). The sums are the scalar bound's terms in the same
// order (query positions by `order`), so they differ from it only by rounding, which the
// caller's slack covers. Reads x[0 .. m + 2].
unsigned quad(const float* x, std::size_t m, const double* q, const double* qU, const double* qL,
              const std::size_t* order, const double* mean, const double* inv, double limit, unsigned active,
              unsigned* kim);
unsigned quad(const double* x, std::size_t m, const double* q, const double* qU, const double* qL,
              const std::size_t* order, const double* mean, const double* inv, double limit, unsigned active,
              unsigned* kim);

}  // namespace warplab::compute::windowbounds
