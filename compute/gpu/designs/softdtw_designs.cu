// cuTimeWarp's soft-DTW designs (see softdtw_designs.h). The DP runs over METRICS.md's padded
// matrix P(0..n, 0..m): P(0,0) = 0, the rest of row 0 and column 0 +inf, P(i,j) = R(i-1, j-1).
// The designs differ only in where P lives and who computes which cell; the cell itself is the
// same in all four (softCell), so that `bench` compares memory layouts, not arithmetic.
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "compute/core/recurrences.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/designs/softdtw_designs.h"
#include "compute/gpu/kernels/common/softmin_fast.h"

namespace warplab::compute::gpu {

namespace {

// 48 KiB of dynamic shared memory needs no opt-in on NVIDIA and fits AMD's 64 KiB LDS.
constexpr std::size_t kSharedLimit = 48 * 1024;
constexpr int kNaiveBlock = 128;

struct SoftArgs {
    int dims;
    bool absCost;
    long band;  // Sakoe-Chiba half-width; < 0 = every cell
    float ig;   // 1 / (gamma ln 2): softminLog2 works in base-2 units
    float g2;   // gamma ln 2: back to R units
};

__device__ __forceinline__ float infinity() { return INFINITY; }

// c(x_i, y_j) of METRICS.md; x, y point at sample 0 of dims-channel series.
__device__ __forceinline__ float cost(const float* x, const float* y, int i, int j, const SoftArgs& a) {
    if (a.dims == 1) return cell::localCost<float>(x[i], y[j], a.absCost);
    return cell::localCostN<float>(x + long(i) * a.dims, y + long(j) * a.dims, a.dims, a.absCost);
}

// P(i,j) from its neighbours: the stable soft-min (the smallest term's exponent is 0, so no
// term overflows, and three +inf give +inf).
__device__ __forceinline__ float softCell(float c, float diag, float up, float left, const SoftArgs& a) {
    float lo;
    const float lg = softminLog2(diag, left, up, lo, a.ig);
    return c + (lo - a.g2 * lg);
}

// One pair, oriented so that the shorter series (n <= m) indexes the cells of an anti-diagonal:
// soft-DTW and the band rule are symmetric, and diagonals of n + 1 cells are the shortest.
struct Pair {
    const float* x;
    const float* y;
    int n, m;
};

__device__ Pair orientedPair(const SetView& rows, const SetView& cols, const PairsView& pairs, int p) {
    const int r = pairs.row[p], c = pairs.col[p];
    Pair q{rows.values + rows.offsets[r], cols.values + cols.offsets[c], rows.lengths[r], cols.lengths[c]};
    if (q.n > q.m) {
        const float* t = q.x; q.x = q.y; q.y = t;
        const int tn = q.n; q.n = q.m; q.m = tn;
    }
    return q;
}

__device__ __forceinline__ double* outOf(const PairsView& pairs, int p) {
    return pairs.out + std::size_t(pairs.row[p]) * pairs.outCols + pairs.col[p];
}

// floor(v / 2) and ceil(v / 2) for negative v too (C++ division truncates toward zero).
__device__ __forceinline__ long floorHalf(long v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }
__device__ __forceinline__ long ceilHalf(long v) { return v >= 0 ? (v + 1) / 2 : -((-v) / 2); }

// The rows i of anti-diagonal k (cells P(i, k - i)) that a sweep computes. Without a band: all
// of them. With one: the cells whose R(i-1, j-1) is inside the band (j - i <= up, i - j <= dn,
// cell::inBand), plus one cell each side, written as +inf, because the band's cells of the
// next two diagonals read exactly that far out; cells beyond are never read, so they are
// never written (stale values of an earlier pair may sit there).
struct Rows {
    int lo, hi;
};

__device__ __forceinline__ Rows sweptRows(int k, int n, int m, long band) {
    Rows r{k > m ? k - m : 0, k < n ? k : n};
    if (band >= 0) {
        const long up = band + (m > n ? m - n : 0), dn = band + (n > m ? n - m : 0);
        const long lo = ceilHalf(long(k) - up) - 1, hi = floorHalf(long(k) + dn) + 1;
        if (lo > r.lo) r.lo = int(lo);
        if (hi < r.hi) r.hi = int(hi);
    }
    return r;
}

// P(i, j), i + j = k, from P(i-1, j-1) = diag, P(i-1, j) = up, P(i, j-1) = left.
__device__ __forceinline__ float padded(int i, int j, int k, const Pair& q, const float* x, const float* y,
                                        float diag, float up, float left, const SoftArgs& a) {
    if (i == 0 || j == 0) return k == 0 ? 0.f : infinity();
    if (a.band >= 0 && !cell::inBand(i - 1, j - 1, q.n, q.m, a.band)) return infinity();
    return softCell(cost(x, y, i - 1, j - 1, a), diag, up, left, a);
}

// Naive: one thread per pair (grid-stride over pairs), its own (n+1) x (m+1) P row-major in
// global memory (`perPair` floats from scratch + thread * perPair), swept row by row. Every
// access of a warp goes to another pair's matrix: nothing coalesces, which is the point of
// comparing it.
__global__ void naiveKernel(SetView rows, SetView cols, PairsView pairs, SoftArgs a, float* scratch,
                            std::size_t perPair, int threads) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    float* P = scratch + std::size_t(t) * perPair;
    for (int p = t; p < pairs.count; p += threads) {
        const int r = pairs.row[p], c = pairs.col[p];
        const float* x = rows.values + rows.offsets[r];
        const float* y = cols.values + cols.offsets[c];
        const int n = rows.lengths[r], m = cols.lengths[c];
        const std::size_t w = std::size_t(m) + 1;
        P[0] = 0.f;
        for (int j = 1; j <= m; ++j) P[j] = infinity();
        for (int i = 1; i <= n; ++i) {
            float* row = P + std::size_t(i) * w;
            const float* above = row - w;
            row[0] = infinity();
            for (int j = 1; j <= m; ++j)
                row[j] = softCell(cost(x, y, i - 1, j - 1, a), above[j - 1], above[j], row[j - 1], a);
        }
        *outOf(pairs, p) = double(P[std::size_t(n) * w + m]);
    }
}

// Diagonal: one block per pair (grid-stride), threads along anti-diagonals, the whole P of the
// pair diagonal-major in global memory: diagonal k holds rows sweptRows(k) without band, i.e.
// max(0, k-m) .. min(k, n), contiguously after diagonal k-1, so consecutive threads touch
// consecutive floats. The layout ignores the band (a banded sweep leaves cells unwritten).
__global__ void diagonalKernel(SetView rows, SetView cols, PairsView pairs, SoftArgs a, float* scratch,
                               std::size_t perPair) {
    float* P = scratch + std::size_t(blockIdx.x) * perPair;
    for (int p = blockIdx.x; p < pairs.count; p += gridDim.x) {
        const Pair q = orientedPair(rows, cols, pairs, p);
        std::size_t off = 0, off1 = 0, off2 = 0;  // first cell of diagonals k, k-1, k-2
        int lo1 = 0, lo2 = 0;                     // their first rows
        for (int k = 0; k <= q.n + q.m; ++k) {
            const Rows all = sweptRows(k, q.n, q.m, -1), swept = sweptRows(k, q.n, q.m, a.band);
            for (int i = swept.lo + int(threadIdx.x); i <= swept.hi; i += blockDim.x) {
                const int j = k - i;
                float v;
                if (i == 0 || j == 0) v = padded(i, j, k, q, q.x, q.y, 0.f, 0.f, 0.f, a);
                else v = padded(i, j, k, q, q.x, q.y, P[off2 + (i - 1 - lo2)], P[off1 + (i - 1 - lo1)],
                                P[off1 + (i - lo1)], a);
                P[off + (i - all.lo)] = v;
            }
            __syncthreads();  // diagonal k is read by the next two
            off2 = off1; lo2 = lo1;
            off1 = off; lo1 = all.lo;
            off += std::size_t(all.hi - all.lo + 1);
        }
        if (threadIdx.x == 0) *outOf(pairs, p) = double(P[off1 + (q.n - lo1)]);
        __syncthreads();  // the next pair overwrites P
    }
}

// Stencil (band < 0) and Banded: one block per pair (grid-stride), the pair's two series staged
// in shared memory and three rotating anti-diagonals of `stride` floats there (the stencil:
// each cell reads only the two diagonals before its own).
__global__ void stencilKernel(SetView rows, SetView cols, PairsView pairs, SoftArgs a, int stride,
                              int seriesFloats) {
    extern __shared__ __align__(16) float smem[];
    float* diags = smem;
    float* xs = smem + 3 * stride;
    float* ys = xs + seriesFloats;
    for (int p = blockIdx.x; p < pairs.count; p += gridDim.x) {
        const Pair q = orientedPair(rows, cols, pairs, p);
        for (int t = threadIdx.x; t < q.n * a.dims; t += blockDim.x) xs[t] = q.x[t];
        for (int t = threadIdx.x; t < q.m * a.dims; t += blockDim.x) ys[t] = q.y[t];
        __syncthreads();
        for (int k = 0; k <= q.n + q.m; ++k) {
            float* cur = diags + (k % 3) * stride;
            const float* prev1 = diags + ((k + 2) % 3) * stride;  // diagonal k-1
            const float* prev2 = diags + ((k + 1) % 3) * stride;  // diagonal k-2
            const Rows swept = sweptRows(k, q.n, q.m, a.band);
            for (int i = swept.lo + int(threadIdx.x); i <= swept.hi; i += blockDim.x) {
                const int j = k - i;
                cur[i] = (i == 0 || j == 0) ? padded(i, j, k, q, xs, ys, 0.f, 0.f, 0.f, a)
                                            : padded(i, j, k, q, xs, ys, prev2[i - 1], prev1[i - 1], prev1[i], a);
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) *outOf(pairs, p) = double(diags[((q.n + q.m) % 3) * stride + q.n]);
        __syncthreads();  // the next pair reuses the diagonals and the staged series
    }
}

// Threads of a block that sweeps diagonals of up to `cells` cells: whole wavefronts (64 covers
// NVIDIA's 32 and AMD's 64), at most 256 (longer diagonals loop).
int diagonalThreads(int cells) { return std::clamp((cells + 63) / 64 * 64, 64, 256); }

// The registry's names (gpu_kernels.cu), for messages.
#if WL_GPU_HIP
constexpr const char* kPrefix = "hip.softdtw.";
#else
constexpr const char* kPrefix = "cuda.softdtw.";
#endif

std::string designName(SoftDtwDesign d) {
    const char* names[] = {"naive", "diagonal", "stencil", "banded"};
    return std::string(kPrefix) + names[int(d)];
}

// Device memory for the global P matrices: a quarter of what is free (as the anti-diagonal
// kernel's long-series scratch), or what the scratch already holds if that is more.
std::size_t scratchBudget(const DeviceBuffer<unsigned char>& scratch) {
    return std::max(memInfo().first / 4, scratch.size());
}

// How many pairs can hold their P at once; refuses when not even one can.
std::size_t matricesThatFit(SoftDtwDesign d, const PackedDevice& rows, const PackedDevice& cols,
                            std::size_t perPairBytes, const DeviceBuffer<unsigned char>& scratch) {
    const std::size_t budget = scratchBudget(scratch);
    if (perPairBytes > budget) {
        const auto mib = [](std::size_t b) { return std::to_string((b + (1u << 20) - 1) >> 20) + " MiB"; };
        throw EngineError(EngineError::Kind::Device, "length",
                          designName(d) +
                              (d == SoftDtwDesign::Naive || d == SoftDtwDesign::Diagonal
                                   ? ""
                                   : " (too long for shared memory: run as softdtw.diagonal)") +
                              " keeps the whole soft-DTW matrix of a pair in device memory: " +
                              std::to_string(rows.maxLength) + " x " + std::to_string(cols.maxLength) + " needs " +
                              mib(perPairBytes) + ", more than the " + mib(budget) +
                              " it may use (a quarter of the free memory); " + kPrefix + "tiled keeps no matrix");
    }
    return budget / perPairBytes;
}

}  // namespace

bool softDtwStencilFits(const PackedDevice& rows, const PackedDevice& cols) {
    const std::size_t stride = std::size_t(std::min(rows.maxLength, cols.maxLength)) + 1;
    const std::size_t series = std::size_t(rows.dims) * std::size_t(std::max(rows.maxLength, cols.maxLength));
    return (3 * stride + 2 * series) * sizeof(float) <= kSharedLimit;
}

void launchSoftDtwDesign(SoftDtwDesign design, Metric metric, const PackedDevice& rows, const PackedDevice& cols,
                         const PairsView& pairs, const Params& params, DeviceBuffer<unsigned char>& scratch,
                         gpuStream_t s) {
    if (metric != Metric::SoftDtw)
        throw EngineError(EngineError::Kind::BadParameter, "metric",
                          designName(design) + " computes softdtw only, not " + std::string(metricName(metric)));
    if (pairs.count == 0) return;
    const double g2 = params.gamma * std::log(2.0);
    const SoftArgs a{rows.dims, params.cost == Cost::Absolute, design == SoftDtwDesign::Banded ? long(params.band) : -1L,
                     float(1.0 / g2), float(g2)};
    const int sms = std::max(1, multiprocessorCount());
    const int shortest = std::min(rows.maxLength, cols.maxLength);
    const std::size_t perPair = (std::size_t(rows.maxLength) + 1) * (std::size_t(cols.maxLength) + 1);

    if (design == SoftDtwDesign::Naive) {
        const std::size_t fit = matricesThatFit(design, rows, cols, perPair * sizeof(float), scratch);
        const int threads = int(std::min<std::size_t>(std::size_t(pairs.count), fit));
        scratch.resize(std::size_t(threads) * perPair * sizeof(float));
        naiveKernel<<<(threads + kNaiveBlock - 1) / kNaiveBlock, kNaiveBlock, 0, s>>>(
            view(rows), view(cols), pairs, a, reinterpret_cast<float*>(scratch.get()), perPair, threads);
        checkLaunch("soft-DTW naive kernel");
        return;
    }
    int grid = std::min(pairs.count, sms * 16);
    const bool stencil = design == SoftDtwDesign::Stencil || design == SoftDtwDesign::Banded;
    if (stencil && softDtwStencilFits(rows, cols)) {
        const int stride = shortest + 1;
        const int series = rows.dims * std::max(rows.maxLength, cols.maxLength);
        const std::size_t bytes = (3 * std::size_t(stride) + 2 * std::size_t(series)) * sizeof(float);
        stencilKernel<<<grid, diagonalThreads(stride), bytes, s>>>(view(rows), view(cols), pairs, a, stride, series);
        checkLaunch("soft-DTW stencil kernel");
        return;
    }
    // Diagonal, and the stencil designs' pairs too long for shared memory (with their band).
    const std::size_t fit = matricesThatFit(design, rows, cols, perPair * sizeof(float), scratch);
    grid = int(std::min<std::size_t>(std::size_t(grid), fit));
    scratch.resize(std::size_t(grid) * perPair * sizeof(float));
    diagonalKernel<<<grid, diagonalThreads(shortest + 1), 0, s>>>(view(rows), view(cols), pairs, a,
                                                                  reinterpret_cast<float*>(scratch.get()), perPair);
    checkLaunch("soft-DTW diagonal-major kernel");
}

}  // namespace warplab::compute::gpu
