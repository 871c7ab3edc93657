// Shuffle kernels (see shuffle_dtw.h).
//
// Schedule. Rows are cut into segments of R rows; segment s = q*G + l belongs to lane l of
// the group, stripe q. Lane l computes column j of its segment at step t = j + l + B_q, so the
// cell above its first row (the bottom of segment s-1, lane l-1) was computed one step earlier
// and arrives by a shuffle. A segment only visits the columns [lo(s), hi(s)] that its band
// allows. Stripe q+1 starts late enough that each lane has finished its previous segment and
// that lane G-1 of stripe q wrote the boundary row before lane 0 of stripe q+1 reads it:
//   B_{q+1} = B_q + max(G, 1 + max_l (hi(qG+l) - lo((q+1)G+l))).
// For full DTW this pipelines the stripes back to back (only the first G-1 steps are a ramp).
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/gpu_runtime.h"
#include <algorithm>
#include <climits>

#include "compute/gpu/gpu_device.h"
#include "compute/gpu/shuffle_dtw.h"

namespace warplab::compute::gpu {

namespace {

constexpr int kBlock = 128;

#if WL_GPU_HIP
#define WL_ANY(p) __any(p)
#else
#define WL_ANY(p) __any_sync(0xffffffffu, (p))
#endif

template <int R, int G>
struct Schedule {
    int n, m, wlo, wup, nSeg, Q;
    __device__ int lo(int s) const { int v = s * R - wlo; return v > 0 ? v : 0; }
    __device__ int hi(int s) const {
        long v = long(s) * R + R - 1 + wup;
        return v < m - 1 ? int(v) : m - 1;
    }
    __device__ int nextB(int B, int q) const {
        int inc = G;
        for (int l = 0; l < G; ++l) {
            int s = q * G + l, s2 = s + G;
            if (s2 < nSeg) inc = max(inc, 1 + hi(s) - lo(s2));
        }
        return B + inc;
    }
    __device__ int totalSteps() const {
        int B = 0;
        for (int q = 0; q + 1 < Q; ++q) B = nextB(B, q);
        int last = 0;
        for (int l = 0; l < G; ++l) {
            int s = (Q - 1) * G + l;
            if (s < nSeg) last = max(last, hi(s) + l + 1);
        }
        return B + last;
    }
};

// One step of R cells of one lane at column j. u/d: the cells above and above-left of the
// first row (with their start columns su/sd for SUBSEQ). kLo..kHi: rows inside the band.
template <int R, bool ABS, bool SUBSEQ, bool MASK>
__device__ __forceinline__ void columnStep(float (&xr)[R], float (&prev)[R], int (&st)[R], float yj,
                                           float u, float d, int su, int sd, int kLo, int kHi) {
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const float left = prev[k];
        const float c = xr[k] - yj;
        float v;
        if constexpr (SUBSEQ) {
            // METRICS.md backtracking order on ties: diagonal, then (i-1, j), then (i, j-1).
            float mv = d;
            int ms = sd;
            if (u < mv) { mv = u; ms = su; }
            if (left < mv) { mv = left; ms = st[k]; }
            v = ABS ? fabsf(c) + mv : fmaf(c, c, mv);
            sd = st[k];
            st[k] = ms;
            su = ms;
        } else {
            const float mn = fminf(fminf(left, d), u);
            v = ABS ? fabsf(c) + mn : fmaf(c, c, mn);
        }
        if constexpr (MASK) v = (k >= kLo && k <= kHi) ? v : INFINITY;
        d = left;
        prev[k] = v;
        u = v;
    }
}

template <int R>
__device__ __forceinline__ float pick(const float (&a)[R], int k) {
    float r = a[0];
#pragma unroll
    for (int i = 1; i < R; ++i) if (i == k) r = a[i];
    return r;
}
template <int R>
__device__ __forceinline__ int pickInt(const int (&a)[R], int k) {
    int r = a[0];
#pragma unroll
    for (int i = 1; i < R; ++i) if (i == k) r = a[i];
    return r;
}

// SUBSEQ: rows are queries, cols holds the one reference; results go to costRow/startRow.
template <int R, int G, bool ABS, bool SUBSEQ>
__global__ void __launch_bounds__(kBlock) shuffleKernel(SetView rows, SetView cols, PairsView pairs, long band,
                                                        float* boundary, long boundaryStride,
                                                        float* costRow, int* startRow) {
    static_assert(G <= kWarpSize && kWarpSize % G == 0, "a group must fit in a warp");
    constexpr int GPW = kWarpSize / G;
    const int lane = threadIdx.x % G;
    const int warpGlobal = int((blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / kWarpSize);
    const int warpsTotal = int(gridDim.x * std::size_t(blockDim.x) / kWarpSize);
    const int gidx = (threadIdx.x % kWarpSize) / G;
    float* buf = boundary ? boundary + std::size_t(warpGlobal * GPW + gidx) * boundaryStride : nullptr;
    int* bufS = reinterpret_cast<int*>(buf ? buf + boundaryStride / 2 : nullptr);

    for (int base = warpGlobal * GPW; base < pairs.count; base += warpsTotal * GPW) {
        const int p = base + gidx;
        const bool real = p < pairs.count;
        const float* x = nullptr;
        const float* y = nullptr;
        Schedule<R, G> sc{0, 1, 0, 0, 0, 1};
        int r = 0, c = 0;
        if (real) {
            r = pairs.row[p];
            c = pairs.col[p];
            x = rows.values + rows.offsets[r];
            y = cols.values + cols.offsets[c];
            sc.n = rows.lengths[r];
            sc.m = cols.lengths[c];
            if (band >= 0) {
                sc.wup = int(band + (sc.m > sc.n ? sc.m - sc.n : 0));
                sc.wlo = int(band + (sc.n > sc.m ? sc.n - sc.m : 0));
            } else {
                sc.wup = sc.m;
                sc.wlo = sc.n;
            }
            sc.nSeg = (sc.n + R - 1) / R;
            sc.Q = (sc.nSeg + G - 1) / G;
        }
        const int T = real ? sc.totalSteps() : 0;
        const int sN = real ? (sc.n - 1) / R : -1;
        const int kN = real ? (sc.n - 1) - sN * R : 0;

        int q = 0, s = lane, B = 0;
        int Bn = sc.Q > 1 ? sc.nextB(0, 0) : INT_MAX;
        bool seg = real && s < sc.nSeg;
        int lo = 0, hi = -1, loA = 0, hiA = -1;
        float xr[R], prev[R];
        int st[R];
        auto enter = [&]() {
            lo = sc.lo(s);
            hi = sc.hi(s);
            if (s > 0) { loA = sc.lo(s - 1); hiA = sc.hi(s - 1); }
#pragma unroll
            for (int k = 0; k < R; ++k) {
                const int row = s * R + k;
                xr[k] = row < sc.n ? x[row] : 0.f;
                prev[k] = INFINITY;
                st[k] = 0;
            }
        };
        if (seg) enter();
        float bottom = INFINITY, rawPrev = INFINITY, upPrev = INFINITY;
        int bottomS = 0, rawPrevS = 0, upPrevS = 0;

        for (int t = 0; WL_ANY(t < T); ++t) {
            int j = t - lane - B;
            if (seg && j > hi && q + 1 < sc.Q) {
                ++q;
                s += G;
                B = Bn;
                Bn = q + 1 < sc.Q ? sc.nextB(B, q) : INT_MAX;
                seg = s < sc.nSeg;
                if (seg) enter();
                j = t - lane - B;
            }
            const float raw = WL_SHFL_UP(bottom, 1, G);
            const int rawS = SUBSEQ ? WL_SHFL_UP(bottomS, 1, G) : 0;
            const bool active = seg && t < T && j >= lo && j <= hi;
            if (active) {
                float u, d;
                int su = 0, sd = 0;
                if (lane > 0) {
                    u = j <= hiA ? raw : INFINITY;
                    d = (j - 1 >= loA && j - 1 <= hiA) ? rawPrev : INFINITY;
                    su = rawS;
                    sd = rawPrevS;
                } else if (s == 0) {
                    if (SUBSEQ) { u = 0.f; d = 0.f; su = j; sd = j; }
                    else { u = INFINITY; d = j == 0 ? 0.f : INFINITY; }
                } else {
                    // Boundary row of the stripe above, written at least one step ago.
                    u = j <= hiA ? buf[j] : INFINITY;
                    if (SUBSEQ) su = bufS[j];
                    if (j == lo) {
                        d = (j - 1 >= loA && j - 1 <= hiA) ? buf[j - 1] : INFINITY;
                        if (SUBSEQ) sd = j - 1 >= 0 ? bufS[j - 1] : 0;
                    } else {
                        d = upPrev;
                        sd = upPrevS;
                    }
                    upPrev = u;
                    upPrevS = su;
                }
                const float yj = y[j];
                const int kLo = j - s * R - sc.wup, kHi = j - s * R + sc.wlo;
                if (kLo <= 0 && kHi >= R - 1) columnStep<R, ABS, SUBSEQ, false>(xr, prev, st, yj, u, d, su, sd, kLo, kHi);
                else columnStep<R, ABS, SUBSEQ, true>(xr, prev, st, yj, u, d, su, sd, kLo, kHi);
                bottom = prev[R - 1];
                bottomS = st[R - 1];
                if (lane == G - 1 && q + 1 < sc.Q) {
                    buf[j] = bottom;
                    if (SUBSEQ) bufS[j] = bottomS;
                }
                if (s == sN) {
                    if constexpr (SUBSEQ) {
                        costRow[std::size_t(r) * sc.m + j] = pick<R>(prev, kN);
                        startRow[std::size_t(r) * sc.m + j] = pickInt<R>(st, kN);
                    } else if (j == sc.m - 1) {
                        pairs.out[std::size_t(r) * pairs.outCols + c] = double(pick<R>(prev, kN));
                    }
                }
            } else {
                bottom = INFINITY;
            }
            rawPrev = raw;
            rawPrevS = rawS;
            WL_SYNCWARP();  // orders the boundary-row stores before later loads by other lanes
        }
    }
}

int nextPow2(long v) { int p = 1; while (p < v && p < 32) p *= 2; return p; }
int prevPow2(long v) { int p = 1; while (p * 2 <= v && p < 32) p *= 2; return p; }

template <int R, bool ABS, bool SUBSEQ>
void launchR(int G, int grid, SetView rows, SetView cols, const PairsView& pairs, long band, float* boundary,
             long stride, float* costRow, int* startRow, gpuStream_t s) {
    switch (G) {
#define WL_CASE(g) case g: shuffleKernel<R, g, ABS, SUBSEQ><<<grid, kBlock, 0, s>>>(rows, cols, pairs, band, boundary, stride, costRow, startRow); break;
        WL_CASE(1) WL_CASE(2) WL_CASE(4) WL_CASE(8) WL_CASE(16) WL_CASE(32)
#undef WL_CASE
        default: throw EngineError(EngineError::Kind::Internal, "shuffle", "unsupported group width");
    }
    checkLaunch("shuffle kernel");
}

template <bool SUBSEQ>
void launchShape(ShuffleShape shape, int maxRows, int maxCols, const PackedDevice& rows, const PackedDevice& cols,
                 const PairsView& pairs, long band, bool absCost, DeviceBuffer<float>& scratch,
                 float* costRow, int* startRow, gpuStream_t s) {
    const int R = shape.rowsPerLane, G = shape.groupLanes;
    const int sms = std::max(1, multiprocessorCount());
    const int pairsPerBlock = kBlock / G;
    int grid = std::max(1, std::min((pairs.count + pairsPerBlock - 1) / pairsPerBlock, sms * 16));
    // Stripe buffers only when a query has more segments than its group has lanes.
    float* boundary = nullptr;
    long stride = 0;
    const int nSeg = (maxRows + R - 1) / R;
    if (nSeg > G) {
        stride = 2L * maxCols;
        const std::size_t groups = std::size_t(grid) * pairsPerBlock;
        scratch.resize(groups * std::size_t(stride));
        boundary = scratch.get();
    }
    auto run = [&](auto absTag) {
        constexpr bool A = decltype(absTag)::value;
        if (R == 8) launchR<8, A, SUBSEQ>(G, grid, view(rows), view(cols), pairs, band, boundary, stride, costRow, startRow, s);
        else launchR<32, A, SUBSEQ>(G, grid, view(rows), view(cols), pairs, band, boundary, stride, costRow, startRow, s);
    };
    if (absCost) run(std::true_type{});
    else run(std::false_type{});
}

}  // namespace

ShuffleShape shuffleShape(int maxRows, long bandWidth) {
    // Full or wide band: 32 rows per lane (4 instructions per cell, little per-step overhead)
    // and as many lanes as segments, up to a warp. Narrow band: 8 rows per lane and about as
    // many lanes as keep each busy for its whole period ((R + bw) / (R + 1)).
    if (bandWidth < 0 || bandWidth >= 96) {
        const int R = 32;
        return {R, nextPow2((maxRows + R - 1) / R)};
    }
    const int R = 8;
    const int g = prevPow2(std::max<long>(1, (R + bandWidth) / (R + 1)));
    return {R, std::min(g, nextPow2((maxRows + R - 1) / R))};
}

void launchShuffleDtw(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs,
                      const Params& params, DeviceBuffer<float>& scratch, gpuStream_t s) {
    if (pairs.count == 0) return;
    if (rows.dims != 1 || cols.dims != 1)
        throw EngineError(EngineError::Kind::BadInput, "dims", "the shuffle kernel takes univariate series");
    const long band = params.metric == Metric::Cdtw ? long(params.band) : -1;
    // Band width in columns of the widest row (unequal lengths widen one side).
    const long bw = band < 0 ? -1 : 2 * band + 1 + std::abs(long(rows.maxLength) - long(cols.maxLength));
    launchShape<false>(shuffleShape(rows.maxLength, bw), rows.maxLength, cols.maxLength, rows, cols, pairs, band,
                       params.cost == Cost::Absolute, scratch, nullptr, nullptr, s);
}

void launchShuffleSdtw(const PackedDevice& queries, const PackedDevice& reference, const PairsView& pairs,
                       bool absCost, float* costRow, int* startRow, DeviceBuffer<float>& scratch, gpuStream_t s) {
    if (pairs.count == 0) return;
    if (queries.dims != 1 || reference.dims != 1)
        throw EngineError(EngineError::Kind::BadInput, "dims", "the GPU subsequence search takes univariate series");
    launchShape<true>(shuffleShape(queries.maxLength, -1), queries.maxLength, reference.maxLength, queries, reference,
                      pairs, -1, absCost, scratch, costRow, startRow, s);
}

}  // namespace warplab::compute::gpu
