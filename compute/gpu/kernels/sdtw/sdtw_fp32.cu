// fp32 pass and start pass of the GPU subsequence search (see sdtw_passes.h, sdtw_stripes.h).
// gpu_runtime.h first: hipcc needs its runtime header before anything uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>

#include "compute/gpu/kernels/sdtw/sdtw_start_kernel.h"

namespace warplab::compute::gpu::sdtw {

int rowsPerLane(const int* lengths, int count, int warpSize, int sms) {
    // More rows per lane spread the per-step shuffles, loads and ring traffic over more cells
    // but give fewer warps. With 8 columns per step, 16 rows while the batch has about 12 warps
    // per multiprocessor at 16 (the faster of 16 and 32 rows for fp32 at 512 x 2000, within 3 %
    // of each other for half2), else 8.
    long long warps16 = 0;
    for (int i = 0; i < count; ++i) warps16 += ((lengths[i] + 15) / 16 + warpSize - 1) / warpSize;
    const long long m = std::max(1, sms);
    return warps16 >= 12 * m ? 16 : 8;
}

bool passRowsSupported(int rows) { return rows == 2 || rows == 4 || rows == 8 || rows == 16 || rows == 32; }

bool leanColumnsSupported(int rows, int cols) {
    return cols == 2 || (cols == 4 && (rows == 16 || rows == 32)) || (cols == 8 && (rows == 16 || rows == 32));
}

int columnsPerStep(int rows, int asked) {
    // Eight chains per lane where the pass is built for them (16 and 32 rows; 8 columns per step
    // are about 18 % faster than 2).
    if (asked != 0) return leanColumnsSupported(rows, asked) ? asked : 2;
    return leanColumnsSupported(rows, 8) ? 8 : 2;
}

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

void launchFp32Pass(const StripeArgs& args, int rows, int cols, bool absCost, bool lean, int grid, int warps,
                    gpuStream_t s) {
    const int threads = warps * kWarpSize;
    if (lean) {
        launchLeanPass<F32Op>(args, rows, cols, absCost, grid, threads, s);
    } else if (rows == 16) {
        if (absCost) stripeKernel<F32Op, 16, true, false><<<grid, threads, 0, s>>>(args);
        else stripeKernel<F32Op, 16, false, false><<<grid, threads, 0, s>>>(args);
    } else {
        if (absCost) stripeKernel<F32Op, 8, true, false><<<grid, threads, 0, s>>>(args);
        else stripeKernel<F32Op, 8, false, false><<<grid, threads, 0, s>>>(args);
    }
    checkLaunch("sdtw fp32 pass");
}

void launchStartPasses(const StripeArgs& args, bool absCost, bool lean, int grid, int warps, gpuStream_t s) {
    const int threads = warps * kWarpSize;
    if (lean) {
        if (absCost) leanStartKernel<16, true><<<grid, threads, 0, s>>>(args);
        else leanStartKernel<16, false><<<grid, threads, 0, s>>>(args);
    } else if (absCost) stripeKernel<F32Op, 16, true, true><<<grid, threads, 0, s>>>(args);
    else stripeKernel<F32Op, 16, false, true><<<grid, threads, 0, s>>>(args);
    checkLaunch("sdtw start pass");
}

}  // namespace warplab::compute::gpu::sdtw
