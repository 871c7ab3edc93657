// The wavefront full-DTW kernel (see shuffle_dpx.h).
//
// Schedule. Lane l of a group holds rows [l*R, l*R + R) of its pair (rows >= n are padding
// with x = 0: their cells only feed rows below them, never row n-1). A pair takes M = m / S
// steps (rounded up); its columns start at j0 = m - M*S <= 0, so the last column is always the
// last of a step, and columns j0..-1 are virtual: y = +inf there, which makes every cell +inf,
// as D(i, j < 0) is. The top lane's neighbour above is row -1: +inf, except D(-1, -1) = 0,
// which is the "up" of column -1 or, when j0 = 0, the first "diagonal".
// Lane l is one step behind lane l-1 (it receives, by shuffle, the bottom cells that lane l-1
// computed for the same columns one step earlier), and runs its pairs back to back: it starts
// at column j0 - l*S of its first pair (virtual columns, +inf) and, after the last column of a
// pair, enters the next with the left column +inf. So a warp pays the G - 1 step ramp once.
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>

#include "compute/gpu/kernels/band/band_cdtw.h"
#include "compute/gpu/kernels/common/cost_min.h"
#include "compute/gpu/kernels/common/register_at.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/kernels/shuffle/shuffle_dpx.h"
#include "compute/gpu/kernels/shuffle/shuffle_dtw.h"

namespace warplab::compute::gpu {

namespace {

namespace wave {

constexpr int kBlock = 128;
constexpr int kRows = 32;  // R: rows per lane
// WL_WAVE_STEPS / WL_WAVE_MIN_BLOCKS: compile-time knobs for A/B runs (scripts/device/run.sh ab).
#ifndef WL_WAVE_STEPS
#define WL_WAVE_STEPS 8
#endif
#ifndef WL_WAVE_MIN_BLOCKS
#define WL_WAVE_MIN_BLOCKS 4
#endif
constexpr int kSteps = WL_WAVE_STEPS;  // S: columns per step
// Registers: 2R values (x and the last column), the S chains' running cells and ~25 more fit
// in 116 at S = 8 (4 blocks of 128 per SM, no spills with nvcc 13; S = 8 with 5 blocks spills).
// hipcc turns a minimum block count into a register cap that spills.
#if WL_GPU_HIP
constexpr int kMinBlocks = 1;
#else
constexpr int kMinBlocks = WL_WAVE_MIN_BLOCKS;
#endif

template <int R, int S, int G, bool ABS, bool DPX>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    waveKernel(SetView rows, SetView cols, PairsView pairs, int n, int m) {
    static_assert(G <= kWarpSize && kWarpSize % G == 0, "a group must fit in a warp");
    constexpr int GPW = kWarpSize / G;
    const int lane = threadIdx.x % G;
    const int group = (threadIdx.x % kWarpSize) / G;
    const long warp = (long(blockIdx.x) * kBlock + threadIdx.x) / kWarpSize;
    const long groups = long(gridDim.x) * (kBlock / kWarpSize) * GPW;  // group g takes pairs g, g + groups, ...
    const long first = warp * GPW;
    if (first >= pairs.count) return;  // the whole warp: no shuffles follow for it
    // Rounds: pairs per group of this warp (the warp's last groups may have one fewer: they
    // recompute a pair without writing it).
    const long rounds = (pairs.count - first + groups - 1) / groups;
    const int M = (m + S - 1) / S;
    const int j0 = m - M * S;
    const int laneLast = (n - 1) / R, kLast = (n - 1) - laneLast * R;
    const long steps = rounds * M + (G - 1);

    long pi = first + group;
    long round = 0;
    float xr[R], A[R];  // A: this lane's rows at the last column computed
    const float* y;
    auto enter = [&]() {
        const long src = pi < pairs.count ? pi : first;
        const float* x = rows.values + rows.offsets[pairs.row[src]];
        y = cols.values + cols.offsets[pairs.col[src]];
#pragma unroll
        for (int k = 0; k < R; ++k) {
            const int row = lane * R + k;
            xr[k] = row < n ? __ldg(x + row) : 0.f;
            A[k] = INFINITY;
        }
    };
    enter();
    int jj = j0 - lane * S;  // first column of the current step
    float dPrev = lane == 0 && j0 == 0 ? 0.f : INFINITY;  // D(row above, jj - 1)
    float bot[S], yv[S];
#pragma unroll
    for (int s = 0; s < S; ++s) {
        bot[s] = INFINITY;
        const int j = jj + s;
        yv[s] = unsigned(j) < unsigned(m) ? __ldg(y + j) : INFINITY;
    }

    for (long t = 0; t < steps; ++t) {
        float u[S], d[S];
#pragma unroll
        for (int s = 0; s < S; ++s) {
            const float above = WL_SHFL_UP(bot[s], 1, G);
            u[s] = lane > 0 ? above : (jj + s == -1 ? 0.f : INFINITY);
        }
        d[0] = dPrev;
#pragma unroll
        for (int s = 1; s < S; ++s) d[s] = u[s - 1];
        dPrev = u[S - 1];
        // Column s of the step from column s-1 (A for s = 0), rows top-down; the loop order
        // (row outer) puts cell (k, s) next to (k+1, s-1): S independent chains to interleave.
        float T[S][R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
#pragma unroll
            for (int s = 0; s < S; ++s) {
                const float left = s == 0 ? A[k] : T[s - 1][k];
                const float diag = k == 0 ? d[s] : (s == 0 ? A[k - 1] : T[s - 1][k - 1]);
                const float up = k == 0 ? u[s] : T[s][k - 1];
                const float c = xr[k] - yv[s];
                const float mn = costMin3<DPX>(left, diag, up);  // left and diag first: off the up -> cell chain
                T[s][k] = ABS ? fabsf(c) + mn : fmaf(c, c, mn);
            }
        }
#pragma unroll
        for (int s = 0; s < S; ++s) bot[s] = T[s][R - 1];
#pragma unroll
        for (int k = 0; k < R; ++k) A[k] = T[S - 1][k];
        jj += S;
        if (jj >= m) {  // that step ended at column m - 1: the pair is done
            if (lane == laneLast && round < rounds && pi < pairs.count)
                pairs.out[std::size_t(pairs.row[pi]) * pairs.outCols + pairs.col[pi]] = double(registerAt<R>(A, kLast));
            ++round;
            pi += groups;
            if (round < rounds) enter();
            jj = j0;
            dPrev = lane == 0 && j0 == 0 ? 0.f : INFINITY;
#pragma unroll
            for (int k = 0; k < R; ++k) A[k] = INFINITY;
        }
#pragma unroll
        for (int s = 0; s < S; ++s) {
            const int j = jj + s;
            yv[s] = unsigned(j) < unsigned(m) ? __ldg(y + j) : INFINITY;
        }
    }
}

template <int G, bool ABS, bool DPX>
void launchG(int grid, SetView rows, SetView cols, const PairsView& pairs, int n, int m, gpuStream_t s) {
    waveKernel<kRows, kSteps, G, ABS, DPX><<<grid, kBlock, 0, s>>>(rows, cols, pairs, n, m);
}

template <int G, bool ABS, bool DPX>
int residentBlocks() {
    int blocks = 0;
#if WL_GPU_HIP
    check(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, waveKernel<kRows, kSteps, G, ABS, DPX>, kBlock, 0),
          "occupancy query");
#else
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, waveKernel<kRows, kSteps, G, ABS, DPX>, kBlock, 0),
          "occupancy query");
#endif
    return std::max(1, blocks);
}

