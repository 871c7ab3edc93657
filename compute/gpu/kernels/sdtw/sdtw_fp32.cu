// fp32 pass and window pass of the GPU subsequence search (see sdtw_passes.h, sdtw_stripes.h).
// gpu_runtime.h first: hipcc needs its runtime header before anything uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>

#include "compute/gpu/kernels/sdtw/sdtw_stripes.h"

namespace warplab::compute::gpu::sdtw {

int rowsPerLane(const int* lengths, int count, int warpSize, int sms) {
    // 16 rows per lane need ~1/3 fewer instructions per cell than 8 (the per-step shuffles,
    // loads and loop are spread over twice the cells), but give half the warps: keep 16 while
    // the batch still has about 12 warps per multiprocessor at 16.
    long long warps16 = 0;
    for (int i = 0; i < count; ++i) warps16 += ((lengths[i] + 15) / 16 + warpSize - 1) / warpSize;
    return warps16 >= 12LL * std::max(1, sms) ? 16 : 8;
}

int warpsPerBlock(int maxLength, int rows, int warpSize) {
    const int stripes = ((maxLength + rows - 1) / rows + warpSize - 1) / warpSize;
    return std::clamp(stripes, 1, kMaxThreads / warpSize);
}

void launchFp32Pass(const StripeArgs& args, int rows, bool absCost, int grid, int warps, gpuStream_t s) {
    const int threads = warps * kWarpSize;
    if (rows == 16) {
        if (absCost) stripeKernel<F32Op, 16, true, false><<<grid, threads, 0, s>>>(args);
        else stripeKernel<F32Op, 16, false, false><<<grid, threads, 0, s>>>(args);
    } else {
        if (absCost) stripeKernel<F32Op, 8, true, false><<<grid, threads, 0, s>>>(args);
        else stripeKernel<F32Op, 8, false, false><<<grid, threads, 0, s>>>(args);
    }
    checkLaunch("sdtw fp32 pass");
}

void launchWindows(const StripeArgs& args, bool absCost, int grid, int warps, gpuStream_t s) {
    const int threads = warps * kWarpSize;
    if (absCost) stripeKernel<F32Op, 16, true, true><<<grid, threads, 0, s>>>(args);
    else stripeKernel<F32Op, 16, false, true><<<grid, threads, 0, s>>>(args);
    checkLaunch("sdtw window pass");
}

}  // namespace warplab::compute::gpu::sdtw
