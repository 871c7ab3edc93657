// Device code of the narrow-band cdtw kernel (see band_cdtw.h); included by the band_cdtw_w*.cu
// files, each of which instantiates a range of half-widths W.
//
// Coordinates. Row i of the band holds L = 2W + 1 cells D(i, k), k = j - i + W. In these
// coordinates the three neighbours of METRICS.md are D(i-1, k) (diagonal), D(i-1, k+1) (up) and
// D(i, k-1) (left), so the band never shifts: one array D[L] is updated in place with k rising
// (D[k+1] is still the old row when D[k] is written, D[k-1] already the new one).
// Edges cost nothing: a y sample outside [0, n) is loaded as +inf, which makes its cell +inf
// ((x - inf)^2 = inf, |x - inf| = inf), exactly the cells outside the matrix. Row -1 is +inf
// except D(-1, W) = 0, the D(-1, -1) = 0 corner of the recurrence.
//
// y window. Row i needs y[i - W .. i + W]. Rows go in chunks of C: yb[t] = y[i0 - W + t],
// t < C + 2W, so cell (i0 + u, k) reads yb[u + k], a compile-time index in the unrolled chunk
// (no register moves per row); between chunks the 2W overlapping samples move down once (2W
// moves per C rows) and C new ones are loaded.
//
// Threads of a warp take consecutive pairs; with the row-major pair lists of a tile they share
// the query, so its samples are one broadcast load, and each thread reads its own target in
// 64-byte pieces (two sectors per chunk of 16 rows).
#pragma once
#include "compute/gpu/kernels/band/band_cdtw.h"
#include "compute/gpu/kernels/common/cost_min.h"

