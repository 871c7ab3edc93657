// The soft-min of METRICS.md as the fp32 soft-DTW kernels evaluate it (cuda.shuffle's softdtw
// path, softdtw_grad_fp32.cu): in base-2 units, where a DP value is R' = R / (gamma ln 2), so
// that exp(-R/gamma) = 2^-R' and no multiplication by 1/gamma is left in a cell. The exp2, log2
// and reciprocal are the hardware approximations (one MUFU operation each on NVIDIA, flushing
// subnormals, which only drops terms below 2^-126 of the sum's leading 1).
#pragma once
#include "compute/gpu/runtime/gpu_runtime.h"

namespace warplab::compute::gpu {

__device__ __forceinline__ float fastExp2(float x) {
#if WL_GPU_CUDA
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
#else
    return exp2f(x);
#endif
}

__device__ __forceinline__ float fastLog2(float x) {
#if WL_GPU_CUDA
    float r;
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
#else
    return __log2f(x);
#endif
}

__device__ __forceinline__ float fastRcp(float x) {
#if WL_GPU_CUDA
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
#else
    return __fdividef(1.f, x);
#endif
}

// Soft-min of three base-2 DP values (>= 0 or +inf): returns lg and sets lo so that
// softmin = lo - lg, lo = min(a, b, c), lg = log2(1 + 2^(lo - p) + 2^(lo - q)) where p, q are
// the two others. The min's own term is exactly 1, so two exp2 and one log2 (3 MUFU), and the
// order needs only min/max: min(a, b) and max(a, b) do not depend on c, which callers pass as
// the neighbour that was computed last (the cell above), so the dependency chain starts late.
// Three +inf give lo = +inf and lg = 0 (lo is clamped before the differences: no inf - inf).
// `scale` multiplies the differences, for values not in base-2 units (cuda.tiled keeps R: there
// scale = 1 / (gamma ln 2), and softmin = lo - gamma ln 2 * lg); x * 1 is exact, so the base-2
// callers get the same numbers.
// softminLog2Terms also returns the two exp2 terms: eMx of max(a, b) and eOther of the larger
// of min(a, b) and c (the minimum's term is the 1). Together with the order of a, b and c they are
// the weights of the three neighbours, which the fp32 gradient's backward reuses for the cells it
// recomputes.
__device__ __forceinline__ float softminLog2Terms(float a, float b, float c, float& lo, float& eMx, float& eOther,
                                                  float scale = 1.f) {
    const float mn = fminf(a, b), mx = fmaxf(a, b);
    lo = fminf(mn, c);
    const float other = fmaxf(mn, c);
    const float loC = fminf(lo, 3.0e38f);
    eMx = fastExp2((loC - mx) * scale);
    const float sum = 1.f + eMx;
    eOther = fastExp2((loC - other) * scale);
    return fastLog2(sum + eOther);
}
__device__ __forceinline__ float softminLog2(float a, float b, float c, float& lo, float scale = 1.f) {
    float eMx, eOther;
    return softminLog2Terms(a, b, c, lo, eMx, eOther, scale);
}

}  // namespace warplab::compute::gpu
