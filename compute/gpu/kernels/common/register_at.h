// a[k] of a per-thread register array whose index k is known only at run time. A chain of
// selects over the unrolled indices keeps `a` in registers; indexing it directly would move
// the whole array to local memory.
#pragma once
#include "compute/gpu/runtime/gpu_runtime.h"

namespace warplab::compute::gpu {

template <int R, typename T>
__device__ __forceinline__ T registerAt(const T (&a)[R], int k) {
    T r = a[0];
#pragma unroll
    for (int i = 1; i < R; ++i) r = i == k ? a[i] : r;
    return r;
}

}  // namespace warplab::compute::gpu