namespace warplab::compute::gpu {

namespace band {

// Threads per block. Blocks of 64 with chunks of 13 rows (below) are the fastest measured at
// w = 16 (96 and 128 are within 1 %). WL_BAND_BLOCK: a compile-time knob for A/B runs.
#ifndef WL_BAND_BLOCK
#define WL_BAND_BLOCK 64
#endif
constexpr int kBlock = WL_BAND_BLOCK;

template <int W, int C, bool ABS, bool TAIL, bool DPX>
__device__ __forceinline__ void chunk(float (&D)[2 * W + 1], float (&yb)[C + 2 * W], const float* __restrict__ x,
                                      const float* __restrict__ y, int i0, int n) {
    constexpr int L = 2 * W + 1;
    float xc[C];
#pragma unroll
    for (int t = 0; t < C; ++t) {
        const int j = i0 + W + t;
        yb[2 * W + t] = j < n ? __ldg(y + j) : INFINITY;
        xc[t] = (!TAIL || i0 + t < n) ? __ldg(x + i0 + t) : 0.f;
    }
    // Rows past n are skipped rather than left with `break`: clang (hipcc) cannot fully unroll
    // a loop with an early exit, and the tail runs once per pair.
#pragma unroll
    for (int u = 0; u < C; ++u) {
        if (TAIL && i0 + u >= n) continue;
#pragma unroll
        for (int k = 0; k < L; ++k) {
            float mn;
            if constexpr (DPX) {
                if (k > 0 && k + 1 < L) mn = costMin3<true>(D[k], D[k + 1], D[k - 1]);
                else if (k > 0) mn = fminf(D[k], D[k - 1]);
                else mn = k + 1 < L ? fminf(D[k], D[k + 1]) : D[k];
            } else {
                mn = k + 1 < L ? fminf(D[k], D[k + 1]) : D[k];
                if (k > 0) mn = fminf(mn, D[k - 1]);
            }
            const float c = xc[u] - yb[u + k];
            D[k] = ABS ? fabsf(c) + mn : fmaf(c, c, mn);
        }
    }
#pragma unroll
    for (int t = 0; t < 2 * W; ++t) yb[t] = yb[t + C];
}

// WL_BAND_MIN_BLOCKS: a compile-time knob for A/B runs (scripts/device/run.sh ab), blocks per SM
// asked of ptxas for the narrow bands. With blocks of 64 neither bound binds: ptxas takes 96
// registers at w = 16, at most 128 up to w = 24 and 168 at w = 32, none spilling (CUDA 12/13).
#ifndef WL_BAND_MIN_BLOCKS
#define WL_BAND_MIN_BLOCKS 4
#endif
template <int W, bool ABS, bool DPX>
__global__ void __launch_bounds__(kBlock, W <= 24 ? WL_BAND_MIN_BLOCKS : 3) bandKernel(SetView rows, SetView cols, PairsView pairs, int n) {
    constexpr int L = 2 * W + 1;
    // Rows per chunk: the 2W moves of the y window are paid once per C rows, and the window
    // (C + 2W), D (2W + 1) and x (C) live in registers. At w = 16, 13 rows is the fastest: fewer
    // pay the moves more often (8 rows: 7 % slower), 16 rows take 116 registers and drop a block
    // per SM, 32 spill. WL_BAND_CHUNK (bands up to w = 20): a compile-time knob for A/B runs.
    // Wider bands take fewer rows, their window and band holding more registers: 11 rows up to
    // w = 24 and 9 beyond (13 rows at w = 32 is a fifth slower); at w = 20 both are within 1 %.
    // Widths 25 to 31 take the w = 32 choice untimed.
#ifndef WL_BAND_CHUNK
#define WL_BAND_CHUNK 13
#endif
    constexpr int C = W <= 20 ? WL_BAND_CHUNK : W <= 24 ? 11 : 9;
    const int p = int(blockIdx.x * kBlock + threadIdx.x);
    if (p >= pairs.count) return;  // no warp-collective operations below
    const int r = pairs.row[p], c = pairs.col[p];
    const float* __restrict__ x = rows.values + rows.offsets[r];
    const float* __restrict__ y = cols.values + cols.offsets[c];
    float D[L];
#pragma unroll
    for (int k = 0; k < L; ++k) D[k] = k == W ? 0.f : INFINITY;
    float yb[C + 2 * W];
#pragma unroll
    for (int t = 0; t < 2 * W; ++t) {
        const int j = t - W;
        yb[t] = (j >= 0 && j < n) ? __ldg(y + j) : INFINITY;
    }
    int i0 = 0;
    for (; i0 + C <= n; i0 += C) chunk<W, C, ABS, false, DPX>(D, yb, x, y, i0, n);
    if (i0 < n) chunk<W, C, ABS, true, DPX>(D, yb, x, y, i0, n);
    pairs.out[std::size_t(r) * pairs.outCols + c] = double(D[W]);
}

}  // namespace band

template <int W>
void launchBandWidth(bool absCost, bool dpx, SetView rows, SetView cols, PairsView pairs, int n, gpuStream_t s) {
    if (pairs.count <= 0) return;
    const int grid = (pairs.count + band::kBlock - 1) / band::kBlock;
    if (dpx) {
        if (absCost) band::bandKernel<W, true, true><<<grid, band::kBlock, 0, s>>>(rows, cols, pairs, n);
        else band::bandKernel<W, false, true><<<grid, band::kBlock, 0, s>>>(rows, cols, pairs, n);
    } else {
        if (absCost) band::bandKernel<W, true, false><<<grid, band::kBlock, 0, s>>>(rows, cols, pairs, n);
        else band::bandKernel<W, false, false><<<grid, band::kBlock, 0, s>>>(rows, cols, pairs, n);
    }
    checkLaunch("band cdtw kernel");
}

}  // namespace warplab::compute::gpu

// One explicit instantiation; used inside namespace warplab::compute::gpu.
#define WL_BAND_INSTANTIATE(W) \
    template void launchBandWidth<W>(bool, bool, SetView, SetView, PairsView, int, gpuStream_t);
