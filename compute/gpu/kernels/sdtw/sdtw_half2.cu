// half2 pass of the GPU subsequence search (see sdtw_passes.h, sdtw_stripes.h).
//
// Two reference segments per lane: the low half of every __half2 computes segment A, the
// reference columns [0, L), the high half segment B, the columns [h, m), with L = h + ov
// columns of A, so each instruction does two cells. A sees every path (it starts at column
// 0); B starts afresh at column h, so for an end j >= L it sees only the paths that start at
// h or later: a path ending there that spans more than ov columns is not seen. The last row
// takes A's value for j < L and B's for j >= L. sdtw_gpu.cu chooses ov and states it.
// gpu_runtime.h first: hipcc needs its runtime header before anything uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>

#include "compute/gpu/kernels/sdtw/sdtw_pass_kernel.h"

namespace warplab::compute::gpu::sdtw {

namespace {

__global__ void packHalf2Kernel(const float* y, __half2* yh, int L, int h, int pad) {
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < L + pad; j += gridDim.x * blockDim.x)
        yh[j] = j < L ? __floats2half2_rn(y[j], y[h + j]) : __floats2half2_rn(0.f, 0.f);
}

}  // namespace

void packHalf2Reference(const float* y, __half2* yh, int L, int h, int pad, gpuStream_t s) {
    const int grid = std::max(1, std::min((L + pad + 255) / 256, 4096));
    packHalf2Kernel<<<grid, 256, 0, s>>>(y, yh, L, h, pad);
    checkLaunch("sdtw half2 reference packing");
}

void launchHalf2Pass(const StripeArgs& args, int rows, int cols, bool absCost, bool lean, int grid, int warps,
                     gpuStream_t s) {
    const int threads = warps * kWarpSize;
    if (lean) {
        launchLeanPass<H2Op>(args, rows, cols, absCost, grid, threads, s);
    } else if (rows == 16) {
        if (absCost) stripeKernel<H2Op, 16, true, false><<<grid, threads, 0, s>>>(args);
        else stripeKernel<H2Op, 16, false, false><<<grid, threads, 0, s>>>(args);
    } else {
        if (absCost) stripeKernel<H2Op, 8, true, false><<<grid, threads, 0, s>>>(args);
        else stripeKernel<H2Op, 8, false, false><<<grid, threads, 0, s>>>(args);
    }
    checkLaunch("sdtw half2 pass");
}

}  // namespace warplab::compute::gpu::sdtw
