// fp32 soft-DTW value and gradient batches (see softdtw_grad_fp32.h).
//
// Layout. A group of 32 lanes takes one pair; lane l owns RPL consecutive rows of a stripe of
// 32 * RPL rows (rows past n are padding: finite junk, E = 0) and computes column j at step
// t = j + l, so the cell above its first row arrives from lane l-1 by a shuffle, as in
// cuda.shuffle. Stripes run one after the other; stripe q reads the bottom row of stripe q-1
// from the stored matrix. DP values are in base-2 units (softmin_fast.h): R' = R * ig, with x
// and y pre-scaled so that the local cost comes out scaled.
//
// Forward stores every R' at [stripe][t][k][lane]: each store of a step is 32 consecutive
// floats. The backward sweeps the steps in reverse and pushes E from each cell to its three
// predecessors with the cell's own forward soft-min weights, recomputed from the stored
// predecessors (2^(lo - R'_pred) / sum, exactly the forward's numbers): the weights of a cell
// sum to 1, so the expected alignment keeps its mass. Cuturi & Blondel's form
// exp((R(i+1,j) - R(i,j) - C(i+1,j)) / gamma) cancels catastrophically in fp32 at small gamma
// (R ~ 1e3, gamma 0.01: percent errors per step, compounding along the path). E flows up a
// lane's rows in registers, across lanes by a shuffle one step later, across stripes through
// two rows of the pair's work area; d value / d x_i = sum_j E(i,j) dc/dx_i is summed per row in
// registers. E is never stored.
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/packed_series.h"
#include "compute/gpu/kernels/softdtw/softdtw_grad_fp32.h"
#include "compute/gpu/kernels/common/softmin_fast.h"

