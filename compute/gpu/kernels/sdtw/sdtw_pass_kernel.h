// Device code of the lean subsequence-DTW pass (see sdtw_passes.h): the last DP row, cost only,
// for batches whose longest query fits one warp per stripe (stripes <= warps of a block).
// Included by sdtw_fp32.cu and sdtw_half2.cu, which instantiate it.
//
// Same layout and the same operations per cell as stripeKernel's pass (sdtw_stripes.h), so the
// values, the last row and the checkpoints are bit for bit those of stripeKernel; what changes
// is what surrounds the cells (stripeKernel spent 7.8 instructions per cell where the cells need
// 3: Nsight Compute, H100, 512 x 2000 in 100,000):
//  - the stripes hand their bottom rows down through rings in shared memory instead of device
//    memory: the reader is one shared load (broadcast) per step, not a volatile L2 round trip
//    on the critical path of every step;
//  - the steady state (every lane on a real column pair, which is all but the first and last
//    kWarpSize - 1 steps) runs in groups of kGroup steps with no per-step predicates: the ring
//    flags are checked once per group, and only the ramp and the tail pay the checks;
//  - the query rows and the difference factors are pinned in registers: nvcc rematerialised
//    them (a select, a conversion and a compare per row and step) to save registers that the
//    occupancy, bounded by the batch (512 queries of 4 stripes: 15.5 warps per SM), never used;
//  - the reference is read two columns at a time, one step ahead.
//
// Rings. Stripe w reads its top neighbours from ring[w] and writes its bottom row into
// ring[w + 1]; ring[0] holds zeros (row 0's free start). A ring keeps kRing columns; prod[w]
// counts the columns of ring[w] written, cons[w] the columns read, so a writer never overwrites
// a column not yet read (all stripes of a task are resident warps of one block: the waits end).
#pragma once
#include "compute/gpu/kernels/sdtw/sdtw_stripes.h"

namespace warplab::compute::gpu::sdtw {

constexpr int kRing = 256;  // columns per ring: a writer may run this far ahead of its reader
constexpr int kGroup = 16;  // steady-state steps per flag check
static_assert(kRing % 2 == 0 && (kRing & (kRing - 1)) == 0, "ring index by mask");
// A reader waits for its writer's lane kWarpSize-1 to be kGroup steps past it; the writer may
// be kRing/2 steps past the reader: room for both, with two groups of slack.
static_assert(kRing / 2 >= 64 + 3 * kGroup, "the ring must cover the lag between stripes");

// Keeps v in a register: nvcc cannot see through a volatile asm, so it can neither sink the
// computation of v into the loop nor rematerialise it there. HIP: plain value.
template <class V>
__device__ __forceinline__ void pinRegister(V& v) {
#if WL_GPU_CUDA && defined(__CUDA_ARCH__)
    unsigned u;
    __builtin_memcpy(&u, &v, sizeof u);
    asm volatile("" : "+r"(u));
    __builtin_memcpy(&v, &u, sizeof u);
#else
    (void)v;
#endif
}

// Threads per block of the lean pass at R rows per lane: narrow segments need more stripes
// (2,000 rows at 2 per lane are 32 warps) and few registers, wide ones the reverse.
__host__ __device__ constexpr int leanThreads(int R) { return R <= 4 ? 1024 : 256; }

// Stores a lane's R rows of a checkpoint column (16-byte stores where R allows, else 8). 8-byte
// stores for every R were tried (the 16-byte ones make ptxas keep the column in aligned register
// quads, moved back for the next step): 4.94 T instead of 4.89 T at 16 rows, but 4.83 T instead
// of 5.02 T at 32, the width chosen for the published shape (H100, session 7).
template <int R, class V>
__device__ __forceinline__ void storeRows(float* dst, const V (&v)[R]) {
    if constexpr (R % 4 == 0) {
#pragma unroll
        for (int k = 0; k < R; k += 4) *reinterpret_cast<float4*>(dst + k) = make_float4(v[k], v[k + 1], v[k + 2], v[k + 3]);
    } else {
#pragma unroll
        for (int k = 0; k < R; k += 2) *reinterpret_cast<float2*>(dst + k) = make_float2(v[k], v[k + 1]);
    }
}

// The flags of a block's rings (see "Rings" above), shared by the lean pass and the lean
// windows. Warp w reads ring[w] and writes ring[w + 1]: lane 0 reads the pair t at step t, lane
// kWarpSize-1 writes the pair t - kWarpSize + 1. Lives in shared memory, one per block.
template <int kW>
struct RingFlags {
    static constexpr int kFar = 1 << 29;  // "never waits"
    static constexpr int G = kWarpSize;
    int prod[kW + 1], cons[kW + 1];

