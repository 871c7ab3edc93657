// fp32 soft-DTW value and gradient batches (see softdtw_grad_fp32.h).
//
// Layout. A stripe of 32 lanes covers 32 * RPL rows of a pair; lane l owns RPL consecutive rows
// (rows past n are padding: finite junk, E = 0) and computes column j at step t = j + l, so the
// cell above its first row arrives from lane l-1 by a shuffle, as in cuda.shuffle. One block
// takes one pair and its warps take the pair's stripes in turn, each stripe kLag barrier
// intervals (48 steps) behind the one it reads (Schedule): with few pairs in a batch (a
// thousand: one warp per pair is 7.7 warps per SM on an H100) a second warp per pair hides more
// of the soft-min's MUFU and memory latency. DP values are in base-2 units (softmin_fast.h):
// R' = R * ig, with x and y pre-scaled so that the local cost comes out scaled.
//
// The forward stores a lane's whole column at even steps and only its bottom row at odd steps
// (RPL + 1 floats per two steps instead of 2 RPL: the stored matrix is the kernels' DRAM traffic, 8
// bytes per cell when whole; at 4 rows per lane every column whole, see fullAt); a stripe's lane 0
// reads the row above from the bottom rows. The backward sweeps the steps in reverse, recomputes
// each odd column from the even one before it with the forward's own operations (the same bits),
// and pushes E from each cell to its three predecessors with the cell's own forward soft-min
// weights, recomputed from the predecessors (2^(lo - R'_pred) / sum, exactly the forward's
// numbers; a recomputed column's cells reuse their recomputation's exp2 terms, kKeepTerms): the
// weights of a cell sum to 1, so the expected alignment keeps its mass. Cuturi & Blondel's form
// exp((R(i+1,j) - R(i,j) - C(i+1,j)) / gamma) cancels catastrophically in fp32 at small gamma
// (R ~ 1e3, gamma 0.01: percent errors per step, compounding along the path). E flows up a lane's
// rows in registers, across lanes by a shuffle one step later, across stripes through two rows
// per stripe boundary; d value / d x_i = sum_j E(i,j) dc/dx_i is summed per row in
// registers. E is never stored.
//
// The forward runs two steps per iteration with its column alternating between two arrays (no
// register moves, the parity of each step known); the backward runs the steps with every lane
// inside the matrix without range checks, as one block in which ptxas interleaves the
// recomputation with the cells; x and the gradient rows live in shared memory; y is scaled where
// it is used (__fmul_rn on both sides, so the recomputation keeps the forward's bits).
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/packed_series.h"
#include "compute/gpu/kernels/softdtw/softdtw_grad_fp32.h"
#include "compute/gpu/kernels/common/softmin_fast.h"

