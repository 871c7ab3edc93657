// The three-neighbour minimum of the DTW-family recurrences, shared by the kernels that want
// Hopper's DPX form. Costs are >= 0 or +inf (NaN input is rejected when packing), and such floats
// order as their bit patterns do as signed integers, so the three-input integer minimum
// (__vimin3_s32, one DPX operation on sm_90) replaces two FMNMX, which run at half the FFMA
// rate. Elsewhere (HIP, DPX = false) two fminf; either way the same value.
#pragma once
#include "compute/gpu/runtime/gpu_runtime.h"

namespace warplab::compute::gpu {

template <bool DPX = true>
__device__ __forceinline__ float costMin3(float a, float b, float c) {
#if WL_GPU_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if constexpr (DPX)
        return __int_as_float(__vimin3_s32(__float_as_int(a), __float_as_int(b), __float_as_int(c)));
#endif
    return fminf(fminf(a, b), c);
}

}  // namespace warplab::compute::gpu
