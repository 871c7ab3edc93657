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

// The statistics and first bounds of four windows. Lane l (bit l of the masks) is the window
// starting at x + l, with running sums sum1[l], sum2[l] of (sample - anchor[l]) over its m
// samples. Its mean, standard deviation and "exact statistics needed" flag are computed as
// window_search.cpp's statsOf does, operation for operation (this file is compiled without
// FMA contraction), into mean[l], sd[l] and the bits of *exact. Lanes in `active` that need
// no exact statistics are then bounded with z = (x[l + i] - mean) * (1 / sd): LB_Kim, then
// LB_Keogh of the query envelope, query positions in `order`; *kim gets the lanes LB_Kim
// pruned. Returns the bounded lanes whose bounds both stay <= limit (the others were pruned by
// LB_Keogh). The bounds differ from the scalar ones only by rounding, which the caller's slack
// covers. Reads x[0 .. m + 2].
struct Quad {
    const double *anchor, *sum1, *sum2;  // 4 each
    double *mean, *sd;                   // 4 each, written
    unsigned active = 0;
    unsigned kim = 0, exact = 0;         // written
};
unsigned quad(const float* x, std::size_t m, const double* q, const double* qU, const double* qL,
              const std::size_t* order, double limit, Quad& lanes);
unsigned quad(const double* x, std::size_t m, const double* q, const double* qU, const double* qL,
              const std::size_t* order, double limit, Quad& lanes);

}  // namespace warplab::compute::windowbounds
