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
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>
#include <climits>

#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/kernels/shuffle/shuffle_dtw.h"
#include "compute/gpu/kernels/common/register_at.h"
#include "compute/gpu/kernels/common/softmin_fast.h"

namespace warplab::compute::gpu {

namespace {

constexpr int kBlock = 128;

#if WL_GPU_HIP
#define WL_ANY(p) __any(p)
#define WL_ALL(p) __all(p)
#else
#define WL_ANY(p) __any_sync(0xffffffffu, (p))
#define WL_ALL(p) __all_sync(0xffffffffu, (p))
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

// Soft-DTW runs in base-2 units (softmin_fast.h): the DP holds R' = R * ig, ig = 1 / (gamma ln 2),
// the cost enters as c * ig, the result leaves as R' / ig. Three MUFU operations per cell.

// One step of R cells of P independent pairs of one lane at column j (P = 2 interleaves two
// dependency chains, which the per-cell min -> fma chain needs to keep the pipes busy).
// u/d: the cells above and above-left of the first row (start columns su/sd for SUBSEQ).
// kLo..kHi: rows inside the band (MASK only).
template <int R, int P, bool ABS, bool SUBSEQ, bool MASK, bool SOFT = false>
__device__ __forceinline__ void columnStep(float (&xr)[P][R], float (&prev)[P][R], int (&st)[P][R],
                                           const float (&yj)[P], float (&u)[P], float (&d)[P], int (&su)[P],
                                           int (&sd)[P], int kLo, int kHi, float ig = 0.f) {
    if constexpr (!SUBSEQ && !MASK && !SOFT) {
        // DTW: min(left, diag) of every row first, in place from the bottom row up (each old
        // value is read by its own row and the row below), then the min -> fma chain down the
        // rows, again in place. No value has to move between registers from one column to
        // the next, so the unrolled loop needs no copies at its back edge.
#pragma unroll
        for (int i = 0; i < P; ++i) {
#pragma unroll
            for (int k = R - 1; k >= 1; --k) prev[i][k] = fminf(prev[i][k], prev[i][k - 1]);
            prev[i][0] = fminf(prev[i][0], d[i]);
        }
#pragma unroll
        for (int k = 0; k < R; ++k) {
#pragma unroll
            for (int i = 0; i < P; ++i) {
                const float c = xr[i][k] - yj[i];
                const float mn = fminf(prev[i][k], u[i]);
                const float v = ABS ? fabsf(c) + mn : fmaf(c, c, mn);
                prev[i][k] = v;
                u[i] = v;
            }
        }
    } else {
#pragma unroll
    for (int k = 0; k < R; ++k) {
#pragma unroll
        for (int i = 0; i < P; ++i) {
            const float left = prev[i][k];
            const float c = xr[i][k] - yj[i];
            float v;
            if constexpr (SUBSEQ) {
                // METRICS.md backtracking order on ties: diagonal, then (i-1, j), then (i, j-1).
                float mv = d[i];
                int ms = sd[i];
                if (u[i] < mv) { mv = u[i]; ms = su[i]; }
                if (left < mv) { mv = left; ms = st[i][k]; }
                v = ABS ? fabsf(c) + mv : fmaf(c, c, mv);
                sd[i] = st[i][k];
                st[i][k] = ms;
                su[i] = ms;
            } else if constexpr (SOFT) {
                float lo;
                const float lg = softminLog2(d[i], left, u[i], lo);
                v = fmaf(ABS ? fabsf(c) : c * c, ig, lo) - lg;
            } else {
                const float mn = fminf(fminf(left, d[i]), u[i]);
                v = ABS ? fabsf(c) + mn : fmaf(c, c, mn);
            }
            if constexpr (MASK) v = (k >= kLo && k <= kHi) ? v : INFINITY;
            d[i] = left;
            prev[i][k] = v;
            u[i] = v;
        }
    }
    }
}

// Each group computes P pairs at once (pairs.row/col[e*P + i], i < P); with P = 2 the host
// guarantees that every pair has the same n and m, so the two share one schedule.
// SUBSEQ: rows are queries, cols holds the one reference; results go to costRow/startRow.
template <int R, int G, bool ABS, bool SUBSEQ, int P, bool SOFT>
__global__ void __launch_bounds__(kBlock, P == 2 ? 4 : 1)
    shuffleKernel(SetView rows, SetView cols, PairsView pairs, long band, float* boundary, long boundaryStride,
                  float* costRow, int* startRow, float ig) {
    static_assert(G <= kWarpSize && kWarpSize % G == 0, "a group must fit in a warp");
    constexpr int GPW = kWarpSize / G;
    const int lane = threadIdx.x % G;
    const int warpGlobal = int((blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / kWarpSize);
    const int warpsTotal = int(gridDim.x * std::size_t(blockDim.x) / kWarpSize);
    const int gidx = (threadIdx.x % kWarpSize) / G;
    // Stripe buffers: per group, per pair, boundaryStride floats (costs, then start columns).
    float* bufBase = boundary ? boundary + std::size_t(warpGlobal * GPW + gidx) * P * boundaryStride : nullptr;
    const int entries = (pairs.count + P - 1) / P;

    for (int base = warpGlobal * GPW; base < entries; base += warpsTotal * GPW) {
        const int e = base + gidx;
        const bool real = e < entries;
        const float* x[P];
        const float* y[P];
        int r[P], c[P];
        bool write[P];
        Schedule<R, G> sc{0, 1, 0, 0, 0, 1};
#pragma unroll
        for (int i = 0; i < P; ++i) {
            const int pi = e * P + i;
            write[i] = real && pi < pairs.count;
            const int src = write[i] ? pi : e * P;  // a missing second pair recomputes the first
            r[i] = real ? pairs.row[src] : 0;
            c[i] = real ? pairs.col[src] : 0;
            x[i] = real ? rows.values + rows.offsets[r[i]] : nullptr;
            y[i] = real ? cols.values + cols.offsets[c[i]] : nullptr;
        }
        if (real) {
            sc.n = rows.lengths[r[0]];
            sc.m = cols.lengths[c[0]];
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
        float xr[P][R], prev[P][R];
        int st[P][R];
        auto enter = [&]() {
            lo = sc.lo(s);
            hi = sc.hi(s);
            if (s > 0) { loA = sc.lo(s - 1); hiA = sc.hi(s - 1); }
#pragma unroll
            for (int i = 0; i < P; ++i)
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    const int row = s * R + k;
                    xr[i][k] = row < sc.n ? x[i][row] : 0.f;
                    prev[i][k] = INFINITY;
                    st[i][k] = 0;
                }
        };
        if (seg) enter();
        float bottom[P], rawPrev[P], upPrev[P];
        int bottomS[P], rawPrevS[P], upPrevS[P];
#pragma unroll
        for (int i = 0; i < P; ++i) {
            bottom[i] = rawPrev[i] = upPrev[i] = INFINITY;
            bottomS[i] = rawPrevS[i] = upPrevS[i] = 0;
        }

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
            if constexpr (!SUBSEQ) {
                // Steady state of a full-DTW stripe: every lane of every group of the warp has a
                // segment and is inside its columns, no lane reaches the last column, so the
                // per-step bookkeeping below reduces to a shuffle, one load and the cells.
                const int leanEnd = B + sc.m - 1;
                const bool want = real && band < 0 && (q + 1) * G <= sc.nSeg && t == B + G && t < leanEnd;
                if (WL_ALL(want) && WL_ALL(leanEnd == WL_SHFL(leanEnd, 0, kWarpSize))) {
                    float* bufs[P];
#pragma unroll
                    for (int i = 0; i < P; ++i) bufs[i] = bufBase ? bufBase + std::size_t(i) * boundaryStride : nullptr;
                    const bool lane0 = lane == 0, top = q == 0, writer = lane == G - 1 && q + 1 < sc.Q;
                    for (; t < leanEnd; ++t) {
                        const int jj = t - lane - B;
                        float raw[P], u[P], d[P], yj[P];
                        int su[P], sd[P];
#pragma unroll
                        for (int i = 0; i < P; ++i) {
                            raw[i] = WL_SHFL_UP(bottom[i], 1, G);
                            su[i] = sd[i] = 0;
                            u[i] = raw[i];
                            d[i] = rawPrev[i];
                            if (lane0) {
                                u[i] = top ? INFINITY : bufs[i][jj];
                                d[i] = top ? INFINITY : upPrev[i];
                                upPrev[i] = u[i];
                            }
                            yj[i] = y[i][jj];
                        }
                        columnStep<R, P, ABS, false, false, SOFT>(xr, prev, st, yj, u, d, su, sd, 0, R - 1, ig);
#pragma unroll
                        for (int i = 0; i < P; ++i) {
                            bottom[i] = prev[i][R - 1];
                            if (writer) bufs[i][jj] = bottom[i];
                            rawPrev[i] = raw[i];
                        }
                    }
                    WL_SYNCWARP();
                    j = t - lane - B;
                }
            }
            float raw[P];
            int rawS[P];
#pragma unroll
            for (int i = 0; i < P; ++i) {
                raw[i] = WL_SHFL_UP(bottom[i], 1, G);
                rawS[i] = SUBSEQ ? WL_SHFL_UP(bottomS[i], 1, G) : 0;
            }
            const bool active = seg && t < T && j >= lo && j <= hi;
            if (active) {
                float u[P], d[P], yj[P];
                int su[P], sd[P];
#pragma unroll
                for (int i = 0; i < P; ++i) {
                    su[i] = sd[i] = 0;
                    float* buf = bufBase ? bufBase + std::size_t(i) * boundaryStride : nullptr;
                    int* bufS = reinterpret_cast<int*>(buf ? buf + boundaryStride / 2 : nullptr);
                    if (lane > 0) {
                        u[i] = j <= hiA ? raw[i] : INFINITY;
                        d[i] = (j - 1 >= loA && j - 1 <= hiA) ? rawPrev[i] : INFINITY;
                        su[i] = rawS[i];
                        sd[i] = rawPrevS[i];
                    } else if (s == 0) {
                        if (SUBSEQ) { u[i] = 0.f; d[i] = 0.f; su[i] = j; sd[i] = j; }
                        else { u[i] = INFINITY; d[i] = j == 0 ? 0.f : INFINITY; }
                    } else {
                        // Boundary row of the stripe above, written at least one step ago.
                        u[i] = j <= hiA ? buf[j] : INFINITY;
                        if (SUBSEQ) su[i] = bufS[j];
                        if (j == lo) {
                            d[i] = (j - 1 >= loA && j - 1 <= hiA) ? buf[j - 1] : INFINITY;
                            if (SUBSEQ) sd[i] = j - 1 >= 0 ? bufS[j - 1] : 0;
                        } else {
                            d[i] = upPrev[i];
                            sd[i] = upPrevS[i];
                        }
                        upPrev[i] = u[i];
                        upPrevS[i] = su[i];
                    }
                    yj[i] = y[i][j];
                }
                const int kLo = j - s * R - sc.wup, kHi = j - s * R + sc.wlo;
                if (kLo <= 0 && kHi >= R - 1) columnStep<R, P, ABS, SUBSEQ, false, SOFT>(xr, prev, st, yj, u, d, su, sd, kLo, kHi, ig);
                else columnStep<R, P, ABS, SUBSEQ, true, SOFT>(xr, prev, st, yj, u, d, su, sd, kLo, kHi, ig);
#pragma unroll
                for (int i = 0; i < P; ++i) {
                    bottom[i] = prev[i][R - 1];
                    bottomS[i] = st[i][R - 1];
                    if (lane == G - 1 && q + 1 < sc.Q) {
                        float* buf = bufBase + std::size_t(i) * boundaryStride;
                        buf[j] = bottom[i];
                        if (SUBSEQ) reinterpret_cast<int*>(buf + boundaryStride / 2)[j] = bottomS[i];
                    }
                    if (s == sN && write[i]) {
                        if constexpr (SUBSEQ) {
                            costRow[std::size_t(r[i]) * sc.m + j] = registerAt<R>(prev[i], kN);
                            startRow[std::size_t(r[i]) * sc.m + j] = registerAt<R>(st[i], kN);
                        } else if (j == sc.m - 1) {
                            const double v = registerAt<R>(prev[i], kN);
                            pairs.out[std::size_t(r[i]) * pairs.outCols + c[i]] = SOFT ? v / double(ig) : v;
                        }
                    }
                }
            } else {
#pragma unroll
                for (int i = 0; i < P; ++i) bottom[i] = INFINITY;
            }
#pragma unroll
            for (int i = 0; i < P; ++i) {
                rawPrev[i] = raw[i];
                rawPrevS[i] = rawS[i];
            }
            WL_SYNCWARP();  // orders the boundary-row stores before later loads by other lanes
        }
    }
}

int nextPow2(long v) { int p = 1; while (p < v && p < 32) p *= 2; return p; }
int prevPow2(long v) { int p = 1; while (p * 2 <= v && p < 32) p *= 2; return p; }

template <int R, bool ABS, bool SUBSEQ, int P, bool SOFT = false>
void launchR(int G, int grid, SetView rows, SetView cols, const PairsView& pairs, long band, float* boundary,
             long stride, float* costRow, int* startRow, gpuStream_t s, float ig = 0.f) {
    switch (G) {
#define WL_CASE(g) case g: shuffleKernel<R, g, ABS, SUBSEQ, P, SOFT><<<grid, kBlock, 0, s>>>(rows, cols, pairs, band, boundary, stride, costRow, startRow, ig); break;
        WL_CASE(1) WL_CASE(2) WL_CASE(4) WL_CASE(8) WL_CASE(16) WL_CASE(32)
#undef WL_CASE
        default: throw EngineError(EngineError::Kind::Internal, "shuffle", "unsupported group width");
    }
    checkLaunch("shuffle kernel");
}

template <bool SUBSEQ>
void launchShape(ShuffleShape shape, bool twin, const PackedDevice& rows, const PackedDevice& cols,
                 const PairsView& pairs, long band, bool absCost, DeviceBuffer<float>& scratch,
                 float* costRow, int* startRow, gpuStream_t s, float softIg = 0.f) {
    const int R = shape.rowsPerLane, G = shape.groupLanes, P = twin ? 2 : 1;
    const int sms = std::max(1, multiprocessorCount());
    const int entriesPerBlock = kBlock / G;
    const int entries = (pairs.count + P - 1) / P;
    int grid = std::max(1, std::min((entries + entriesPerBlock - 1) / entriesPerBlock, sms * 16));
    // Stripe buffers only when a series has more segments than its group has lanes; never
    // more than a quarter of the free device memory (fewer resident groups then).
    float* boundary = nullptr;
    long stride = 0;
    const int nSeg = (rows.maxLength + R - 1) / R;
    if (nSeg > G) {
        stride = 2L * cols.maxLength;
        const std::size_t perBlock = std::size_t(entriesPerBlock) * P * std::size_t(stride) * sizeof(float);
        const std::size_t fit = std::max<std::size_t>(1, memInfo().first / 4 / perBlock);
        grid = int(std::min<std::size_t>(std::size_t(grid), fit));
        scratch.resize(std::size_t(grid) * perBlock / sizeof(float));
        boundary = scratch.get();
    }
    auto run = [&](auto absTag) {
        constexpr bool A = decltype(absTag)::value;
        if constexpr (SUBSEQ) {
            launchR<32, A, true, 1>(G, grid, view(rows), view(cols), pairs, band, boundary, stride, costRow, startRow, s);
        } else if (softIg > 0.f) {  // soft-DTW: full matrix, one pair per lane
            launchR<32, A, false, 1, true>(G, grid, view(rows), view(cols), pairs, -1, boundary, stride, costRow, startRow, s, softIg);
        } else if (twin) {
            if (R == 8) launchR<8, A, false, 2>(G, grid, view(rows), view(cols), pairs, band, boundary, stride, costRow, startRow, s);
            else launchR<16, A, false, 2>(G, grid, view(rows), view(cols), pairs, band, boundary, stride, costRow, startRow, s);
        } else {
            if (R == 8) launchR<8, A, false, 1>(G, grid, view(rows), view(cols), pairs, band, boundary, stride, costRow, startRow, s);
            else launchR<32, A, false, 1>(G, grid, view(rows), view(cols), pairs, band, boundary, stride, costRow, startRow, s);
        }
    };
    if (absCost) run(std::true_type{});
    else run(std::false_type{});
}

}  // namespace

ShuffleShape shuffleShape(int maxRows, long bandWidth, bool twin) {
    // Full DTW: 32 rows per lane (4 instructions per cell, little per-step overhead) and as
    // many lanes as segments, up to a warp. Band of bw columns: a segment visits R + bw - 1
    // columns and the next segment of the same lane starts G*(R+1) steps later, so about
    // (R + bw) / (R + 1) lanes keep every lane busy; narrow bands use R = 8 so that fewer cells
    // outside the band are visited.
    // Two pairs per lane (twin) hold twice the registers per row: 16 rows per lane then.
    const int wide = twin ? 16 : 32;
    if (bandWidth < 0) {
        const int R = wide;
        return {R, nextPow2((maxRows + R - 1) / R)};
    }
    const int R = bandWidth < 96 ? 8 : wide;
    const int g = prevPow2(std::max<long>(1, (R + bandWidth) / (R + 1)));
    return {R, std::min(g, nextPow2((maxRows + R - 1) / R))};
}

void launchShuffleDtw(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs,
                      const Params& params, DeviceBuffer<float>& scratch, gpuStream_t s) {
    if (pairs.count == 0) return;
    if (rows.dims != 1 || cols.dims != 1)
        throw EngineError(EngineError::Kind::BadInput, "dims", "the shuffle kernel takes univariate series");
    // A band as wide as the series is full DTW, which has the lean steady-state path.
    const long band = params.metric == Metric::Cdtw && long(params.band) < std::max(rows.maxLength, cols.maxLength)
                          ? long(params.band) : -1;
    // Band width in columns of the widest row (unequal lengths widen one side).
    const long bw = band < 0 ? -1 : 2 * band + 1 + std::abs(long(rows.maxLength) - long(cols.maxLength));
    // Banded: two pairs per lane when every pair has the same shape (equal-length sets), so
    // they share one schedule. Full DTW is issue-bound on its lean path: one pair per lane.
    const bool twin = band >= 0 && rows.minLength == rows.maxLength && cols.minLength == cols.maxLength &&
                      pairs.count > 1;
    if (params.metric == Metric::SoftDtw) {
        const float ig = float(1.0 / (params.gamma * 0.69314718055994530942));
        launchShape<false>(shuffleShape(rows.maxLength, -1, false), false, rows, cols, pairs, -1,
                           params.cost == Cost::Absolute, scratch, nullptr, nullptr, s, ig);
        return;
    }
    launchShape<false>(shuffleShape(rows.maxLength, bw, twin), twin, rows, cols, pairs, band,
                       params.cost == Cost::Absolute, scratch, nullptr, nullptr, s);
}

}  // namespace warplab::compute::gpu
