// Device code of the lean start pass of the GPU subsequence search (see sdtw_passes.h): fp32
// with the start column carried in every cell over [a, e] of each task, seeded with the exact
// column a - 1 from a checkpoint, for batches whose longest query fits one warp per stripe.
// Included by sdtw_fp32.cu, which instantiates it.
//
// The recurrence, the tie order (diagonal, up, left) and the seeding are stripeKernel's with
// TRACK (sdtw_stripes.h), so every cell's value and start are the same; the schedule is the
// lean pass's (sdtw_pass_kernel.h): rings in shared memory between the stripes, each ring pair
// carrying two costs and their two starts, a steady state without per-step predicates.
#pragma once
#include "compute/gpu/kernels/sdtw/sdtw_pass_kernel.h"

namespace warplab::compute::gpu::sdtw {

struct alignas(16) TrackedPair {
    float v0, v1;
    int s0, s1;
};

// One tracked cell: METRICS.md's minimum, and the start of the neighbour it came from
// (diagonal first, then up, then left on equal costs).
template <bool ABS>
__device__ __forceinline__ void trackedCell(float x, float y, float up, int sUp, float left, int sLeft, float diag,
                                            int sDiag, float& out, int& sOut) {
    const float mn = costMin3(up, left, diag);
    out = F32Op::cell<ABS>(x, -1.f, y, mn);
    sOut = diag == mn ? sDiag : (up == mn ? sUp : sLeft);
}

// pairCells with starts: columns jj (N, sN) and jj + 1 (M, sM) from the previous column (pv, st).
template <int R, bool ABS>
__device__ __forceinline__ void trackedPair(const float (&xr)[R], const float (&pv)[R], const int (&st)[R], float (&N)[R],
                                            int (&sN)[R], float (&M)[R], int (&sM)[R], float y0, float y1, float u0,
                                            int su0, float u1, int su1, float dg, int sdg) {
    trackedCell<ABS>(xr[0], y0, u0, su0, pv[0], st[0], dg, sdg, N[0], sN[0]);
#pragma unroll
    for (int k = 1; k < R; ++k) {
        trackedCell<ABS>(xr[k], y0, N[k - 1], sN[k - 1], pv[k], st[k], pv[k - 1], st[k - 1], N[k], sN[k]);
        const int r = k - 1;
        if (r == 0) trackedCell<ABS>(xr[0], y1, u1, su1, N[0], sN[0], u0, su0, M[0], sM[0]);
        else trackedCell<ABS>(xr[r], y1, M[r == 0 ? 0 : r - 1], sM[r == 0 ? 0 : r - 1], N[r], sN[r],
                              N[r == 0 ? 0 : r - 1], sN[r == 0 ? 0 : r - 1], M[r], sM[r]);
    }
    trackedCell<ABS>(xr[R - 1], y1, M[R - 2], sM[R - 2], N[R - 1], sN[R - 1], N[R - 2], sN[R - 2], M[R - 1], sM[R - 1]);
}

// trackedPair's values without the starts: the same operations on the same operands, so the same
// values bit for bit.
template <bool ABS>
__device__ __forceinline__ float plainCell(float x, float y, float up, float left, float diag) {
    return F32Op::cell<ABS>(x, -1.f, y, costMin3(up, left, diag));
}

template <int R, bool ABS>
__device__ __forceinline__ void plainPair(const float (&xr)[R], const float (&pv)[R], float (&N)[R], float (&M)[R],
                                          float y0, float y1, float u0, float u1, float dg) {
    N[0] = plainCell<ABS>(xr[0], y0, u0, pv[0], dg);
#pragma unroll
    for (int k = 1; k < R; ++k) {
        N[k] = plainCell<ABS>(xr[k], y0, N[k - 1], pv[k], pv[k - 1]);
        const int r = k - 1;
        if (r == 0) M[0] = plainCell<ABS>(xr[0], y1, u1, N[0], u0);
        else M[r] = plainCell<ABS>(xr[r], y1, M[r == 0 ? 0 : r - 1], N[r], N[r == 0 ? 0 : r - 1]);
    }
    M[R - 1] = plainCell<ABS>(xr[R - 1], y1, M[R - 2], N[R - 1], N[R - 2]);
}

// Costs-only columns (StripeArgs::trackExtra >= 0). A steady-state group of a warp whose columns
// all lie before the task's last n + trackExtra columns computes values only (plainPair: about
// half the instructions of trackedPair) and gives its cells the start -1, as the seed column's
// cells have. Every cell's value is unchanged, and so is every choice of predecessor (it
// depends on the values only); a start >= 0 is set only at row 0 of a tracked column (its own
// column) and handed on along predecessors, so a cell's start, where >= 0, is the start that
// tracking every column gives; where the path to the span's end passes through a costs-only
// cell it comes back -1, and recoverStarts runs that span again with every column tracked.
template <int R, bool ABS>
__global__ void __launch_bounds__(leanThreads(R)) leanStartKernel(StripeArgs A) {
    constexpr int G = kWarpSize;
    constexpr int kW = leanThreads(R) / G;  // the block leanPassFits(.., R, ..) promises
    constexpr int kMask = kRing / 2 - 1;
    __shared__ TrackedPair ring[kW + 1][kRing / 2];
    __shared__ RingFlags<kW> flags;
    const int w = int(threadIdx.x) / G, lane = int(threadIdx.x) % G;
    const float* y = static_cast<const float*>(A.y);

    for (int ti = blockIdx.x; ti < A.taskCount; ti += gridDim.x) {
        const Task tk = A.tasks[ti];
        const int n = A.queries.lengths[tk.query];
        const float* x = A.queries.values + A.queries.offsets[tk.query];
        const int a = tk.a, width = tk.e - tk.a + 1, steps = (width + 1) / 2;
        const int nSeg = (n + R - 1) / R, Q = (nSeg + G - 1) / G;
        const int pad = (n + kCheckpointRowAlign - 1) / kCheckpointRowAlign * kCheckpointRowAlign - n;
        const float* seed =
            tk.seed >= 0 ? A.ck + (std::size_t(tk.query) * A.ckCols + tk.seed) * A.ckRows + pad : nullptr;
        const int sNLane = (n - 1) / R, kN = (n - 1) - sNLane * R;  // where row n-1 lives
        flags.reset(Q);
        __syncthreads();
        if (w < Q) {
            const int s = w * G + lane;
            const int row0 = s * R;
            float xr[R], pv[R];
            int st[R];
#pragma unroll
            for (int k = 0; k < R; ++k) {
                const int row = row0 + k;
                const bool real = s < nSeg && row < n;
                xr[k] = real ? x[row] : 0.f;
                pv[k] = (seed && real) ? seed[row] : INFINITY;
                st[k] = -1;
                pinRegister(xr[k]);
            }
            float dg = (seed && s < nSeg && row0 >= 1 && row0 - 1 < n) ? seed[row0 - 1] : INFINITY;
            int sdg = -1;
            float bot0 = INFINITY, bot1 = INFINITY;
            int sb0 = 0, sb1 = 0;
            const TrackedPair* in = ring[w];
            TrackedPair* outRing = ring[w + 1];
            const int T = steps + G - 1;

            // One step from (from, sFrom) into (to, sTo), column jj into (N, sN): the pair
            // i = t - lane of the start span. False: the lane is outside its pairs (checked steps).
            auto step = [&](int t, bool checked, const float (&from)[R], const int (&sFrom)[R], float (&to)[R],
                            int (&sTo)[R], float (&N)[R], int (&sN)[R]) {
                const int i = t - lane, jj = a + 2 * i;
                float u0 = shflUp<float, G>(bot0), u1 = shflUp<float, G>(bot1);
                int su0 = WL_SHFL_UP(sb0, 1, G), su1 = WL_SHFL_UP(sb1, 1, G);
                const TrackedPair top = in[t & kMask];
                if (lane == 0) {
                    u0 = top.v0;
                    u1 = top.v1;
                    su0 = top.s0;
                    su1 = top.s1;
                }
                if (checked && !(i >= 0 && i < steps)) return false;
                const float y0 = __ldg(y + jj), y1 = __ldg(y + jj + 1);
                float d0 = dg;
                int sd0 = sdg;
                if (s == 0) {  // row 0: the free start (see stripeKernel)
                    u0 = u1 = d0 = 0.f;
                    sd0 = jj;
                    su0 = su1 = jj + 1;
                }
                trackedPair<R, ABS>(xr, from, sFrom, N, sN, to, sTo, y0, y1, u0, su0, u1, su1, d0, sd0);
                bot0 = N[R - 1];
                sb0 = sN[R - 1];
                bot1 = to[R - 1];
                sb1 = sTo[R - 1];
                dg = u1;
                sdg = su1;
                if (lane == G - 1) outRing[i & kMask] = TrackedPair{bot0, bot1, sb0, sb1};
                return true;
            };
            // step() without the starts: the cells' values, and -1 for every start handed on.
            auto plainStep = [&](int t, const float (&from)[R], float (&to)[R], float (&N)[R]) {
                const int i = t - lane, jj = a + 2 * i;
                float u0 = shflUp<float, G>(bot0), u1 = shflUp<float, G>(bot1);
                const TrackedPair top = in[t & kMask];
                if (lane == 0) {
                    u0 = top.v0;
                    u1 = top.v1;
                }
                const float y0 = __ldg(y + jj), y1 = __ldg(y + jj + 1);
                float d0 = dg;
                if (s == 0) u0 = u1 = d0 = 0.f;
                plainPair<R, ABS>(xr, from, N, to, y0, y1, u0, u1, d0);
                bot0 = N[R - 1];
                bot1 = to[R - 1];
                sb0 = sb1 = -1;
                dg = u1;
                sdg = -1;
                if (lane == G - 1) outRing[i & kMask] = TrackedPair{bot0, bot1, -1, -1};
            };
            auto checkedStep = [&](int t) {
                flags.waitStep(w, Q, t, steps);
                float N[R], M[R];
                int sN[R], sM[R];
                if (step(t, true, pv, st, M, sM, N, sN)) {
#pragma unroll
                    for (int k = 0; k < R; ++k) {
                        pv[k] = M[k];
                        st[k] = sM[k];
                    }
                    const int i2 = 2 * (t - lane);
                    if (s == sNLane && i2 + 2 >= width) {  // column e is jj (odd width) or jj + 1
                        const bool second = (width & 1) == 0;
                        float v = 0;
                        int sv = 0;
#pragma unroll
                        for (int k = 0; k < R; ++k)
                            if (k == kN) {
                                v = second ? M[k] : N[k];
                                sv = second ? sM[k] : sN[k];
                            }
                        A.outCost[ti] = v;
                        A.outStart[ti] = sv;
                    }
                }
                flags.publishStep(w, lane, t, steps);
            };
            int t = 0;
            for (; t < min(G - 1, T); ++t) checkedStep(t);
            if (t + kGroup <= steps - 1) {
                float pw[R], tN[R];
                int sw[R], tsN[R];
                // The first tracked column (trackExtra >= 0; else a: all), and whether the warp's
                // last group was costs only (its rows' starts are then -1 for the next one).
                const int tracked = A.trackExtra >= 0 ? max(a, tk.e + 1 - (n + A.trackExtra)) : a;
                bool plainBefore = false;
                for (; t + kGroup <= steps - 1; t += kGroup) {
                    const int tEnd = t + kGroup;
                    flags.waitGroup(w, Q, tEnd);
                    // Lane 0 is the warp's furthest: its last column of the group is the warp's.
                    if (a + 2 * (tEnd - 1) + 1 < tracked) {
#pragma unroll 1
                        for (int u = 0; u < kGroup; u += 2) {
                            plainStep(t + u, pv, pw, tN);
                            plainStep(t + u + 1, pw, pv, tN);
                        }
                        plainBefore = true;
                    } else {
                        if (plainBefore) {
#pragma unroll
                            for (int k = 0; k < R; ++k) st[k] = -1;
                            plainBefore = false;
                        }
#pragma unroll 1
                        for (int u = 0; u < kGroup; u += 2) {
                            step(t + u, false, pv, st, pw, sw, tN, tsN);
                            step(t + u + 1, false, pw, sw, pv, st, tN, tsN);
                        }
                    }
                    flags.publishGroup(w, lane, tEnd);
                }
                if (plainBefore) {
#pragma unroll
                    for (int k = 0; k < R; ++k) st[k] = -1;
                }
            }
            for (; t < T; ++t) checkedStep(t);
        }
        __syncthreads();
    }
}

}  // namespace warplab::compute::gpu::sdtw
