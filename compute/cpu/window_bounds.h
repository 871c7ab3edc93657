// The bounds of the window search (LB_Kim, LB_Keogh of the query envelope against the window,
// LB_Keogh of the reference's envelope against the query) for four consecutive windows at once, in AVX2 (window_bounds_avx2.cpp,
// compiled for it alone; `window_search.cpp` asks `available()` before calling), or eight in
// AVX-512 (window_bounds_avx512.cpp; `available512()`). Consecutive windows start one sample
// apart, so their i-th z-values come from one unaligned load of four (eight) samples: the bound
// costs a quarter (an eighth) of the instructions, and no data-dependent branch (the scalar
// bound mispredicts about half of its "above, below or inside the envelope" tests).
#pragma once
#include <cstddef>

namespace warplab::compute::windowbounds {

// True when this CPU runs the AVX2 + FMA code (defined in window_search.cpp, which is compiled
// for any x86-64, so that asking never executes an AVX instruction).
bool available();
// True when this CPU runs the AVX-512 code (oct, octWindow) and WARPLAB_SIMD does not lower
// the instruction set below it (compute/cpu/dtw_lanes.h's bestIsa).
bool available512();

// The statistics and the first bounds of four windows (quad), then the last bound of those that
// passed them (quadWindow). Lane l (bit l of the masks) is the window
// starting at x + l, with running sums sum1[l], sum2[l] of (sample - anchor[l]) over its m
// samples. Its mean, standard deviation and "exact statistics needed" flag are computed as
// window_search.cpp's statsOf does, operation for operation (this file is compiled without
// FMA contraction), into mean[l], sd[l] and the bits of *exact. Lanes in `active` that need
// no exact statistics are then bounded with z = (x[l + i] - mean) * (1 / sd): LB_Kim (*kim gets
// the lanes it pruned), LB_Keogh of the query envelope, query positions in `order` (*keoghQuery
// gets the lanes it pruned); the lanes that pass both (<= limit) are returned, with lbQuery[l]
// and, where cbQuery is not null, the terms cbQuery[4 * j + l] by query position j. quadWindow then bounds the lanes
// `active` (a part of what quad returned) by LB_Keogh of the reference's envelope (upper[l + i],
// lower[l + i], z-normalised with the same mean and sd) against the query: it returns those
// that pass (the others in *keoghWindow), with lbWindow[l] and the terms cbWindow[4 * i + l].
// The terms make the cumulative bounds of the early-abandoning DTW. The bounds differ from the
// scalar ones only by rounding, which the caller's slack covers. Reads x[0 .. m + 2].
template <class T>
struct Quad {
    const double *anchor, *sum1, *sum2;  // 4 each
    double *mean, *sd;                   // 4 each, written
    const T *upper = nullptr, *lower = nullptr;  // the reference's envelope from x's first sample
    double *cbQuery = nullptr, *cbWindow = nullptr;  // 4 * m each, written for passing lanes (cbQuery: when not null)
    double lbQuery[4] = {}, lbWindow[4] = {};       // written for passing lanes
    unsigned active = 0;
    unsigned kim = 0, keoghQuery = 0, keoghWindow = 0, exact = 0;  // written
};
unsigned quad(const float* x, std::size_t m, const double* q, const double* qU, const double* qL,
              const std::size_t* order, double limit, Quad<float>& lanes);
unsigned quad(const double* x, std::size_t m, const double* q, const double* qU, const double* qL,
              const std::size_t* order, double limit, Quad<double>& lanes);
unsigned quadWindow(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<float>& lanes,
                    unsigned active);
unsigned quadWindow(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<double>& lanes,
                    unsigned active);

// The same for eight consecutive windows in AVX-512 (window_bounds_avx512.cpp): `a` holds the
// windows starting at x + 0..3, `b` those at x + 4..7, with b.upper == a.upper + 4 and b.lower
// == a.lower + 4. Each Quad gets what quad and quadWindow give it (the same statistics, bounds
// and masks, bit for bit, for the lanes that pass); the returned masks hold a's lanes in bits
// 0-3 and b's in bits 4-7, as does octWindow's `active`. Reads x[0 .. m + 6].
unsigned oct(const float* x, std::size_t m, const double* q, const double* qU, const double* qL,
             const std::size_t* order, double limit, Quad<float>& a, Quad<float>& b);
unsigned oct(const double* x, std::size_t m, const double* q, const double* qU, const double* qL,
             const std::size_t* order, double limit, Quad<double>& a, Quad<double>& b);
unsigned octWindow(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<float>& a,
                   Quad<float>& b, unsigned active);
unsigned octWindow(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<double>& a,
                   Quad<double>& b, unsigned active);

// The running sums (about `anchor`, over m samples) of the eight windows starting at x + 0..7,
// from those of the window starting at x - 1 (s1, s2), in AVX-512: into sum1[0..8), sum2[0..8).
// window_search.cpp's advance adds one window's increments at a time; here the eight increments
// are summed in a tree (three steps) and added to s1, s2: the same sums up to rounding, which
// the bounds' slack covers like the sums' own drift. Reads x[-1 .. m + 7).
void sums8(const float* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2);
void sums8(const double* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2);
// The same for four windows in AVX2 (window_bounds_avx2.cpp): sum1[0..4), sum2[0..4); reads
// x[-1 .. m + 3).
void sums4(const float* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2);
void sums4(const double* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2);

}  // namespace warplab::compute::windowbounds
