// Anti-diagonal kernels (see antidiagonal.h). The DP runs over METRICS.md's padded matrix
// P(0..n, 0..m): P(0,0) = 0, the rest of row 0 and column 0 +inf, and P(i,j) is the cell
// (i-1, j-1) of the metric. That one layout serves DTW, band DTW, soft-DTW and TWED. The pair
// is oriented so that the shorter series indexes the diagonals (all these metrics are
// symmetric, the band rule too), so three diagonals of min(n,m)+1 values suffice.
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>

#include "compute/core/recurrences.h"
#include "compute/gpu/kernels/antidiagonal/antidiagonal.h"
#include "compute/gpu/runtime/gpu_device.h"

namespace warplab::compute::gpu {

namespace {

constexpr int kThreads = 256;
constexpr std::size_t kSharedLimit = 48 * 1024;

template <typename T>
__device__ T infinity() { return T(INFINITY); }

// TWED timestamp of 0-based sample i; the padding sample i = -1 has t = 0.
template <typename T>
__device__ T stamp(long i, T rate) {
    if (i < 0) return T(0);
    return rate > T(0) ? T(i) / rate : T(i);
}

// |a - b|_p where either sample may be the zero padding (nullptr); both null gives 0.
template <typename T>
__device__ T padDist(const float* a, const float* b, int dims, T p) {
    if (!a && !b) return T(0);
    if (!a) return cell::pointDistP<T>(b, static_cast<const float*>(nullptr), dims, p);
    return cell::pointDistP<T>(a, b, dims, p);
}

// One cell P(i, j), i, j >= 1, of metric M. x, y are the oriented series.
template <typename T, int M>
__device__ T cellValue(int i, int j, const float* x, const float* y, int n, int m, T up, T left,
                       T diag, const MetricArgs<T>& a) {
    const float* xi = x + long(i - 1) * a.dims;
    const float* yj = y + long(j - 1) * a.dims;
    if constexpr (M == int(Metric::Twed)) {
        const float* xp = i >= 2 ? xi - a.dims : nullptr;
        const float* yp = j >= 2 ? yj - a.dims : nullptr;
        T dx = padDist<T>(xi, xp, a.dims, a.degree);
        T dy = padDist<T>(yj, yp, a.dims, a.degree);
        T dm = padDist<T>(xi, yj, a.dims, a.degree) + padDist<T>(xp, yp, a.dims, a.degree);
        return cell::twedCombine<T>(up, left, diag, dx, dy, dm, stamp<T>(i - 1, a.rate),
                                    stamp<T>(i - 2, a.rate), stamp<T>(j - 1, a.rate),
                                    stamp<T>(j - 2, a.rate), a.nu, a.lambda);
    } else {
        if (a.band >= 0 && !cell::inBand(i - 1, j - 1, n, m, a.band)) return infinity<T>();
        T c = a.dims == 1 ? cell::localCost<T>(T(x[i - 1]), T(y[j - 1]), a.absCost)
                          : cell::localCostN<T>(xi, yj, a.dims, a.absCost);
        if constexpr (M == int(Metric::SoftDtw)) return cell::softDtwStep<T>(c, up, left, diag, a.gamma);
        else return cell::dtwStep<T>(c, up, left, diag);
    }
}

// Grid-stride over pairs; `diag` points at 3 * stride values (shared or global scratch).
template <typename T, int M>
__global__ void antidiagonalKernel(SetView rows, SetView cols, PairsView pairs, MetricArgs<T> a,
                                   T* globalDiag, int stride) {
    extern __shared__ __align__(16) unsigned char smemRaw[];
    T* buf = globalDiag ? globalDiag + std::size_t(blockIdx.x) * 3 * stride : reinterpret_cast<T*>(smemRaw);
    for (int p = blockIdx.x; p < pairs.count; p += gridDim.x) {
        const int r = pairs.row[p], c = pairs.col[p];
        const float* x = rows.values + rows.offsets[r];
        const float* y = cols.values + cols.offsets[c];
        int n = rows.lengths[r], m = cols.lengths[c];
        if (n > m) {  // orient: diagonals are indexed by the shorter series
            const float* t = x; x = y; y = t;
            int tn = n; n = m; m = tn;
        }
        for (int k = 0; k <= n + m; ++k) {
            T* cur = buf + (k % 3) * stride;
            const T* prev1 = buf + ((k + 2) % 3) * stride;  // diagonal k-1
            const T* prev2 = buf + ((k + 1) % 3) * stride;  // diagonal k-2
            const int iLo = k > m ? k - m : 0, iHi = k < n ? k : n;
            for (int i = iLo + threadIdx.x; i <= iHi; i += blockDim.x) {
                const int j = k - i;
                T v;
                if (i == 0 || j == 0) v = k == 0 ? T(0) : infinity<T>();
                else v = cellValue<T, M>(i, j, x, y, n, m, prev1[i - 1], prev1[i], prev2[i - 1], a);
                cur[i] = v;
            }
            __syncthreads();
        }
        if (threadIdx.x == 0)
            pairs.out[std::size_t(r) * pairs.outCols + c] = double(buf[((n + m) % 3) * stride + n]);
        __syncthreads();  // the next pair reuses the diagonals
    }
}

// Euclidean: one block per pair, a strided sum and a block reduction.
template <typename T>
__global__ void euclideanKernel(SetView rows, SetView cols, PairsView pairs, MetricArgs<T> a) {
    __shared__ T partial[kThreads];
    for (int p = blockIdx.x; p < pairs.count; p += gridDim.x) {
        const int r = pairs.row[p], c = pairs.col[p];
        const float* x = rows.values + rows.offsets[r];
        const float* y = cols.values + cols.offsets[c];
        const int n = rows.lengths[r];  // equal lengths were checked on the host
        T s = T(0);
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            s += cell::localCostN<T>(x + long(i) * a.dims, y + long(i) * a.dims, a.dims, a.absCost);
        partial[threadIdx.x] = s;
        __syncthreads();
        for (int w = blockDim.x / 2; w > 0; w /= 2) {
            if (threadIdx.x < w) partial[threadIdx.x] += partial[threadIdx.x + w];
            __syncthreads();
        }
        if (threadIdx.x == 0) pairs.out[std::size_t(r) * pairs.outCols + c] = double(partial[0]);
        __syncthreads();
    }
}

template <typename T, int M>
void launchDiagonal(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs,
                    const MetricArgs<T>& args, DeviceBuffer<unsigned char>& scratch, gpuStream_t s) {
    const int stride = std::min(rows.maxLength, cols.maxLength) + 1;
    const std::size_t bytes = 3 * std::size_t(stride) * sizeof(T);
    const int sms = std::max(1, multiprocessorCount());
    int grid = std::min(pairs.count, sms * 16);
    if (bytes <= kSharedLimit) {
        antidiagonalKernel<T, M><<<grid, kThreads, bytes, s>>>(view(rows), view(cols), pairs, args, nullptr, stride);
    } else {
        // Long series: the diagonals live in global memory, one set per resident block, sized
        // to what the device has free (at most a quarter of it).
        const std::size_t freeB = memInfo().first;
        const std::size_t fit = std::max<std::size_t>(1, freeB / 4 / bytes);
        grid = int(std::min<std::size_t>(std::size_t(grid), fit));
        scratch.resize(bytes * std::size_t(grid));
        antidiagonalKernel<T, M><<<grid, kThreads, 0, s>>>(view(rows), view(cols), pairs, args,
                                                           reinterpret_cast<T*>(scratch.get()), stride);
    }
    checkLaunch("antidiagonal kernel");
}

}  // namespace

template <typename T>
void launchAntidiagonal(Metric metric, const PackedDevice& rows, const PackedDevice& cols,
                        const PairsView& pairs, const MetricArgs<T>& args,
                        DeviceBuffer<unsigned char>& scratch, gpuStream_t s) {
    if (pairs.count == 0) return;
    switch (metric) {
        case Metric::Euclidean: {
            const int grid = std::min(pairs.count, std::max(1, multiprocessorCount()) * 16);
            euclideanKernel<T><<<grid, kThreads, 0, s>>>(view(rows), view(cols), pairs, args);
            checkLaunch("euclidean kernel");
            return;
        }
        case Metric::Dtw:
        case Metric::Cdtw: launchDiagonal<T, int(Metric::Dtw)>(rows, cols, pairs, args, scratch, s); return;
        case Metric::SoftDtw: launchDiagonal<T, int(Metric::SoftDtw)>(rows, cols, pairs, args, scratch, s); return;
        case Metric::Twed: launchDiagonal<T, int(Metric::Twed)>(rows, cols, pairs, args, scratch, s); return;
        case Metric::Sdtw: break;
    }
    throw EngineError(EngineError::Kind::BadParameter, "metric", "the anti-diagonal kernel does not compute sdtw");
}

template void launchAntidiagonal<float>(Metric, const PackedDevice&, const PackedDevice&, const PairsView&,
                                        const MetricArgs<float>&, DeviceBuffer<unsigned char>&, gpuStream_t);
template void launchAntidiagonal<double>(Metric, const PackedDevice&, const PackedDevice&, const PairsView&,
                                         const MetricArgs<double>&, DeviceBuffer<unsigned char>&, gpuStream_t);

}  // namespace warplab::compute::gpu
