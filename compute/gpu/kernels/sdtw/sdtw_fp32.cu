// fp32 pass and window pass of the GPU subsequence search (see sdtw_passes.h, sdtw_stripes.h).
// gpu_runtime.h first: hipcc needs its runtime header before anything uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>

#include "compute/gpu/kernels/sdtw/sdtw_window_kernel.h"

namespace warplab::compute::gpu::sdtw {

int rowsPerLane(const int* lengths, int count, int warpSize, int sms) {
    // More rows per lane spread the per-step shuffles, loads and ring traffic over more cells
    // but give fewer warps: 32 while the batch still has about 7 warps per multiprocessor at 32
    // (512 x 2000 on an H100: 5.0 T cells/s against 4.9 T at 16), 16 while it has about 12 at
    // 16, else 8.
    long long warps16 = 0, warps32 = 0;
    for (int i = 0; i < count; ++i) {
        warps16 += ((lengths[i] + 15) / 16 + warpSize - 1) / warpSize;
        warps32 += ((lengths[i] + 31) / 32 + warpSize - 1) / warpSize;
    }
    const long long m = std::max(1, sms);
    return warps32 >= 7 * m ? 32 : warps16 >= 12 * m ? 16 : 8;
}

bool passRowsSupported(int rows) { return rows == 2 || rows == 4 || rows == 8 || rows == 16 || rows == 32; }

int stripesOf(int maxLength, int rows, int warpSize) {
    return std::max(1, ((maxLength + rows - 1) / rows + warpSize - 1) / warpSize);
}

bool leanPassFits(int maxLength, int rows, int warpSize) {
    return stripesOf(maxLength, rows, warpSize) <= leanThreads(rows) / warpSize;
}

int warpsPerBlock(int maxLength, int rows, int warpSize) {
    const int stripes = ((maxLength + rows - 1) / rows + warpSize - 1) / warpSize;
    return std::clamp(stripes, 1, kMaxThreads / warpSize);
}

void launchFp32Pass(const StripeArgs& args, int rows, bool absCost, bool lean, int grid, int warps, gpuStream_t s) {
    const int threads = warps * kWarpSize;
    if (lean) {
        launchLeanPass<F32Op>(args, rows, absCost, grid, threads, s);
    } else if (rows == 16) {
        if (absCost) stripeKernel<F32Op, 16, true, false><<<grid, threads, 0, s>>>(args);
        else stripeKernel<F32Op, 16, false, false><<<grid, threads, 0, s>>>(args);
    } else {
        if (absCost) stripeKernel<F32Op, 8, true, false><<<grid, threads, 0, s>>>(args);
        else stripeKernel<F32Op, 8, false, false><<<grid, threads, 0, s>>>(args);
    }
    checkLaunch("sdtw fp32 pass");
}

void launchWindows(const StripeArgs& args, bool absCost, bool lean, int grid, int warps, gpuStream_t s) {
    const int threads = warps * kWarpSize;
    if (lean) {
        if (absCost) leanWindowKernel<16, true><<<grid, threads, 0, s>>>(args);
        else leanWindowKernel<16, false><<<grid, threads, 0, s>>>(args);
    } else if (absCost) stripeKernel<F32Op, 16, true, true><<<grid, threads, 0, s>>>(args);
    else stripeKernel<F32Op, 16, false, true><<<grid, threads, 0, s>>>(args);
    checkLaunch("sdtw window pass");
}

}  // namespace warplab::compute::gpu::sdtw