    // Before a task of Q stripes (then a barrier): ring 0 (the zeros above row 0) is always
    // written, and the ring below the last stripe has no reader.
    __device__ void reset(int Q) {
        const int j = int(threadIdx.x);
        if (j <= kW) {
            prod[j] = j == 0 ? kFar : 0;
            cons[j] = j >= Q ? kFar : 0;
        }
    }
    // One step t of warp w (the ramp and the tail): wait for its reads and writes, then publish.
    __device__ void waitStep(int w, int Q, int t, int steps) const {
        const volatile int* p = prod;
        const volatile int* c = cons;
        if (t < steps)
            while (p[w] < 2 * t + 2) {}
        if (t >= G - 1 && t - (G - 1) < steps && w + 1 < Q)
            while (2 * (t - (G - 1)) + 2 > c[w + 1] + kRing) {}
        __threadfence_block();
    }
    __device__ void publishStep(int w, int lane, int t, int steps) {
        WL_SYNCWARP();
        if (lane == G - 1) {
            __threadfence_block();
            volatile int* p = prod;
            volatile int* c = cons;
            if (t >= G - 1) p[w + 1] = 2 * min(t - (G - 1) + 1, steps);
            c[w] = 2 * min(t + 1, steps);
        }
    }
    // The steps [tEnd - kGroup, tEnd) of warp w at once (the steady state).
    __device__ void waitGroup(int w, int Q, int tEnd) const {
        const volatile int* p = prod;
        const volatile int* c = cons;
        while (p[w] < 2 * tEnd) {}
        if (w + 1 < Q)
            while (2 * (tEnd - (G - 1)) > c[w + 1] + kRing) {}
        __threadfence_block();
    }
    __device__ void publishGroup(int w, int lane, int tEnd) {
        WL_SYNCWARP();
        if (lane == G - 1) {
            __threadfence_block();
            volatile int* p = prod;
            volatile int* c = cons;
            p[w + 1] = 2 * (tEnd - (G - 1));
            c[w] = 2 * tEnd;
        }
    }
};

template <class V>
struct alignas(2 * sizeof(V)) VPair {
    V lo, hi;
};

// The cells of one column pair: N (column jj, a temporary) and M (column jj + 1) from the
// lane's previous column pv, the two cells above its first row (u0, u1) and the diagonal dg of
// its first row. Returns N's bottom cell; M's is M[R - 1]. The steady state alternates pv and M
// between two arrays, so no register moves between steps.
template <class Op, int R, bool ABS>
__device__ __forceinline__ typename Op::V pairCells(const typename Op::V (&xr)[R], const typename Op::V (&fr)[R],
                                                  const typename Op::V (&pv)[R], typename Op::V (&M)[R],
                                                  typename Op::V y0, typename Op::V y1, typename Op::V u0,
                                                  typename Op::V u1, typename Op::V dg) {
    using V = typename Op::V;
    V N[R];
    N[0] = Op::template cell<ABS>(xr[0], fr[0], y0, Op::min3(u0, pv[0], dg));
#pragma unroll
    for (int k = 1; k < R; ++k) {
        N[k] = Op::template cell<ABS>(xr[k], fr[k], y0, Op::min3(N[k - 1], pv[k], pv[k - 1]));
        const int r = k - 1;
        M[r] = Op::template cell<ABS>(xr[r], fr[r], y1,
                                      Op::min3(r == 0 ? u1 : M[r == 0 ? 0 : r - 1], N[r], r == 0 ? u0 : N[r == 0 ? 0 : r - 1]));
    }
    M[R - 1] = Op::template cell<ABS>(xr[R - 1], fr[R - 1], y1, Op::min3(M[R - 2], N[R - 1], N[R - 2]));
    return N[R - 1];
}

template <class Op, int R, bool ABS>
__global__ void __launch_bounds__(leanThreads(R)) leanPassKernel(StripeArgs A) {
    using V = typename Op::V;
    using P = VPair<V>;
    static_assert(sizeof(V) == sizeof(float), "32-bit lanes");
    constexpr int G = kWarpSize;
    static_assert(R % 2 == 0 && kCheckpointRowAlign % R == 0, "checkpoint rows are stored in pairs");
    constexpr int kW = leanThreads(R) / G;
    constexpr int C = kCheckpointEvery;
    constexpr int kMask = kRing / 2 - 1;  // ring index of a column pair
    __shared__ P ring[kW + 1][kRing / 2];
    __shared__ RingFlags<kW> flags;
    const int w = int(threadIdx.x) / G, lane = int(threadIdx.x) % G;

    for (int ti = blockIdx.x; ti < A.taskCount; ti += gridDim.x) {
        const int n = A.queries.lengths[ti];
        const float* x = A.queries.values + A.queries.offsets[ti];
        const int width = A.last + 1, steps = (width + 1) / 2;
        const int nSeg = (n + R - 1) / R, Q = (nSeg + G - 1) / G;
        // Every lane of the Q warps holds rows: the query is shifted down so that row n-1 is the
        // last register of lane G-1 of warp Q-1 (the lanes above row 0 hold virtual rows, exact
        // zeros: row 0's free start). That lane also writes the ring below, whose pairs the
        // warp then copies into the cost row once per group, coalesced.
        const int off = Q * G * R - n;
        const int pad = (n + kCheckpointRowAlign - 1) / kCheckpointRowAlign * kCheckpointRowAlign - n;
        for (int i = threadIdx.x; i < kRing / 2; i += blockDim.x) ring[0][i] = P{Op::zero(), Op::zero()};
        flags.reset(Q);
        __syncthreads();
        if (w < Q) {
            const int s = w * G + lane;
            const int row0 = s * R - off;
            V xr[R], fr[R], pv[R];
#pragma unroll
            for (int k = 0; k < R; ++k) {
                const int row = row0 + k;
                const bool real = row >= 0 && row < n;
                xr[k] = Op::fromX(real ? x[row] : 0.f);
                fr[k] = Op::factor(row >= 0);
                pv[k] = row < 0 ? Op::zero() : Op::inf();
                pinRegister(xr[k]);
                pinRegister(fr[k]);
            }
            V dg = s == 0 ? Op::zero() : Op::inf();  // row 0's diagonal: the free start
            V bot0 = Op::inf(), bot1 = Op::inf();
            const P* in = ring[w];
            P* outRing = ring[w + 1];
            const bool lastWarp = w == Q - 1 && A.costRow;
            const bool lastSeg = lastWarp && lane == G - 1;
            float* row = A.costRow ? A.costRow + std::size_t(ti) * A.m : nullptr;
            // Checkpoints hold the real rows (row0 + pad >= 0 for any lane with one, as R divides 32).
            float* ckBase = (Op::kCheckpoints && A.ck && row0 + R > 0)
                                ? A.ck + std::size_t(ti) * A.ckCols * A.ckRows + (row0 + pad)
                                : nullptr;
            const int T = steps + G - 1;

            // One step (ramp and tail): the column pair i = t - lane (columns 2i, 2i + 1); an
            // inactive lane, before its first pair or past its last, only shuffles.
            auto step = [&](int t, V y0, V y1, bool active) {
                const int i = t - lane, jj = 2 * i;
                V u0 = shflUp<V, G>(bot0), u1 = shflUp<V, G>(bot1);
                const P top = in[t & kMask];
                if (lane == 0) {
                    u0 = top.lo;
                    u1 = top.hi;
                }
                if (!active) return;
                V M[R];
                const V n = pairCells<Op, R, ABS>(xr, fr, pv, M, y0, y1, u0, u1, dg);
                dg = u1;
#pragma unroll
                for (int k = 0; k < R; ++k) pv[k] = M[k];
                bot0 = n;
                bot1 = M[R - 1];
                if (lane == G - 1) outRing[i & kMask] = P{bot0, bot1};
                if (lastSeg) {
                    Op::writeLast(row, jj, bot0, A.last, A.h);
                    if (jj + 1 <= A.last) Op::writeLast(row, jj + 1, bot1, A.last, A.h);
                }
                if constexpr (Op::kCheckpoints) {
                    if (ckBase && ((jj + 2) & (C - 1)) == 0 && jj + 1 <= A.last) {
                        storeRows<R>(ckBase + std::size_t((jj + 2) / C - 1) * A.ckRows, M);
                    }
                }
            };
            auto loadPair = [&](int i, V& y0, V& y1) { Op::loadY2(A.y, 2 * i, y0, y1); };
            // The checked form: flags every step.
            auto checkedStep = [&](int t) {
                const int i = t - lane;
                const bool active = i >= 0 && i < steps;
                flags.waitStep(w, Q, t, steps);
                V y0 = Op::zero(), y1 = Op::zero();
                if (active) loadPair(i, y0, y1);
                step(t, y0, y1, active);
                flags.publishStep(w, lane, t, steps);
            };
            int t = 0;
            for (; t < min(G - 1, T); ++t) checkedStep(t);
            // Steady state: every lane on a real pair, none on its last (lane 0's last pair is
            // steps - 1, checked below), so no predicates but the lane roles: the pointers move
            // one pair per step, the checkpoint is a countdown, the stores are predicated.
            if (t + kGroup <= steps - 1) {
                constexpr int kHalfC = C / 2;  // pairs between checkpoints
                const int i0 = t - lane;
                using Y2 = VPair<V>;
                const Y2* yp = reinterpret_cast<const Y2*>(A.y) + i0;
                int ckLeft = (kHalfC - 1 - i0 % kHalfC);  // steps until this lane's next checkpoint
                int ckCol = i0 / kHalfC;                  // the checkpoint it stores then
                const bool ckOn = ckBase != nullptr;
                V pw[R];
                Y2 yc = yp[0];
                // One step from `from` into `to`; the pair index of the ring is tu & kMask.
                auto fast = [&](int tu, const V (&from)[R], V (&to)[R]) {
                    const Y2 yn = yp[1];
                    ++yp;
                    V u0 = shflUp<V, G>(bot0), u1 = shflUp<V, G>(bot1);
                    const P top = in[tu & kMask];
                    if (lane == 0) {
                        u0 = top.lo;
                        u1 = top.hi;
                    }
                    bot0 = pairCells<Op, R, ABS>(xr, fr, from, to, yc.lo, yc.hi, u0, u1, dg);
                    bot1 = to[R - 1];
                    dg = u1;
                    yc = yn;
                    if (lane == G - 1) outRing[(tu - (G - 1)) & kMask] = P{bot0, bot1};
                    if constexpr (Op::kCheckpoints) {
                        if (ckLeft == 0) {
                            if (ckOn) {
                                storeRows<R>(ckBase + std::size_t(ckCol) * A.ckRows, to);
                            }
                            ++ckCol;
                            ckLeft = kHalfC;
                        }
                        --ckLeft;
                    }
                };
                for (; t + kGroup <= steps - 1; t += kGroup) {
                    const int tEnd = t + kGroup;
                    flags.waitGroup(w, Q, tEnd);
#pragma unroll 1
                    for (int u = 0; u < kGroup; u += 2) {
                        fast(t + u, pv, pw);
                        fast(t + u + 1, pw, pv);
                    }
                    flags.publishGroup(w, lane, tEnd);
                    if (lastWarp && lane < 2 * kGroup) {
                        // The group's last-row pairs t-G+1 .. tEnd-G: column 2(t-G+1) + lane.
                        const int p = t - (G - 1) + lane / 2;
                        const P v = outRing[p & kMask];
                        Op::writeLast(row, 2 * p + (lane & 1), (lane & 1) ? v.hi : v.lo, A.last, A.h);
                    }
                }
            }
            for (; t < T; ++t) checkedStep(t);
        }
        __syncthreads();  // the next task resets the rings and the flags
    }
}

// Launches leanPassKernel<Op, rows, absCost> (rows 2, 4, 8, 16 or 32) for launchFp32Pass and
// launchHalf2Pass.
template <class Op>
void launchLeanPass(const StripeArgs& args, int rows, bool absCost, int grid, int threads, gpuStream_t s) {
    auto go = [&](auto kernel) { kernel<<<grid, threads, 0, s>>>(args); };
    if (rows == 32) absCost ? go(leanPassKernel<Op, 32, true>) : go(leanPassKernel<Op, 32, false>);
    else if (rows == 16) absCost ? go(leanPassKernel<Op, 16, true>) : go(leanPassKernel<Op, 16, false>);
    else if (rows == 8) absCost ? go(leanPassKernel<Op, 8, true>) : go(leanPassKernel<Op, 8, false>);
    else if (rows == 4) absCost ? go(leanPassKernel<Op, 4, true>) : go(leanPassKernel<Op, 4, false>);
    else absCost ? go(leanPassKernel<Op, 2, true>) : go(leanPassKernel<Op, 2, false>);
}

}  // namespace warplab::compute::gpu::sdtw
