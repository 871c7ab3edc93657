// One column step of one lane of the tiled kernel (tiled.cu): the lane's R rows at column j,
// given the cell above its first row (`up`, D(i0-1, j)) and above-left (`diag`, D(i0-1, j-1)).
// D[] holds D(i, j-1) on entry and D(i, j) on return. Device-only; included by tiled.cu alone.
#pragma once
#include "compute/gpu/kernels/common/register_at.h"
#include "compute/gpu/kernels/common/softmin_fast.h"
#include "compute/gpu/runtime/gpu_runtime.h"

namespace warplab::compute::gpu::tiled {

// DTW, every row inside the band. min(left, diag) of every row first, in place from the bottom
// row up (each old value is read by its own row and the row below), then the min -> fma chain
// down the rows: no value moves between registers from one column to the next.
template <int R, bool ABS>
__device__ __forceinline__ void dtwColumn(const float (&xr)[R], float (&D)[R], float yj, float up, float diag) {
#pragma unroll
    for (int k = R - 1; k >= 1; --k) D[k] = fminf(D[k], D[k - 1]);
    D[0] = fminf(D[0], diag);
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const float c = xr[k] - yj;
        const float mn = fminf(D[k], up);
        const float v = ABS ? fabsf(c) + mn : fmaf(c, c, mn);
        D[k] = v;
        up = v;
    }
}

// DTW at a band edge: rows k outside [kLo, kHi] are +inf.
template <int R, bool ABS>
__device__ __forceinline__ void dtwColumnMasked(const float (&xr)[R], float (&D)[R], float yj, float up, float diag,
                                                int kLo, int kHi) {
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const float left = D[k];
        const float c = xr[k] - yj;
        const float mn = fminf(fminf(left, diag), up);
        float v = ABS ? fabsf(c) + mn : fmaf(c, c, mn);
        v = (k >= kLo && k <= kHi) ? v : INFINITY;
        diag = left;
        D[k] = v;
        up = v;
    }
}

// Soft-min of METRICS.md in R units: softmin_fast.h's 3-MUFU form with the differences scaled
// by ig = 1 / (gamma ln 2), then softmin = lo - gamma ln 2 * lg. c is the cell above (computed last).
__device__ __forceinline__ float softmin2(float a, float b, float c, float ig, float g2) {
    float lo;
    const float lg = softminLog2(a, b, c, lo, ig);
    return lo - g2 * lg;
}

template <int R, bool ABS>
__device__ __forceinline__ void softColumn(const float (&xr)[R], float (&D)[R], float yj, float up, float diag,
                                           float ig, float g2) {
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const float left = D[k];
        const float c = xr[k] - yj;
        const float v = (ABS ? fabsf(c) : c * c) + softmin2(diag, left, up, ig, g2);
        diag = left;
        D[k] = v;
        up = v;
    }
}

// TWED (METRICS.md, padded x(-1) = y(-1) = 0, t(-1) = 0), as in twed_warp.cu:
//   bottom-up: D[k] = min(D(i-1, j-1) + match, D(i, j-1) + dy)   (old D[k-1], D[k])
//   top-down:  D[k] = min(D[k], D(i-1, j) + dx[k])              (the only chain)
// ap[k] = |x_i - y_{j-1}| on entry (row k+1 needs it as |x_{i-1} - y_{j-1}|), |x_i - y_j| on
// return; aTop = |x_{i0-1} - y_{j-1}|. The time term of the match is c2 * |i - j| with
// q = j - i0 (exact in fp32 below 2^24); for i = 0 or j = 0 it differs from METRICS.md's, but
// there the diagonal predecessor is +inf (or both are 0 at the origin).
template <int R, bool NU>
__device__ __forceinline__ void twedColumn(const float (&xr)[R], const float (&dx)[R], float (&ap)[R], float (&D)[R],
                                           float yj, float dy, float up, float diag, float aTop, float q, float c2) {
#pragma unroll
    for (int k = R - 1; k >= 0; --k) {
        const float a = fabsf(xr[k] - yj);
        const float aPrev = k == 0 ? aTop : ap[k - 1];
        float match = (k > 0 ? D[k - 1] : diag) + (a + aPrev);
        if constexpr (NU) match = fmaf(c2, fabsf(float(k) - q), match);
        D[k] = fminf(match, D[k] + dy);
        ap[k] = a;
    }
#pragma unroll
    for (int k = 0; k < R; ++k) {
        D[k] = fminf(D[k], up + dx[k]);
        up = D[k];
    }
}

}  // namespace warplab::compute::gpu::tiled
