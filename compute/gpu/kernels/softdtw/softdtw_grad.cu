// Soft-DTW gradient batches (see softdtw_grad.h). The padded R and E matrices of mblondel/
// soft-dtw, (n+2) x (m+2), live in device memory per resident block (sized to the free memory);
// each matrix is swept by anti-diagonals, forwards for R and backwards for E, so the block's
// threads work on independent cells between barriers.
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>
#include <cmath>

#include "compute/core/recurrences.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/packed_series.h"
#include "compute/gpu/kernels/softdtw/softdtw_grad.h"
#include "compute/gpu/kernels/softdtw/softdtw_grad_fp32.h"

namespace warplab::compute::gpu {

namespace {

constexpr int kThreads = 256;

// Local cost of padded cell (i, j), 1-based; 0 on the padding rows and columns (as mblondel).
__device__ double paddedCost(const float* x, const float* y, int n, int m, int i, int j, int dims, bool absCost) {
    if (i < 1 || j < 1 || i > n || j > m) return 0.0;
    return cell::localCostN<double>(x + long(i - 1) * dims, y + long(j - 1) * dims, dims, absCost);
}

__global__ void softDtwGradKernel(SetView xs, SetView ys, int count, int dims, bool absCost, double gamma,
                                  double* work, std::size_t matrixStride, double* values, double* grads,
                                  const long long* gradOffsets) {
    double* R = work + std::size_t(blockIdx.x) * 2 * matrixStride;
    double* E = R + matrixStride;
    for (int p = blockIdx.x; p < count; p += gridDim.x) {
        const float* x = xs.values + xs.offsets[p];
        const float* y = ys.values + ys.offsets[p];
        const int n = xs.lengths[p], m = ys.lengths[p], w = m + 2;
        const std::size_t cells = std::size_t(n + 2) * w;
        for (std::size_t k = threadIdx.x; k < cells; k += blockDim.x) {
            R[k] = INFINITY;
            E[k] = 0.0;
        }
        __syncthreads();
        if (threadIdx.x == 0) R[0] = 0.0;
        __syncthreads();
        // Forward: anti-diagonal k = i + j over the real cells 1..n x 1..m.
        for (int k = 2; k <= n + m; ++k) {
            const int iLo = max(1, k - m), iHi = min(n, k - 1);
            for (int i = iLo + threadIdx.x; i <= iHi; i += blockDim.x) {
                const int j = k - i;
                const double c = paddedCost(x, y, n, m, i, j, dims, absCost);
                R[i * w + j] = cell::softDtwStep<double>(c, R[(i - 1) * w + j], R[i * w + j - 1], R[(i - 1) * w + j - 1], gamma);
            }
            __syncthreads();
        }
        // Past the end: -inf so that exp() weights vanish, the corner carries R(n, m).
        for (int i = 1 + threadIdx.x; i <= n; i += blockDim.x) R[i * w + m + 1] = -INFINITY;
        for (int j = 1 + threadIdx.x; j <= m; j += blockDim.x) R[(n + 1) * w + j] = -INFINITY;
        __syncthreads();
        if (threadIdx.x == 0) {
            R[(n + 1) * w + m + 1] = R[n * w + m];
            E[(n + 1) * w + m + 1] = 1.0;
            values[p] = R[n * w + m];
        }
        __syncthreads();
        // Backward: anti-diagonals from the bottom-right corner.
        for (int k = n + m; k >= 2; --k) {
            const int iLo = max(1, k - m), iHi = min(n, k - 1);
            for (int i = iLo + threadIdx.x; i <= iHi; i += blockDim.x) {
                const int j = k - i;
                const double r = R[i * w + j];
                const double a = exp((R[(i + 1) * w + j] - r - paddedCost(x, y, n, m, i + 1, j, dims, absCost)) / gamma);
                const double b = exp((R[i * w + j + 1] - r - paddedCost(x, y, n, m, i, j + 1, dims, absCost)) / gamma);
                const double c = exp((R[(i + 1) * w + j + 1] - r - paddedCost(x, y, n, m, i + 1, j + 1, dims, absCost)) / gamma);
                E[i * w + j] = E[(i + 1) * w + j] * a + E[i * w + j + 1] * b + E[(i + 1) * w + j + 1] * c;
            }
            __syncthreads();
        }
        // Chain rule: d c(x_i, y_j) / d x_ic = 2 (x_ic - y_jc) (sq) or sign(x_ic - y_jc) (abs).
        double* g = grads + gradOffsets[p];
        for (int t = threadIdx.x; t < n * dims; t += blockDim.x) {
            const int i = t / dims, ch = t % dims;
            double sum = 0.0;
            for (int j = 0; j < m; ++j) {
                const double e = E[(i + 1) * w + j + 1];
                const double diff = double(x[long(i) * dims + ch]) - double(y[long(j) * dims + ch]);
                const double dc = absCost ? (diff > 0 ? 1.0 : (diff < 0 ? -1.0 : 0.0)) : 2.0 * diff;
                sum += e * dc;
            }
            g[t] = sum;
        }
        __syncthreads();
    }
}

// The fp64 kernel over `count` pairs of device series; `start` and `stop` around the kernel.
void runFp64(SetView xv, SetView yv, int count, int dims, int maxN, int maxM, const Params& params, double* values,
             double* grads, const long long* offsets, gpuStream_t stream, Event& start, Event& stop) {
    using K = EngineError::Kind;
    const std::size_t stride = std::size_t(maxN + 2) * std::size_t(maxM + 2);
    const std::size_t perBlock = 2 * stride * sizeof(double);
    const std::size_t fit = memInfo().first / 2 / perBlock;
    if (fit == 0)
        throw EngineError(K::Device, "gpu", "out of device memory: the soft-DTW matrices of one pair need " +
                                                std::to_string(perBlock >> 20) + " MiB");
    const int grid = int(std::min<std::size_t>({std::size_t(count), fit, std::size_t(std::max(1, multiprocessorCount()) * 4)}));
    DeviceBuffer<double> work(std::size_t(grid) * 2 * stride);
    start.record(stream);
    softDtwGradKernel<<<grid, kThreads, 0, stream>>>(xv, yv, count, dims, params.cost == Cost::Absolute, params.gamma,
                                                    work.get(), stride, values, grads, offsets);
    checkLaunch("soft-DTW gradient kernel");
    stop.record(stream);
}

}  // namespace

SoftDtwGradients softDtwGradientBatch(const SeriesSet& x, const SeriesSet& y, const Params& params,
                                      GradientPrecision precision, GradientShape shape) {
    if (precision == GradientPrecision::Fp32) return softDtwGradientBatchFp32(x, y, params, shape);
    using K = EngineError::Kind;
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    validate(params);
    if (x.size() != y.size()) throw EngineError(K::BadInput, "y", "needs as many series as x");
    SoftDtwGradients out;
    if (x.empty()) return out;
    PackedHost xh = packSeries(x, 0, x.size(), "x"), yh = packSeries(y, 0, y.size(), "y");
    if (xh.dims != yh.dims) throw EngineError(K::BadInput, "y", "channel count differs from x");
    std::vector<long long> gradOffsets(x.size());
    long long total = 0;
    for (std::size_t i = 0; i < x.size(); ++i) { gradOffsets[i] = total; total += (long long)x[i].samples().size(); }

    Stream stream;
    PackedDevice xd, yd;
    xd.upload(xh, stream.get());
    yd.upload(yh, stream.get());
    DeviceBuffer<long long> offs;
    offs.upload(gradOffsets.data(), gradOffsets.size(), stream.get());
    DeviceBuffer<double> values(x.size()), grads(std::max<long long>(1, total));
    Event start, stop;
    runFp64(view(xd), view(yd), int(x.size()), xh.dims, xh.maxLength, yh.maxLength, params, values.get(), grads.get(),
            offs.get(), stream.get(), start, stop);
    out.values.resize(x.size());
    std::vector<double> g(std::size_t(std::max<long long>(1, total)));
    values.download(out.values.data(), out.values.size(), stream.get());
    grads.download(g.data(), std::size_t(total), stream.get());
    stream.sync();
    out.kernelSeconds = stop.since(start) / 1000.0;
    for (std::size_t i = 0; i < x.size(); ++i)
        out.gradients.emplace_back(g.begin() + gradOffsets[i], g.begin() + gradOffsets[i] + (long long)x[i].samples().size());
    return out;
}

void softDtwGradientOnDevice(const SoftDtwDeviceBatch& b, const Params& params) {
    using K = EngineError::Kind;
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    validate(params);
    if (b.count < 1) throw EngineError(K::BadInput, "x", "no pairs given");
    if (b.n < 1 || b.m < 1) throw EngineError(K::BadInput, b.n < 1 ? "x" : "y", "series are empty");
    if (b.dims < 1) throw EngineError(K::BadInput, "dims", "must be >= 1");
    if (b.fp32 && b.dims != 1)
        throw EngineError(K::BadInput, "dims", "the fp32 soft-DTW gradient takes univariate series (fp64 takes channels)");
    if (!b.x || !b.y || !b.values || !b.gradients) throw EngineError(K::BadInput, "batch", "a device pointer is null");
    check(gpuSetDevice(b.device), "select the tensors' device");
    const auto stream = static_cast<gpuStream_t>(b.stream);
    // Where each pair starts (x and its gradient share offsets) and the lengths: the kernels'
    // per-series tables, count numbers each; the samples themselves are read where they are.
    std::vector<long long> xOff(std::size_t(b.count)), yOff(std::size_t(b.count));
    for (int p = 0; p < b.count; ++p) {
        xOff[std::size_t(p)] = (long long)p * b.n * b.dims;
        yOff[std::size_t(p)] = (long long)p * b.m * b.dims;
    }
    const std::vector<int> xLen(std::size_t(b.count), b.n), yLen(std::size_t(b.count), b.m);
    DeviceBuffer<long long> xo, yo;
    DeviceBuffer<int> xl, yl;
    xo.upload(xOff.data(), xOff.size(), stream);
    yo.upload(yOff.data(), yOff.size(), stream);
    xl.upload(xLen.data(), xLen.size(), stream);
    yl.upload(yLen.data(), yLen.size(), stream);
    const SetView xv{b.x, xo.get(), xl.get()}, yv{b.y, yo.get(), yl.get()};
    if (b.fp32) {
        softDtwGradientOnDeviceFp32(xv, yv, b.count, b.n, b.m, params, b.values, static_cast<float*>(b.gradients),
                                    xo.get(), stream);
    } else {
        Event start, stop;
        runFp64(xv, yv, b.count, b.dims, b.n, b.m, params, b.values, static_cast<double*>(b.gradients), xo.get(),
                stream, start, stop);
    }
    // The tables and work buffers are freed on return: the batch must be done with them.
    check(gpuStreamSynchronize(stream), "soft-DTW on the tensors' stream");
}

}  // namespace warplab::compute::gpu