namespace warplab::compute::gpu {

namespace {

constexpr int kGroup = 32;  // lanes per pair (half a wavefront on CDNA: shuffles use width 32)
constexpr int kBlock = 128;

// Where one pair's stored matrix lives: stripe q, step t, row k of the lane, lane.
struct Layout {
    long stripeStride;  // floats per stripe: (maxM + kGroup - 1) * RPL * kGroup
    long pairStride;    // floats per pair: stripes, then the two boundary rows (2 * maxM)
    long boundary;      // offset of the boundary rows in a pair's area
};

template <int RPL>
__device__ __forceinline__ long at(int t, int k, int lane) { return (long(t) * RPL + k) * kGroup + lane; }

template <int RPL, bool ABS>
__global__ void __launch_bounds__(kBlock) softDtwForwardKernel(SetView xs, SetView ys, int first, int count,
                                                               float scale, float ig, float* work, Layout lay,
                                                               double* values) {
    const int lane = threadIdx.x % kGroup;
    const long b = (long(blockIdx.x) * blockDim.x + threadIdx.x) / kGroup;
    if (b >= count) return;  // whole groups leave together
    const int p = first + int(b);
    const float* x = xs.values + xs.offsets[p];
    const float* y = ys.values + ys.offsets[p];
    const int n = xs.lengths[p], m = ys.lengths[p];
    const int Q = (n + kGroup * RPL - 1) / (kGroup * RPL), T = m + kGroup - 1;
    const int rowN = n - 1;
    float* area = work + b * lay.pairStride;
    for (int q = 0; q < Q; ++q) {
        float* Rq = area + q * lay.stripeStride;
        const float* Ra = Rq - lay.stripeStride;  // stripe above (q > 0)
        const int row0 = (q * kGroup + lane) * RPL;
        float xr[RPL], prev[RPL];
#pragma unroll
        for (int k = 0; k < RPL; ++k) {
            xr[k] = row0 + k < n ? x[row0 + k] * scale : 0.f;
            prev[k] = INFINITY;
        }
        float bottom = INFINITY, rawPrev = INFINITY, upPrev = INFINITY;
        for (int t = 0; t < T; ++t) {
            const int j = t - lane;
            const float raw = WL_SHFL_UP(bottom, 1, kGroup);
            if (j >= 0 && j < m) {
                float u, d;
                if (lane > 0) {
                    u = raw;
                    d = rawPrev;  // lane l-1's column j-1: +inf when j = 0 (it was idle)
                } else if (q == 0) {
                    u = INFINITY;
                    d = j == 0 ? 0.f : INFINITY;  // R(-1,-1) = 0
                } else {
                    u = Ra[at<RPL>(j + kGroup - 1, RPL - 1, kGroup - 1)];
                    d = j == 0 ? INFINITY : upPrev;
                    upPrev = u;
                }
                const float yj = y[j] * scale;
#pragma unroll
                for (int k = 0; k < RPL; ++k) {
                    const float left = prev[k];
                    float lo;
                    const float lg = softminLog2(d, left, u, lo);
                    const float c = xr[k] - yj;
                    const float v = (ABS ? fabsf(c) + lo : fmaf(c, c, lo)) - lg;
                    d = left;
                    prev[k] = v;
                    u = v;
                    Rq[at<RPL>(t, k, lane)] = v;
                }
                bottom = prev[RPL - 1];
                if (j == m - 1 && rowN >= row0 && rowN < row0 + RPL) {
                    float v = prev[0];
#pragma unroll
                    for (int k = 1; k < RPL; ++k) if (row0 + k == rowN) v = prev[k];
                    values[p] = double(v) / double(ig);
                }
            } else {
                bottom = INFINITY;
            }
            rawPrev = raw;
        }
        // The next stripe's lane 0 reads this stripe's bottom row, stored by lane 31.
        __threadfence_block();
        WL_SYNCWARP();
    }
}

template <int RPL, bool ABS>
__global__ void __launch_bounds__(kBlock) softDtwBackwardKernel(SetView xs, SetView ys, int first, int count,
                                                                float scale, float gradScale, float* work,
                                                                Layout lay, float* grads, const long long* gradOffsets) {
    const int lane = threadIdx.x % kGroup;
    const long b = (long(blockIdx.x) * blockDim.x + threadIdx.x) / kGroup;
    if (b >= count) return;
    const int p = first + int(b);
    const float* x = xs.values + xs.offsets[p];
    const float* y = ys.values + ys.offsets[p];
    const int n = xs.lengths[p], m = ys.lengths[p];
    const int Q = (n + kGroup * RPL - 1) / (kGroup * RPL), T = m + kGroup - 1;
    float* area = work + b * lay.pairStride;
    // Pushes from stripe q+1's top row into stripe q's bottom row, per column: up (into (i, j))
    // and diagonal (into (i, j-1)), as the shuffles carry them between lanes.
    float* bufUp = area + lay.boundary;
    float* bufDiag = bufUp + (lay.pairStride - lay.boundary) / 2;
    float* g = grads + gradOffsets[p];
    for (int q = Q - 1; q >= 0; --q) {
        const float* Rq = area + q * lay.stripeStride;
        const float* Ra = Rq - lay.stripeStride;
        const int row0 = (q * kGroup + lane) * RPL;
        float xr[RPL], acc[RPL], gs[RPL];
#pragma unroll
        for (int k = 0; k < RPL; ++k) {
            xr[k] = row0 + k < n ? x[row0 + k] * scale : 0.f;
            // E(n-1, m-1) = 1 enters as a push into the lane's first column, m-1.
            acc[k] = row0 + k == n - 1 ? 1.f : 0.f;
            gs[k] = 0.f;
        }
        // R' of this lane's rows at column c (+inf left of the matrix).
        auto column = [&](int c, float (&dst)[RPL]) {
            if (c >= 0 && c < m) {
#pragma unroll
                for (int k = 0; k < RPL; ++k) dst[k] = Rq[at<RPL>(c + lane, k, lane)];
            } else {
#pragma unroll
                for (int k = 0; k < RPL; ++k) dst[k] = INFINITY;
            }
        };
        // R' of the row above the lane's first row at column c.
        auto above = [&](int c) -> float {
            if (c < 0 || c >= m) return c == -1 && q == 0 && lane == 0 ? 0.f : INFINITY;
            if (lane > 0) return Rq[at<RPL>(c + lane - 1, RPL - 1, lane - 1)];
            return q > 0 ? Ra[at<RPL>(c + kGroup - 1, RPL - 1, kGroup - 1)] : INFINITY;
        };
        float colA[RPL], colB[RPL], colC[RPL];
        float aboveA, aboveB, aboveC;
        const int j0 = T - 1 - lane;
        column(j0, colA);
        column(j0 - 1, colB);
        aboveA = above(j0);
        aboveB = above(j0 - 1);
        float topUp = 0.f, topDiag = 0.f;  // this lane's pushes out of its first row, last step
        // One step: cur holds column j, left column j-1; next receives column j-2 (loaded one
        // step ahead, so its latency hides behind this step's cells).
        auto step = [&](float (&cur)[RPL], float (&left)[RPL], float (&next)[RPL], float aCur, float aLeft,
                        float& aNext, int t) {
            const int j = t - lane;
            column(j - 2, next);
            aNext = above(j - 2);
            float upIn = WL_SHFL_DOWN(topUp, 1, kGroup);
            float diagIn = WL_SHFL_DOWN(topDiag, 1, kGroup);
            if (lane == kGroup - 1) {
                const bool fromBelow = q + 1 < Q && j >= 0 && j < m;
                upIn = fromBelow ? bufUp[j] : 0.f;
                diagIn = fromBelow ? bufDiag[j] : 0.f;
            }
            if (j >= 0 && j < m) {
                const float yj = y[j] * scale;
                float below = upIn, diagBelow = diagIn;
#pragma unroll
                for (int k = RPL - 1; k >= 0; --k) {
                    const float up = k > 0 ? cur[k - 1] : aCur;
                    const float dg = k > 0 ? left[k - 1] : aLeft;
                    const float lf = left[k];
                    // The forward's weights of this cell's three predecessors.
                    const float lo = fminf(fminf(up, lf), dg);
                    const float eU = fastExp2(lo - up), eL = fastExp2(lo - lf), eD = fastExp2(lo - dg);
                    const float inv = fastRcp(eU + eL + eD);
                    const float E = acc[k] + below;
                    const float Ei = E * inv;
                    below = Ei * eU;
                    acc[k] = fmaf(Ei, eL, diagBelow);
                    diagBelow = Ei * eD;
                    const float c = xr[k] - yj;
                    gs[k] = ABS ? gs[k] + (c > 0.f ? E : (c < 0.f ? -E : 0.f)) : fmaf(E, c, gs[k]);
                }
                topUp = below;
                topDiag = diagBelow;
                if (lane == 0 && q > 0) {
                    bufUp[j] = topUp;
                    bufDiag[j] = topDiag;
                }
            } else {
                topUp = topDiag = 0.f;
            }
        };
        for (int t = T - 1; t >= 0; t -= 3) {
            step(colA, colB, colC, aboveA, aboveB, aboveC, t);
            if (t - 1 >= 0) step(colB, colC, colA, aboveB, aboveC, aboveA, t - 1);
            if (t - 2 >= 0) step(colC, colA, colB, aboveC, aboveA, aboveB, t - 2);
        }
#pragma unroll
        for (int k = 0; k < RPL; ++k)
            if (row0 + k < n) g[row0 + k] = gs[k] * gradScale;
        // Stripe q-1's lane 31 reads the boundary rows this stripe's lane 0 wrote.
        __threadfence_block();
        WL_SYNCWARP();
    }
}

template <int RPL>
Layout layoutFor(int maxN, int maxM) {
    Layout l;
    const long stripes = (maxN + kGroup * RPL - 1) / (kGroup * RPL);
    l.stripeStride = long(maxM + kGroup - 1) * RPL * kGroup;
    l.boundary = stripes * l.stripeStride;
    l.pairStride = l.boundary + 2L * ((maxM + 31) / 32 * 32);
    return l;
}

template <int RPL, bool ABS>
void runBatches(const PackedDevice& xd, const PackedDevice& yd, int count, double gamma, double* values,
                float* grads, const long long* offsets, gpuStream_t s) {
    const float ig = float(1.0 / (gamma * 0.69314718055994530942));
    // Pre-scaled inputs give the scaled cost directly: (s x - s y)^2 = ig (x - y)^2 with s = sqrt(ig),
    // |s x - s y| = ig |x - y| with s = ig. d c / d x = 2 (x - y) = 2 (s x - s y) / s.
    const float scale = ABS ? ig : std::sqrt(ig);
    const float gradScale = ABS ? 1.f : 2.f / scale;
    const Layout lay = layoutFor<RPL>(xd.maxLength, yd.maxLength);
    const std::size_t perPair = std::size_t(lay.pairStride) * sizeof(float);
    const std::size_t fit = memInfo().first / 2 / perPair;
    if (fit == 0)
        throw EngineError(EngineError::Kind::Device, "gpu", "out of device memory: the fp32 soft-DTW matrix of one pair needs " +
                                                                std::to_string(perPair >> 20) + " MiB");
    const int batch = int(std::min<std::size_t>(std::size_t(count), fit));
    DeviceBuffer<float> work(std::size_t(batch) * std::size_t(lay.pairStride));
    for (int first = 0; first < count; first += batch) {
        const int c = std::min(batch, count - first);
        const int grid = int((long(c) * kGroup + kBlock - 1) / kBlock);
        softDtwForwardKernel<RPL, ABS><<<grid, kBlock, 0, s>>>(view(xd), view(yd), first, c, scale, ig, work.get(), lay, values);
        checkLaunch("soft-DTW fp32 forward kernel");
        softDtwBackwardKernel<RPL, ABS><<<grid, kBlock, 0, s>>>(view(xd), view(yd), first, c, scale, gradScale, work.get(),
                                                                 lay, grads, offsets);
        checkLaunch("soft-DTW fp32 backward kernel");
    }
}

}  // namespace

SoftDtwGradients softDtwGradientBatchFp32(const SeriesSet& x, const SeriesSet& y, const Params& params) {
    using K = EngineError::Kind;
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    validate(params);
    if (x.size() != y.size()) throw EngineError(K::BadInput, "y", "needs as many series as x");
    SoftDtwGradients out;
    if (x.empty()) return out;
    PackedHost xh = packSeries(x, 0, x.size(), "x"), yh = packSeries(y, 0, y.size(), "y");
    if (xh.dims != 1 || yh.dims != 1)
        throw EngineError(K::BadInput, "dims", "the fp32 soft-DTW gradient takes univariate series (fp64 takes channels)");
    std::vector<long long> gradOffsets(x.size());
    long long total = 0;
    for (std::size_t i = 0; i < x.size(); ++i) { gradOffsets[i] = total; total += (long long)x[i].values.size(); }

    Stream stream;
    PackedDevice xd, yd;
    xd.upload(xh, stream.get());
    yd.upload(yh, stream.get());
    DeviceBuffer<long long> offs;
    offs.upload(gradOffsets.data(), gradOffsets.size(), stream.get());
    DeviceBuffer<double> values(x.size());
    DeviceBuffer<float> grads(std::size_t(std::max<long long>(1, total)));
    const bool abs = params.cost == Cost::Absolute;
    const int count = int(x.size());
    Event start, stop;
    start.record(stream.get());
    // Rows per lane: a stripe of 32 lanes covers up to 512 rows in one pass; longer series take
    // several stripes (16 rows keep the backward's six row arrays in registers).
    auto run = [&](auto rplTag) {
        constexpr int RPL = decltype(rplTag)::value;
        if (abs) runBatches<RPL, true>(xd, yd, count, params.gamma, values.get(), grads.get(), offs.get(), stream.get());
        else runBatches<RPL, false>(xd, yd, count, params.gamma, values.get(), grads.get(), offs.get(), stream.get());
    };
    if (xh.maxLength <= 4 * kGroup) run(std::integral_constant<int, 4>{});
    else if (xh.maxLength <= 8 * kGroup) run(std::integral_constant<int, 8>{});
    else run(std::integral_constant<int, 16>{});
    stop.record(stream.get());
    out.values.resize(x.size());
    std::vector<float> g(std::size_t(std::max<long long>(1, total)));
    values.download(out.values.data(), out.values.size(), stream.get());
    grads.download(g.data(), std::size_t(total), stream.get());
    stream.sync();
    out.kernelSeconds = stop.since(start) / 1000.0;
    for (std::size_t i = 0; i < x.size(); ++i)
        out.gradients.emplace_back(g.begin() + gradOffsets[i], g.begin() + gradOffsets[i] + (long long)x[i].values.size());
    return out;
}

}  // namespace warplab::compute::gpu