// Persistent blocks: as many as are resident at once (each group runs its pairs back to back),
// fewer when there are not that many pairs.
template <bool ABS, bool DPX>
void launchAbsDpx(int G, SetView rows, SetView cols, const PairsView& pairs, int n, int m, int maxBlocks,
                  gpuStream_t s) {
    const int sms = std::max(1, multiprocessorCount());
    auto go = [&](auto gTag) {
        constexpr int g = decltype(gTag)::value;
        const long perBlock = long(kBlock / g);  // pairs one round of a block takes (kBlock / kWarpSize warps)
        const long wanted = (long(pairs.count) + perBlock - 1) / perBlock;
        long grid = std::min(wanted, long(sms) * residentBlocks<g, ABS, DPX>());
        if (maxBlocks > 0) grid = std::min(grid, long(maxBlocks));
        grid = std::max(1L, grid);
        launchG<g, ABS, DPX>(int(grid), rows, cols, pairs, n, m, s);
    };
    switch (G) {
        case 1: go(std::integral_constant<int, 1>{}); break;
        case 2: go(std::integral_constant<int, 2>{}); break;
        case 4: go(std::integral_constant<int, 4>{}); break;
        case 8: go(std::integral_constant<int, 8>{}); break;
        case 16: go(std::integral_constant<int, 16>{}); break;
        case 32: go(std::integral_constant<int, 32>{}); break;
        default: throw EngineError(EngineError::Kind::Internal, "wave", "unsupported group width");
    }
    checkLaunch("wave dtw kernel");
}

}  // namespace wave

// Full DTW: metric dtw, or cdtw whose band covers the whole matrix (as in launchShuffleDtw).
bool fullDtw(const PackedDevice& rows, const PackedDevice& cols, const Params& params) {
    if (params.metric == Metric::Dtw) return true;
    return params.metric == Metric::Cdtw && long(params.band) >= std::max(rows.maxLength, cols.maxLength);
}

}  // namespace

bool waveKernelApplies(const PackedDevice& rows, const PackedDevice& cols, const Params& params) {
    return fullDtw(rows, cols, params) && rows.dims == 1 && cols.dims == 1 && rows.count > 0 && cols.count > 0 &&
           rows.minLength == rows.maxLength && cols.minLength == cols.maxLength && rows.maxLength > 0 &&
           cols.maxLength > 0 && rows.maxLength <= kWaveMaxRows;
}

void launchWaveDtw(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs, const Params& params,
                   DeviceBuffer<float>& scratch, gpuStream_t s, bool dpx, int maxBlocks) {
    if (!waveKernelApplies(rows, cols, params)) {
        if (bandKernelApplies(rows, cols, params)) launchBandCdtw(rows, cols, pairs, params, s, dpx);
        else launchShuffleDtw(rows, cols, pairs, params, scratch, s);
        return;
    }
    if (pairs.count == 0) return;
    const int n = rows.maxLength, m = cols.maxLength;
    int G = 1;
    while (G * wave::kRows < n) G *= 2;
    const bool abs = params.cost == Cost::Absolute;
    if (dpx) {
        if (abs) wave::launchAbsDpx<true, true>(G, view(rows), view(cols), pairs, n, m, maxBlocks, s);
        else wave::launchAbsDpx<false, true>(G, view(rows), view(cols), pairs, n, m, maxBlocks, s);
    } else {
        if (abs) wave::launchAbsDpx<true, false>(G, view(rows), view(cols), pairs, n, m, maxBlocks, s);
        else wave::launchAbsDpx<false, false>(G, view(rows), view(cols), pairs, n, m, maxBlocks, s);
    }
}

}  // namespace warplab::compute::gpu