namespace warplab::compute::gpu {

namespace {

constexpr int kGroup = 32;    // lanes per stripe (half a wavefront on CDNA: shuffles use width 32)
constexpr int kMaxWarps = 8;  // stripes of one pair in flight (warps per block)
// Steps between the block's barriers (a multiple of 4, for the backward's four rotating
// columns). Lane 0 of a stripe at step t reads what lane 31 of the stripe above computed at step
// t + 31 (forward) and prefetches one step ahead (t + 32); the backward is the mirror image. A
// stripe runs kLag intervals behind the stripe it reads, so that every value it reads was
// written before the last barrier: its interval's last step t = kChunk (c + 1) - 1 reads step
// t + 32 of an interval the other finished, kChunk (c + kLag) > t + 32. 16 steps with a lag of 3
// (48 steps): the second stripe's wait is part of every pair's time, so a shorter lag matters
// more than fewer barriers; 4, 8 and 12 steps were slower. The barriers stay because the
// alternatives are no faster: step counts in shared memory need a block-scope fence that waits
// for the warp's outstanding loads, and NaN-sentinel handoffs slow the backward's volatile loads.
#ifndef WL_GRAD_CHUNK
#define WL_GRAD_CHUNK 16
#endif
constexpr int kChunk = WL_GRAD_CHUNK;
constexpr int kLag = 2 + (kGroup - 1) / kChunk;
static_assert(kChunk % 4 == 0 && kChunk * (kLag - 1) >= kGroup, "a stripe reads 32 steps ahead of the one it follows");

// Stripes of 32 * RPL rows that cover n rows.
__host__ __device__ constexpr int stripesOf(int n, int rpl) { return (n + kGroup * rpl - 1) / (kGroup * rpl); }

// Where one pair's stored matrix lives: per stripe, the steps' stored rows (fullAt, bottomAt);
// then, per boundary between stripes q and q+1, the backward's two rows of pushes (up, diagonal).
struct Layout {
    long stripeStride;  // floats per stripe: steps / 2 * (RPL + 1) * kGroup (whole columns: steps * RPL * kGroup)
    long pairStride;    // floats per pair
    long boundary;      // offset of the boundary rows in a pair's area
    long rowStride;     // floats per boundary row: maxM rounded up to 32
};

// The forward stores a lane's whole column at even steps and only its bottom row at odd steps
// (the backward recomputes the other columns): steps 2p and 2p+1 share RPL + 1 rows of 32.
// At 4 rows per lane (series up to 128) it stores every column whole instead, a lane's 4 rows
// side by side (one 16-byte store per step, one load per column in the backward, which then
// recomputes nothing), about 10 % faster on short series. At 16 rows, whole columns double the
// forward's writes, which costs more than the backward saves.
template <int RPL>
constexpr bool kWholeColumns = RPL == 4;
// Of a whole column, the rows below kPairRows are stored two by two, a lane's rows k and k+1 side
// by side: one 8-byte store in the forward and one load in the backward instead of two. The last
// two rows and the odd steps' bottom row stay rows of 32 lanes, so that the offset between the
// bottom rows of two steps, which the backward's inner steps add to one pointer, is the same for
// every lane.
template <int RPL>
constexpr int kPairRows = kWholeColumns<RPL> ? 0 : RPL - 2;
template <int RPL>
__host__ __device__ constexpr long fullAt(int t, int k, int lane) {
    if constexpr (kWholeColumns<RPL>) return (long(t) * kGroup + lane) * RPL + k;
    if (k < kPairRows<RPL>) return long(t >> 1) * (RPL + 1) * kGroup + (k >> 1) * 2 * kGroup + 2 * lane + (k & 1);
    return (long(t >> 1) * (RPL + 1) + k) * kGroup + lane;
}
template <int RPL>
__host__ __device__ constexpr long bottomAt(int t, int lane) {
    if constexpr (kWholeColumns<RPL>) return fullAt<RPL>(t, RPL - 1, lane);
    return (long(t >> 1) * (RPL + 1) + ((t & 1) ? RPL : RPL - 1)) * kGroup + lane;
}

// One forward cell in base-2 units: the soft-min of its diagonal, left and upper neighbours plus
// the pre-scaled local cost of x and y. The backward recomputes columns through this same
// function, so they are the forward's bits.
// forwardCellTerms also gives the cell's two exp2 terms (softminLog2Terms).
template <bool ABS>
__device__ __forceinline__ float forwardCellTerms(float d, float left, float u, float x, float y, float2& e) {
    float lo;
    const float lg = softminLog2Terms(d, left, u, lo, e.x, e.y);
    const float c = x - y;
    return (ABS ? fabsf(c) + lo : fmaf(c, c, lo)) - lg;
}
template <bool ABS>
__device__ __forceinline__ float forwardCell(float d, float left, float u, float x, float y) {
    float2 e;
    return forwardCellTerms<ABS>(d, left, u, x, y, e);
}

// The backward's weights of a recomputed cell are the two exp2 terms of its recomputation, kept
// in shared memory from the recomputation (two steps before the cell's turn), instead of three
// more exp2: the same numbers (where all three neighbours are +inf, weights 0, 1, 0 instead of
// NaN; no cell inside the matrix has them), and 4 MUFU operations per backward cell instead of
// 5.5. Both kernels are bound by the MUFU (XU) pipe whatever their stalls (splitting a lane's
// rows into two interleaved chains removes stalls but not time), so their time follows their
// MUFU count; this cut is about 6 % of the time.
template <int RPL>
constexpr bool kKeepTerms = !kWholeColumns<RPL>;
// Floats of dynamic shared memory per backward thread: x and the gradient per row (+ one pad
// pair), and the recomputed cells' terms per row (+ pad).
template <int RPL>
constexpr int kSharedPerThread = 2 * (RPL + 1) * (kKeepTerms<RPL> ? 2 : 1);

// When each stripe of a pair runs. The block's W warps take the stripes in turn (processing
// order s: w, w + W, ...); stripe s runs its c-th interval at iteration start(s) + c, with
// start(s) = (s / W) * Cp + kLag (s % W): kLag iterations after stripe s - 1, and a warp's next
// stripe after its last (Cp >= C and Cp >= kLag W).
struct Schedule {
    int W, C, Cp;
    __device__ Schedule(int warps, int steps) : W(warps), C((steps + kChunk - 1) / kChunk), Cp(max(C, kLag * warps)) {}
    __device__ int iterations(int stripes) const { return ((stripes - 1) / W) * Cp + kLag * ((stripes - 1) % W) + C; }
    // The stripe and interval warp w runs at iteration g; false while it waits.
    __device__ bool at(int g, int w, int stripes, int& s, int& c) const {
        const int rel = g - kLag * w;
        if (rel < 0) return false;
        const int r = rel / Cp;
        c = rel - r * Cp;
        s = w + r * W;
        return s < stripes && c < C;
    }
    // Every iteration of the block: warp w runs interval(s, c) when it has one, then the barrier
    // that publishes what the interval stored to the stripe that follows.
    template <class F>
    __device__ void forEachInterval(int w, int stripes, F&& interval) const {
        const int G = iterations(stripes);
        for (int g = 0; g < G; ++g) {
            int s, c;
            if (at(g, w, stripes, s, c)) interval(s, c);
            __syncthreads();
        }
    }
};

template <int RPL, bool ABS>
__global__ void __launch_bounds__(kGroup * kMaxWarps) softDtwForwardKernel(SetView xs, SetView ys, int first, float scale,
                                                                         float ig, float* work, Layout lay,
                                                                         double* values) {
    const int lane = threadIdx.x % kGroup, w = threadIdx.x / kGroup;
    const long b = blockIdx.x;
    const int p = first + int(b);
    const float* x = xs.values + xs.offsets[p];
    const float* y = ys.values + ys.offsets[p];
    const int n = xs.lengths[p], m = ys.lengths[p];
    const int Q = stripesOf(n, RPL), T = m + kGroup - 1;
    const int rowN = n - 1;
    float* area = work + b * lay.pairStride;
    // y unscaled (0 outside the matrix): the product is taken where the value is used, a step
    // later, so that no instruction waits on the load right after it is issued.
    auto loadY = [&](int j) { return j >= 0 && j < m ? y[j] : 0.f; };
    float xr[RPL], prev[RPL];
    float alt[RPL];
    float bottom = INFINITY, rawPrev = INFINITY, upPrev = INFINITY, yNext = 0.f, upNext = INFINITY;
    float* Rq = area;
    int q = 0, row0 = 0;
    auto beginStripe = [&](int s) {
        q = s;
        Rq = area + q * lay.stripeStride;
        row0 = (q * kGroup + lane) * RPL;
#pragma unroll
        for (int k = 0; k < RPL; ++k) {
            xr[k] = row0 + k < n ? __fmul_rn(x[row0 + k], scale) : 0.f;
            prev[k] = INFINITY;
        }
        bottom = rawPrev = upPrev = INFINITY;
        yNext = loadY(-lane);
        upNext = lane == 0 && q > 0 ? Rq[-lay.stripeStride + bottomAt<RPL>(kGroup - 1, kGroup - 1)] : INFINITY;
    };
    // One step t (parityTag: t & 1) from the lane's column `from` into `to` (two arrays that
    // alternate, or one).
    auto fstep = [&](auto parityTag, int t, const float (&from)[RPL], float (&to)[RPL]) {
        constexpr bool even = decltype(parityTag)::value == 0;
        const float* Ra = Rq - lay.stripeStride;  // stripe above (q > 0)
        const int j = t - lane;
        const float raw = WL_SHFL_UP(bottom, 1, kGroup);
        // This step's y and the stripe above's value, loaded one step ahead.
        const float yj = __fmul_rn(yNext, scale), upAbove = upNext;
        yNext = loadY(j + 1);
        if (lane == 0 && q > 0 && j + 1 < m) upNext = Ra[bottomAt<RPL>(j + kGroup, kGroup - 1)];
        if (j >= 0 && j < m) {
            float u, d;
            if (lane > 0) {
                u = raw;
                d = rawPrev;  // lane l-1's column j-1: +inf when j = 0 (it was idle)
            } else if (q == 0) {
                u = INFINITY;
                d = j == 0 ? 0.f : INFINITY;  // R(-1,-1) = 0
            } else {
                u = upAbove;
                d = j == 0 ? INFINITY : upPrev;
                upPrev = u;
            }
#pragma unroll
            for (int k = 0; k < RPL; ++k) {
                const float left = from[k];
                const float v = forwardCell<ABS>(d, left, u, xr[k], yj);
                d = left;
                to[k] = v;
                u = v;
                if (even && !kWholeColumns<RPL>) {
                    if (k >= kPairRows<RPL>) Rq[fullAt<RPL>(t, k, lane)] = v;
                    else if (k & 1)
                        *reinterpret_cast<float2*>(Rq + fullAt<RPL>(t, k - 1, lane)) = make_float2(to[k - 1], v);
                }
            }
            bottom = to[RPL - 1];
            if constexpr (kWholeColumns<RPL>)
                *reinterpret_cast<float4*>(Rq + fullAt<RPL>(t, 0, lane)) = make_float4(to[0], to[1], to[2], to[3]);
            else if (!even) Rq[bottomAt<RPL>(t, lane)] = bottom;
            if (j == m - 1 && rowN >= row0 && rowN < row0 + RPL) {
                float v = to[0];
#pragma unroll
                for (int k = 1; k < RPL; ++k) if (row0 + k == rowN) v = to[k];
                values[p] = double(v) / double(ig);
            }
        } else {
            bottom = INFINITY;
#pragma unroll
            for (int k = 0; k < RPL; ++k) to[k] = from[k];
        }
        rawPrev = raw;
    };
    // Steps [t, tEnd) from an even t with the column in prev, two per iteration, alternating the
    // column between prev and alt: no moves between steps, and each step's parity (full column or
    // bottom row stored) is known.
    auto run = [&](int t, int tEnd) {
        for (; t + 1 < tEnd; t += 2) {
            fstep(std::integral_constant<int, 0>{}, t, prev, alt);
            fstep(std::integral_constant<int, 1>{}, t + 1, alt, prev);
        }
        if (t < tEnd) fstep(std::integral_constant<int, 0>{}, t, prev, alt);  // the pair's last step
    };
    Schedule(int(blockDim.x) / kGroup, T).forEachInterval(w, Q, [&](int s, int c) {
        if (c == 0) beginStripe(s);
        // An interval starts at an even step (kChunk is even), with the column in prev.
        run(c * kChunk, min(T, (c + 1) * kChunk));
    });
}

// Two blocks of 256 threads per SM: at 16 rows per lane the backward fits 128 registers (from
// 233; a few hundred bytes of spills, 32 since x and the gradient rows moved to shared memory)
// and runs 16 warps per SM instead of 8, about 15 % faster than one block. At 3 blocks, 16 rows
// spill 1 KB and lose.
#ifndef WL_GRAD_BWD_MIN_BLOCKS
#define WL_GRAD_BWD_MIN_BLOCKS 2
#endif
template <int RPL, bool ABS>
__global__ void __launch_bounds__(kGroup * kMaxWarps, WL_GRAD_BWD_MIN_BLOCKS) softDtwBackwardKernel(SetView xs, SetView ys, int first, float scale,
                                                                          float gradScale, float* work, Layout lay,
                                                                          float* grads, const long long* gradOffsets) {
    const int lane = threadIdx.x % kGroup, w = threadIdx.x / kGroup;
    const long b = blockIdx.x;
    const int p = first + int(b);
    const float* x = xs.values + xs.offsets[p];
    const float* y = ys.values + ys.offsets[p];
    const int n = xs.lengths[p], m = ys.lengths[p];
    const int Q = stripesOf(n, RPL), T = m + kGroup - 1;
    float* area = work + b * lay.pairStride;
    // Pushes from stripe q+1's top row into stripe q's bottom row, per column: up (into (i, j))
    // and diagonal (into (i, j-1)), as the shuffles carry them between lanes.
    auto pushUp = [&](int q) { return area + lay.boundary + 2 * long(q) * lay.rowStride; };
    float* g = grads + gradOffsets[p];
    const int Tp = (T + 3) / 4 * 4;  // steps past T are idle: every lane's column is past m
    // y unscaled (0 outside the matrix), scaled where used, as in the forward (__fmul_rn on both
    // sides: the recomputed columns are the forward's bits).
    auto loadY = [&](int j) { return j >= 0 && j < m ? y[j] : 0.f; };

    int q = 0, row0 = 0;
    const float* Rq = area;
    // The lane's rows of x and of the gradient in dynamic shared memory (2 (RPL + 1) floats per
    // thread), each row an immediate offset from one base register. In registers they took 32 of
    // the 128 that two blocks of 256 threads per SM allow, and ptxas spilled 400 bytes; in shared
    // memory the spills are gone but for a few words. Row k's x and gradient sit side by side
    // (xg[2k], xg[2k+1]), so a cell reads both with one 8-byte load; a thread's pairs are RPL + 1
    // eight-byte words apart (odd: the 32 lanes hit distinct banks).
    extern __shared__ float rowsShared[];
    float* const xg = rowsShared + int(threadIdx.x) * 2 * (RPL + 1);
    // The terms after every thread's x and gradient rows, RPL + 1 eight-byte words per thread.
    float2* const terms = reinterpret_cast<float2*>(rowsShared + int(blockDim.x) * 2 * (RPL + 1)) + int(threadIdx.x) * (RPL + 1);
    auto xRow = [xg](int k) { return reinterpret_cast<const float2*>(xg)[k].x; };
    auto xgRow = [xg](int k) { return reinterpret_cast<const float2*>(xg)[k]; };
    auto gRow = [xg](int k) -> float& { return xg[2 * k + 1]; };
    auto xSet = [xg](int k) -> float& { return xg[2 * k]; };
    float acc[RPL];
    // Columns j .. j-3 of the lane's rows, R' above them and y, by step mod 4 (P0 .. P3).
    float P0[RPL], P1[RPL], P2[RPL], P3[RPL];
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f, y0 = 0.f, y1 = 0.f, y2 = 0.f, y3 = 0.f;
    float topUp = 0.f, topDiag = 0.f;  // this lane's pushes out of its first row, last step
    float upNext = 0.f, diagNext = 0.f;
    // R' of this lane's rows at column c, stored when its step c + lane is even (+inf outside).
    auto column = [&](int c, float (&dst)[RPL], bool inner = false) {
        if (inner || (c >= 0 && c < m)) {
            if constexpr (kWholeColumns<RPL>) {
                // One 16-byte load (pairStride and stripeStride are multiples of 4 floats).
                const float4 v = *reinterpret_cast<const float4*>(Rq + fullAt<RPL>(c + lane, 0, lane));
                dst[0] = v.x, dst[1] = v.y, dst[2] = v.z, dst[3] = v.w;
            } else {
#pragma unroll
                for (int k = 0; k < kPairRows<RPL>; k += 2) {
                    const float2 v = *reinterpret_cast<const float2*>(Rq + fullAt<RPL>(c + lane, k, lane));
                    dst[k] = v.x, dst[k + 1] = v.y;
                }
#pragma unroll
                for (int k = kPairRows<RPL>; k < RPL; ++k) dst[k] = Rq[fullAt<RPL>(c + lane, k, lane)];
            }
        } else {
#pragma unroll
            for (int k = 0; k < RPL; ++k) dst[k] = INFINITY;
        }
    };
    // R' of column c at an odd step, recomputed as the forward computed it (the same operations
    // on the same operands: the same bits) from column c-1 and the row above at c and c-1.
    auto recompute = [&](int c, const float (&left)[RPL], float aC, float aL, float yc, float (&dst)[RPL],
                         bool inner = false) {
        if (inner || (c >= 0 && c < m)) {
            const float yScaled = __fmul_rn(yc, scale);
            float u = aC, d = aL;
#pragma unroll
            for (int k = 0; k < RPL; ++k) {
                float v;
                if constexpr (kKeepTerms<RPL>) {
                    float2 e;
                    v = forwardCellTerms<ABS>(d, left[k], u, xRow(k), yScaled, e);
                    terms[k] = e;
                } else {
                    v = forwardCell<ABS>(d, left[k], u, xRow(k), yScaled);
                }
                d = left[k];
                u = v;
                dst[k] = v;
            }
        } else {
#pragma unroll
            for (int k = 0; k < RPL; ++k) dst[k] = INFINITY;
        }
    };
    // R' of the row above the lane's first row at column c (stored at every step).
    // (The inner steps read it through InnerPtrs below.)
    auto above = [&](int c) -> float {
        if (c < 0 || c >= m) return c == -1 && q == 0 && lane == 0 ? 0.f : INFINITY;
        if (lane > 0) return Rq[bottomAt<RPL>(c + lane - 1, lane - 1)];
        return q > 0 ? Rq[bottomAt<RPL>(c + kGroup - 1, kGroup - 1) - lay.stripeStride] : INFINITY;
    };
    // The steps inside the matrix (fourSteps' `inner`, steps t0 .. t0-3, t0 = 3 mod 4) read the
    // row above, y and the pushes from below, and write the pushes up, at addresses that move by
    // a constant per step: one pointer each per four steps, and a compile-time offset per step,
    // instead of each step's 64-bit index arithmetic and lane-role branches (about 5 % fewer
    // backward instructions).
    struct InnerPtrs {
        const float* above;  // row above the lane's first row at column t0 - lane - 4
        const float* y;      // y at t0 - lane - 4
        const float* pushIn; // lane 31: pushes from stripe q+1 at column t0 - 32 (below: q + 1 < Q)
        float* pushOut;      // lane 0: pushes into stripe q-1 at column t0
        bool aboveOk, below;
    };
    auto innerPtrs = [&](int t0) {
        InnerPtrs ip;
        ip.aboveOk = lane > 0 || q > 0;
        // Lane l > 0 reads lane l-1's bottom row at step t - 5; lane 0 reads the stripe above's
        // lane 31 at step t + 27 (the same parity). Lane 0 of the first stripe has no row above:
        // it reads a valid word of its own and takes +inf.
        const long at = lane > 0 ? bottomAt<RPL>(t0 - 5, lane - 1)
                                 : q > 0 ? bottomAt<RPL>(t0 + kGroup - 5, kGroup - 1) - lay.stripeStride
                                         : bottomAt<RPL>(t0 - 5, 0);
        ip.above = Rq + at;
        ip.y = y + (t0 - lane - 4);
        ip.below = q + 1 < Q;
        ip.pushIn = ip.below ? pushUp(q) + (t0 - kGroup) : nullptr;
        ip.pushOut = q > 0 ? pushUp(q - 1) + t0 : nullptr;
        return ip;
    };
    // Offset of step t0 - d's row above from step t0's (t0 - 5 = 2 mod 4: any such s0 gives it).
    auto aboveStep = [](int d) { return bottomAt<RPL>(6 - d, 0) - bottomAt<RPL>(6, 0); };
    // Lane 31's pushes from the stripe below at column j (0 below the last stripe).
    auto loadPushes = [&](int j) {
        const bool fromBelow = lane == kGroup - 1 && q + 1 < Q && j >= 0 && j < m;
        upNext = fromBelow ? pushUp(q)[j] : 0.f;
        diagNext = fromBelow ? pushUp(q)[lay.rowStride + j] : 0.f;
    };
    // One step t (column j = t - lane): cur holds column j, left j-1, n2 and n3 j-2 and j-3;
    // aC..aN3 and yC, yN2 the row above and y at j .. j-3. An odd step recomputes column j-2
    // from j-3 (a chain independent of this step's cells); an even step loads column j-4 into
    // cur once its cells are done (used two steps later). `odd` is t's parity, a constant at
    // each call (t is 3 mod 4 at the first of four).
    auto step = [&](float (&cur)[RPL], const float (&left)[RPL], float (&n2)[RPL], const float (&n3)[RPL], float& aC,
                    float aL, float aN2, float aN3, float& yC, float yN2, int t, bool odd, bool inner,
                    const InnerPtrs& ip, int d) {
        const int j = t - lane;
        float upIn = WL_SHFL_DOWN(topUp, 1, kGroup);
        float diagIn = WL_SHFL_DOWN(topDiag, 1, kGroup);
        if (lane == kGroup - 1) {
            upIn = upNext;
            diagIn = diagNext;
            if (inner) {
                upNext = ip.below ? ip.pushIn[-d] : 0.f;
                diagNext = ip.below ? ip.pushIn[lay.rowStride - d] : 0.f;
            } else {
                loadPushes(j - 1);
            }
        }
        if (inner || (j >= 0 && j < m)) {
            const float yScaled = __fmul_rn(yC, scale);
            float below = upIn, diagBelow = diagIn;
#pragma unroll
            for (int k = RPL - 1; k >= 0; --k) {
                const float up = k > 0 ? cur[k - 1] : aC;
                const float dg = k > 0 ? left[k - 1] : aL;
                const float lf = left[k];
                // The forward's weights of this cell's three predecessors.
                float eU, eL, eD;
                if (odd && kKeepTerms<RPL>) {
                    // Recomputed two steps ago (odd steps' columns are not stored): its terms
                    // belong to max(dg, lf) and to the larger of min(dg, lf) and up; the
                    // minimum's is 1 (softminLog2Terms with a = dg, b = lf, c = up).
                    const float2 e = terms[k];
                    const bool dgMin = dg < lf, upMin = up < fminf(dg, lf);
                    const float eMn = upMin ? e.y : 1.f;
                    eU = upMin ? 1.f : e.y;
                    eD = dgMin ? eMn : e.x;
                    eL = dgMin ? e.x : eMn;
                } else {
                    const float lo = fminf(fminf(up, lf), dg);
                    eU = fastExp2(lo - up), eL = fastExp2(lo - lf), eD = fastExp2(lo - dg);
                }
                const float inv = fastRcp(eU + eL + eD);
                const float E = acc[k] + below;
                const float Ei = E * inv;
                below = Ei * eU;
                acc[k] = fmaf(Ei, eL, diagBelow);
                diagBelow = Ei * eD;
                const float2 xgk = xgRow(k);
                const float c = xgk.x - yScaled;
                gRow(k) = ABS ? xgk.y + (c > 0.f ? E : (c < 0.f ? -E : 0.f)) : fmaf(E, c, xgk.y);
            }
            topUp = below;
            topDiag = diagBelow;
            if (lane == 0 && q > 0) {
                if (inner) {
                    ip.pushOut[-d] = topUp;
                    ip.pushOut[lay.rowStride - d] = topDiag;
                } else {
                    pushUp(q - 1)[j] = topUp;
                    pushUp(q - 1)[lay.rowStride + j] = topDiag;
                }
            }
        } else {
            topUp = topDiag = 0.f;
        }
        // After the cells, so that column j-3 (loaded a step ago) has had their time to arrive.
        if (odd && kWholeColumns<RPL>) column(j - 2, n2, inner);
        else if (odd) recompute(j - 2, n3, aN2, aN3, yN2, n2, inner);
        else column(j - 4, cur, inner);
        if (inner) {
            const float a = ip.above[aboveStep(d)];
            aC = ip.aboveOk ? a : INFINITY;
            yC = ip.y[-d];
            return;
        }
        aC = above(j - 4);
        yC = loadY(j - 4);
    };
    auto beginStripe = [&](int s) {
        q = Q - 1 - s;  // the bottom stripe first
        Rq = area + q * lay.stripeStride;
        row0 = (q * kGroup + lane) * RPL;
#pragma unroll
        for (int k = 0; k < RPL; ++k) {
            xSet(k) = row0 + k < n ? __fmul_rn(x[row0 + k], scale) : 0.f;
            // E(n-1, m-1) = 1 enters as a push into the lane's first column, m-1.
            acc[k] = row0 + k == n - 1 ? 1.f : 0.f;
            gRow(k) = 0.f;
        }
        // The first step, Tp - 1, is odd (3 mod 4): its column is recomputed.
        const int j0 = Tp - 1 - lane;
        a3 = above(j0), a2 = above(j0 - 1), a1 = above(j0 - 2), a0 = above(j0 - 3);
        y3 = loadY(j0), y2 = loadY(j0 - 1), y1 = loadY(j0 - 2), y0 = loadY(j0 - 3);
        column(j0 - 1, P2);
        column(j0 - 3, P0);
        if constexpr (kWholeColumns<RPL>) column(j0, P3);
        else recompute(j0, P2, a3, a2, y3, P3);
        topUp = topDiag = 0.f;
        loadPushes(j0);
    };
    // Steps t .. t-3 (t is 3 mod 4), the four columns rotating through P0 .. P3; `inner`: every
    // lane's columns j .. j-4 inside the matrix.
    auto fourSteps = [&](int t, bool inner) {
        const InnerPtrs ip = inner ? innerPtrs(t) : InnerPtrs{};
        step(P3, P2, P1, P0, a3, a2, a1, a0, y3, y1, t, true, inner, ip, 0);
        step(P2, P1, P0, P3, a2, a1, a0, a3, y2, y0, t - 1, false, inner, ip, 1);
        step(P1, P0, P3, P2, a1, a0, a3, a2, y1, y3, t - 2, true, inner, ip, 2);
        step(P0, P3, P2, P1, a0, a3, a2, a1, y0, y2, t - 3, false, inner, ip, 3);
    };
    // Steps tHi down to tLo, four at a time (tHi is 3 mod 4, tLo a multiple of 4).
    auto run = [&](int tHi, int tLo) {
        for (int t = tHi; t >= tLo; t -= 4) {
            // Inside the matrix (t <= m - 1 for lane 0, t - 3 - 31 - 4 >= 0 for lane 31) the
            // steps take no range checks and form one basic block, so that ptxas can
            // interleave the recomputation with the cells.
            if (t <= m - 1 && t - 3 >= kGroup + 3) fourSteps(t, true);
            else fourSteps(t, false);
        }
    };
    auto finishStripe = [&] {
#pragma unroll
        for (int k = 0; k < RPL; ++k)
            if (row0 + k < n) g[row0 + k] = gRow(k) * gradScale;
    };
    const Schedule sched(int(blockDim.x) / kGroup, Tp);
    sched.forEachInterval(w, Q, [&](int s, int c) {
        if (c == 0) beginStripe(s);
        // Every interval starts at a step of 3 mod 4 (Tp and kChunk are multiples of 4).
        run(Tp - 1 - c * kChunk, max(0, Tp - (c + 1) * kChunk));
        if (c == sched.C - 1) finishStripe();
    });
}

template <int RPL>
Layout layoutFor(int maxN, int maxM) {
    Layout l;
    const long stripes = stripesOf(maxN, RPL);
    const long steps = (maxM + kGroup - 1 + 3) / 4 * 4;  // rounded up to 4
    l.stripeStride = kWholeColumns<RPL> ? steps * RPL * kGroup : steps / 2 * (RPL + 1) * kGroup;
    l.boundary = stripes * l.stripeStride;
    l.rowStride = (maxM + 31) / 32 * 32;
    l.pairStride = l.boundary + 2 * std::max(1L, stripes - 1) * l.rowStride;
    return l;
}

template <int RPL, bool ABS>
void runBatches(SetView xv, SetView yv, int maxN, int maxM, int count, int warps, double gamma, double* values,
                float* grads, const long long* offsets, gpuStream_t s, Event& start, Event& stop) {
    const float ig = float(1.0 / (gamma * 0.69314718055994530942));
    // Pre-scaled inputs give the scaled cost directly: (s x - s y)^2 = ig (x - y)^2 with s = sqrt(ig),
    // |s x - s y| = ig |x - y| with s = ig. d c / d x = 2 (x - y) = 2 (s x - s y) / s.
    const float scale = ABS ? ig : std::sqrt(ig);
    const float gradScale = ABS ? 1.f : 2.f / scale;
    const Layout lay = layoutFor<RPL>(maxN, maxM);
    const std::size_t perPair = std::size_t(lay.pairStride) * sizeof(float);
    const std::size_t fit = memInfo().first / 2 / perPair;
    if (fit == 0)
        throw EngineError(EngineError::Kind::Device, "gpu", "out of device memory: the fp32 soft-DTW matrix of one pair needs " +
                                                                std::to_string(perPair >> 20) + " MiB");
    const int batch = int(std::min<std::size_t>(std::size_t(count), fit));
    DeviceBuffer<float> work(std::size_t(batch) * std::size_t(lay.pairStride));
    // The device time is the kernels', as for every other kernel (the fp64 path, the matrix
    // runner, sdtw), not this buffer's cudaMalloc and cudaFree (2-36 GB, milliseconds). The bench
    // reports the whole call beside it.
    start.record(s);
    const std::size_t smem = std::size_t(kSharedPerThread<RPL>) * std::size_t(warps * kGroup) * sizeof(float);  // the backward's rows
    if (smem > 48 * 1024)  // 8 warps with the terms: 70 KB, past the default limit (AMD's 64 KB refuse it: EngineError)
        check(gpuFuncSetAttribute(reinterpret_cast<const void*>(&softDtwBackwardKernel<RPL, ABS>),
                                  gpuFuncAttributeMaxDynamicSharedMemorySize, int(smem)),
              "soft-DTW fp32 backward kernel: shared memory");
    for (int first = 0; first < count; first += batch) {
        const int c = std::min(batch, count - first);
        softDtwForwardKernel<RPL, ABS><<<c, warps * kGroup, 0, s>>>(xv, yv, first, scale, ig, work.get(), lay, values);
        checkLaunch("soft-DTW fp32 forward kernel");
        softDtwBackwardKernel<RPL, ABS><<<c, warps * kGroup, smem, s>>>(xv, yv, first, scale, gradScale, work.get(),
                                                                     lay, grads, offsets);
        checkLaunch("soft-DTW fp32 backward kernel");
    }
    stop.record(s);  // before the buffer's cudaFree, which waits for the device and takes its own time
}

}  // namespace

SoftDtwGradients softDtwGradientBatchFp32(const SeriesSet& x, const SeriesSet& y, const Params& params,
                                          GradientShape shape) {
    using K = EngineError::Kind;
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    validate(params);
    if (x.size() != y.size()) throw EngineError(K::BadInput, "y", "needs as many series as x");
    if (shape.rowsPerLane != 0 && shape.rowsPerLane != 4 && shape.rowsPerLane != 8 && shape.rowsPerLane != 16)
        throw EngineError(K::BadInput, "rows per lane", "must be 4, 8 or 16 (0 chooses), not " +
                                                            std::to_string(shape.rowsPerLane));
    if (shape.warpsPerPair < 0 || shape.warpsPerPair > kMaxWarps)
        throw EngineError(K::BadInput, "warps per pair", "must be 1 to " + std::to_string(kMaxWarps) +
                                                             " (0 chooses), not " + std::to_string(shape.warpsPerPair));
    SoftDtwGradients out;
    if (x.empty()) return out;
    PackedHost xh = packSeries(x, 0, x.size(), "x"), yh = packSeries(y, 0, y.size(), "y");
    if (xh.dims != 1 || yh.dims != 1)
        throw EngineError(K::BadInput, "dims", "the fp32 soft-DTW gradient takes univariate series (fp64 takes channels)");
    std::vector<long long> gradOffsets(x.size());
    long long total = 0;
    for (std::size_t i = 0; i < x.size(); ++i) { gradOffsets[i] = total; total += (long long)x[i].samples().size(); }

    Stream stream;
    PackedDevice xd, yd;
    xd.upload(xh, stream.get());
    yd.upload(yh, stream.get());
    DeviceBuffer<long long> offs;
    offs.upload(gradOffsets.data(), gradOffsets.size(), stream.get());
    DeviceBuffer<double> values(x.size());
    DeviceBuffer<float> grads(std::size_t(std::max<long long>(1, total)));
    const bool abs = params.cost == Cost::Absolute;
    const int count = int(x.size());
    const GradientShape use = chosenGradientShape(xh.maxLength, x.size(), shape);
    const int warps = use.warpsPerPair;
    Event start, stop;
    auto run = [&](auto rplTag) {
        constexpr int RPL = decltype(rplTag)::value;
        if (abs) runBatches<RPL, true>(view(xd), view(yd), xh.maxLength, yh.maxLength, count, warps, params.gamma, values.get(), grads.get(), offs.get(), stream.get(), start, stop);
        else runBatches<RPL, false>(view(xd), view(yd), xh.maxLength, yh.maxLength, count, warps, params.gamma, values.get(), grads.get(), offs.get(), stream.get(), start, stop);
    };
    if (use.rowsPerLane == 4) run(std::integral_constant<int, 4>{});
    else if (use.rowsPerLane == 8) run(std::integral_constant<int, 8>{});
    else run(std::integral_constant<int, 16>{});
    out.values.resize(x.size());
    std::vector<float> g(std::size_t(std::max<long long>(1, total)));
    values.download(out.values.data(), out.values.size(), stream.get());
    grads.download(g.data(), std::size_t(total), stream.get());
    stream.sync();
    out.kernelSeconds = stop.since(start) / 1000.0;
    for (std::size_t i = 0; i < x.size(); ++i)
        out.gradients.emplace_back(g.begin() + gradOffsets[i], g.begin() + gradOffsets[i] + (long long)x[i].samples().size());
    return out;
}

void softDtwGradientOnDeviceFp32(SetView xv, SetView yv, int count, int n, int m, const Params& params, double* values,
                                 float* grads, const long long* offsets, gpuStream_t stream) {
    const GradientShape use = chosenGradientShape(n, std::size_t(count));
    const bool abs = params.cost == Cost::Absolute;
    Event start, stop;
    auto run = [&](auto rplTag) {
        constexpr int RPL = decltype(rplTag)::value;
        if (abs) runBatches<RPL, true>(xv, yv, n, m, count, use.warpsPerPair, params.gamma, values, grads, offsets, stream, start, stop);
        else runBatches<RPL, false>(xv, yv, n, m, count, use.warpsPerPair, params.gamma, values, grads, offsets, stream, start, stop);
    };
    if (use.rowsPerLane == 4) run(std::integral_constant<int, 4>{});
    else if (use.rowsPerLane == 8) run(std::integral_constant<int, 8>{});
    else run(std::integral_constant<int, 16>{});
}

GradientShape chosenGradientShape(int maxLength, std::size_t pairs, GradientShape asked) {
    GradientShape s = asked;
    // The fastest shapes on an H100: one stripe per pair up to 256 rows, stripes of 512 rows
    // beyond. Two warps per pair while the batch leaves the chip short of warps (a thousand
    // pairs); one when every multiprocessor has a dozen pairs or more (the barriers then cost
    // more than the second warp gains).
    if (s.rowsPerLane == 0) s.rowsPerLane = maxLength <= 4 * kGroup ? 4 : maxLength <= 8 * kGroup ? 8 : 16;
    if (s.warpsPerPair == 0)
        s.warpsPerPair = pairs < std::size_t(12) * std::size_t(std::max(1, multiprocessorCount())) ? 2 : 1;
    s.warpsPerPair = std::min(s.warpsPerPair, stripesOf(std::max(1, maxLength), s.rowsPerLane));  // never a warp without a stripe
    return s;
}

}  // namespace warplab::compute::gpu
