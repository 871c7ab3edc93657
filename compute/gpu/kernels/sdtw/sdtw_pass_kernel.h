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
//    where every query's length is a multiple of the rows per lane there are no factors at all
//    (WHOLE, below: about 6 % faster);
//  - the reference is read S columns at a time (S = 2, 4 or 8 columns per step), one step ahead.
//  - S > 2: with two columns per step the warps wait on fixed-latency dependencies (Nsight
//    Compute: each lane's cells are chains of min -> fma, two of them per step, and the batch
//    gives few warps per SM). S columns per step give each lane S independent chains and spread
//    the shuffles, the ring traffic and the loads over S/2 times the cells (8 columns: about
//    18 % faster than 2 at 16 rows).
//
// Rings. Stripe w reads its top neighbours from ring[w] and writes its bottom row into
// ring[w + 1]; ring[0] holds zeros (row 0's free start). A ring keeps kRing / 2 entries (steps)
// of S columns; prod[w]
// counts the columns of ring[w] written, cons[w] the columns read, so a writer never overwrites
// a column not yet read (all stripes of a task are resident warps of one block: the waits end).
#pragma once
#include "compute/gpu/kernels/sdtw/sdtw_stripes.h"

namespace warplab::compute::gpu::sdtw {

constexpr int kRing = 256;  // twice the steps per ring: a writer may run kRing / 2 steps ahead of its reader
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
// Blocks per multiprocessor the register budget must allow: at 16 rows, two blocks of 256
// threads (<= 128 registers). ptxas chose 127 for the 8-column pass, then 132-136 once the pass
// took tasks and seeds, which left 3 instead of 4 of the published shape's 4-warp blocks per
// multiprocessor (a quarter of the throughput lost).
__host__ __device__ constexpr int leanMinBlocks(int R) { return R == 16 ? 2 : 1; }

// Stores a lane's R rows of a checkpoint column (16-byte stores where R allows, else 8). 8-byte
// stores for every R were tried (the 16-byte ones make ptxas keep the column in aligned register
// quads, moved back for the next step): 1 % faster at 16 rows but 4 % slower at 32, the width
// chosen for the published shape.
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
// start pass. Warp w reads ring[w] and writes ring[w + 1]: lane 0 reads the entry t (S columns) at
// step t, lane kWarpSize-1 writes the entry t - kWarpSize + 1. The counts are in columns; a
// ring holds kRing / 2 entries. Lives in shared memory, one per block.
template <int kW, int S = 2>
struct RingFlags {
    static constexpr int kFar = 1 << 29;  // "never waits"
    static constexpr int G = kWarpSize;
    static constexpr int kCap = S * (kRing / 2);  // columns a ring holds
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
            while (p[w] < S * t + S) {}
        if (t >= G - 1 && t - (G - 1) < steps && w + 1 < Q)
            while (S * (t - (G - 1)) + S > c[w + 1] + kCap) {}
        __threadfence_block();
    }
    __device__ void publishStep(int w, int lane, int t, int steps) {
        WL_SYNCWARP();
        if (lane == G - 1) {
            __threadfence_block();
            volatile int* p = prod;
            volatile int* c = cons;
            if (t >= G - 1) p[w + 1] = S * min(t - (G - 1) + 1, steps);
            c[w] = S * min(t + 1, steps);
        }
    }
    // The steps [tEnd - kGroup, tEnd) of warp w at once (the steady state).
    __device__ void waitGroup(int w, int Q, int tEnd) const {
        const volatile int* p = prod;
        const volatile int* c = cons;
        while (p[w] < S * tEnd) {}
        if (w + 1 < Q)
            while (S * (tEnd - (G - 1)) > c[w + 1] + kCap) {}
        __threadfence_block();
    }
    __device__ void publishGroup(int w, int lane, int tEnd) {
        WL_SYNCWARP();
        if (lane == G - 1) {
            __threadfence_block();
            volatile int* p = prod;
            volatile int* c = cons;
            p[w + 1] = S * (tEnd - (G - 1));
            c[w] = S * tEnd;
        }
    }
};

// S values of one step (a ring entry, a load of the reference), moved as 8-, 16- or 32-byte words.
template <class V, int S>
struct alignas(S * sizeof(V)) VGroup {
    V v[S];
};

template <class V, int S>
__device__ __forceinline__ VGroup<V, S> loadGroup(const VGroup<V, S>* p) {
    static_assert(sizeof(V) == 4 && (S == 2 || S == 4 || S == 8), "8-, 16- or 32-byte groups");
    VGroup<V, S> g;
    if constexpr (S == 8) {
        const uint4 a = reinterpret_cast<const uint4*>(p)[0], b = reinterpret_cast<const uint4*>(p)[1];
        __builtin_memcpy(&g, &a, sizeof a);
        __builtin_memcpy(reinterpret_cast<char*>(&g) + sizeof a, &b, sizeof b);
    } else if constexpr (S == 4) {
        const uint4 u = *reinterpret_cast<const uint4*>(p);
        __builtin_memcpy(&g, &u, sizeof g);
    } else {
        const uint2 u = *reinterpret_cast<const uint2*>(p);
        __builtin_memcpy(&g, &u, sizeof g);
    }
    return g;
}

// The cells of one step: S columns from the lane's previous column pv, the cells above its first
// row (u[c] for column c) and the diagonal dg of its first row (column -1's top). The columns are
// computed skewed (cell (k - c, c) next to (k, 0)), so a lane runs S independent min -> fma chains.
// Column S-1 goes to `to`, the bottom cell of each column to bot. The steady state alternates pv
// and `to` between two arrays, so no register moves between steps. WHOLE: every row of the lane
// is real (or the lane's rows are all virtual and its bottoms are replaced), so the cell's
// difference is x - y without the factor.
template <class Op, int R, int S, bool ABS, bool WHOLE>
__device__ __forceinline__ void stepCells(const typename Op::V (&xr)[R], const typename Op::V (&fr)[R],
                                          const typename Op::V (&pv)[R], typename Op::V (&to)[R],
                                          const typename Op::V (&y)[S], const typename Op::V (&u)[S],
                                          typename Op::V dg, typename Op::V (&bot)[S]) {
    using V = typename Op::V;
    V col[S][R];
#pragma unroll
    for (int d = 0; d < R + S - 1; ++d) {
#pragma unroll
        for (int c = 0; c < S; ++c) {
            const int k = d - c;
            if (k < 0 || k >= R) continue;
            const V up = k == 0 ? u[c] : col[c][k == 0 ? 0 : k - 1];
            const V left = c == 0 ? pv[k] : col[c == 0 ? 0 : c - 1][k];
            const V diag = k == 0 ? (c == 0 ? dg : u[c == 0 ? 0 : c - 1])
                                  : (c == 0 ? pv[k == 0 ? 0 : k - 1] : col[c == 0 ? 0 : c - 1][k == 0 ? 0 : k - 1]);
            if constexpr (WHOLE) col[c][k] = Op::template cellReal<ABS>(xr[k], y[c], Op::min3(up, left, diag));
            else col[c][k] = Op::template cell<ABS>(xr[k], fr[k], y[c], Op::min3(up, left, diag));
        }
    }
#pragma unroll
    for (int k = 0; k < R; ++k) to[k] = col[S - 1][k];
#pragma unroll
    for (int c = 0; c < S; ++c) bot[c] = col[c][R - 1];
}

// Steady-state steps per loop iteration, where nonzero, instead of Op::stepsPerIteration(R, S) (the A/B's switch).
#ifndef WL_SDTW_UNROLL
#define WL_SDTW_UNROLL 0
#endif

// WHOLE (the batch's query lengths are multiples of R): the virtual rows above row 0 fill whole
// lanes of warp 0. Their cells compute x - y like the real ones (junk, never read), and those lanes
// hand zeros down instead of their bottoms, which is all the free start needs from them: the first
// real lane's cells above and diagonal are exact zeros as before. The real cells keep their bits
// (fma(y, -1, x) == x - y), and no lane holds a register of factors per row, which makes the
// pass about 6 % faster (fp32) and 3 % (half2) than with the factors. gpu_test_sdtw checks the
// same last rows as 2 columns per step.
template <class Op, int R, int S, bool ABS, bool WHOLE = false>
__global__ void __launch_bounds__(leanThreads(R), leanMinBlocks(R)) leanPassKernel(StripeArgs A) {
    using V = typename Op::V;
    using P = VGroup<V, S>;
    static_assert(sizeof(V) == sizeof(float), "32-bit lanes");
    static_assert(S == 2 || S == 4 || S == 8, "2, 4 or 8 columns per step");
    constexpr int G = kWarpSize;
    static_assert(R % 2 == 0 && kCheckpointRowAlign % R == 0, "checkpoint rows are stored in pairs");
    static_assert(kCheckpointEvery % S == 0, "a checkpoint column ends a step");
    constexpr int kW = leanThreads(R) / G;
    constexpr int C = kCheckpointEvery;
    constexpr int kMask = kRing / 2 - 1;  // ring index of a step
    constexpr int kUnroll = WL_SDTW_UNROLL ? WL_SDTW_UNROLL : Op::stepsPerIteration(R, S);
    static_assert((kUnroll == 2 || kUnroll == 4) && kGroup % kUnroll == 0, "2 or 4 steps per iteration, whole iterations per group");
    __shared__ P ring[kW + 1][kRing / 2];
    __shared__ RingFlags<kW, S> flags;
    const int w = int(threadIdx.x) / G, lane = int(threadIdx.x) % G;

    for (int ti = blockIdx.x; ti < A.taskCount; ti += gridDim.x) {
        // A task: query q over the columns [a, e] (a multiple of kCheckpointEvery) from a +inf
        // column a - 1 (seeded tasks take stripeKernel). Its columns are counted from a below.
        // (fp32 only: the half2 pass sweeps every query whole.)
        const bool tasks = Op::kCheckpoints && A.tasks;
        const Task tk = tasks ? A.tasks[ti] : Task{ti, 0, A.last, -1};
        const int n = A.queries.lengths[tk.query];
        const float* x = A.queries.values + A.queries.offsets[tk.query];
        const int steps = (tk.e - tk.a + 1 + S - 1) / S;
        // The task's last column, read again where the ramp and the tail need it (not kept in
        // a register through the steady state).
        const auto last = [&A, ti, tasks] { return tasks ? A.tasks[ti].e - A.tasks[ti].a : A.last; };
        const int nSeg = (n + R - 1) / R, Q = (nSeg + G - 1) / G;
        // Every lane of the Q warps holds rows: the query is shifted down so that row n-1 is the
        // last register of lane G-1 of warp Q-1 (the lanes above row 0 hold virtual rows, exact
        // zeros: row 0's free start). That lane also writes the ring below, whose entries the
        // warp then copies into the cost row once per group, coalesced.
        const int off = Q * G * R - n;
        const int pad = (n + kCheckpointRowAlign - 1) / kCheckpointRowAlign * kCheckpointRowAlign - n;
        for (int i = threadIdx.x; i < kRing / 2; i += blockDim.x) {
#pragma unroll
            for (int c = 0; c < S; ++c) ring[0][i].v[c] = Op::zero();
        }
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
                pv[k] = row < 0 ? Op::zero() : Op::inf();
                pinRegister(xr[k]);
                if constexpr (!WHOLE) {
                    fr[k] = Op::factor(row >= 0);
                    pinRegister(fr[k]);
                }
            }
            V dg = s == 0 ? Op::zero() : Op::inf();  // row 0's diagonal: the free start
            V bot[S];
#pragma unroll
            for (int c = 0; c < S; ++c) bot[c] = Op::inf();
            // WHOLE: a lane of virtual rows only (warp 0 alone has them).
            const bool virtualLane = WHOLE && row0 + R <= 0;
            auto zeroVirtual = [&] {
                if constexpr (WHOLE) {
                    if (w == 0 && virtualLane) {
#pragma unroll
                        for (int c = 0; c < S; ++c) bot[c] = Op::zero();
                    }
                }
            };
            const P* in = ring[w];
            P* outRing = ring[w + 1];
            const bool lastWarp = w == Q - 1 && A.costRow;
            const bool lastSeg = lastWarp && lane == G - 1;
            const TaskOut o = taskOut(A, tk, ti);
            float* row = A.costRow ? A.costRow + o.rowAt : nullptr;
            // Checkpoints hold the real rows (row0 + pad >= 0 for any lane with one, as R divides 32).
            float* ckBase = (Op::kCheckpoints && A.ck && row0 + R > 0) ? A.ck + o.ckAt + (row0 + pad) : nullptr;
            const int T = steps + G - 1;
            // The reference from column a, S columns per entry (a is a multiple of S).
            const P* yAll = static_cast<const P*>(A.y) + tk.a / S;

            // The cells above the lane's first row for its step tu: lane l-1's bottoms of one
            // step earlier, or (lane 0) the ring entry tu. With Op::kRingByShuffle, lane G-1 (whose
            // bottoms went into the ring below at the end of the previous step, and which no lane
            // of the warp reads) loads that entry into its bottoms, and one rotated shuffle (lane
            // l reads l-1, lane 0 reads G-1) brings both: no broadcast load into every lane and no
            // select per column. The same values either way (gpu_test_sdtw).
            const int fromLane = (lane + G - 1) % G;
            auto topCells = [&](int tu, V (&u)[S]) {
                if constexpr (Op::kRingByShuffle) {
                    if (lane == G - 1) {
                        const P top = loadGroup(in + (tu & kMask));
#pragma unroll
                        for (int c = 0; c < S; ++c) bot[c] = top.v[c];
                    }
#pragma unroll
                    for (int c = 0; c < S; ++c) u[c] = shflFrom<V, G>(bot[c], fromLane);
                } else {
#pragma unroll
                    for (int c = 0; c < S; ++c) u[c] = shflUp<V, G>(bot[c]);
                    const P top = loadGroup(in + (tu & kMask));
                    if (lane == 0) {
#pragma unroll
                        for (int c = 0; c < S; ++c) u[c] = top.v[c];
                    }
                }
            };
            // One step (ramp and tail): the entry i = t - lane (columns S i .. S i + S - 1); an
            // inactive lane, before its first entry or past its last, only shuffles.
            auto step = [&](int t, const P& y, bool active) {
                const int i = t - lane, j0 = S * i;
                V u[S];
                topCells(t, u);
                if (!active) return;
                V M[R];
                stepCells<Op, R, S, ABS, WHOLE>(xr, fr, pv, M, y.v, u, dg, bot);
                zeroVirtual();
                dg = u[S - 1];
#pragma unroll
                for (int k = 0; k < R; ++k) pv[k] = M[k];
                if (lane == G - 1) {
                    P b;
#pragma unroll
                    for (int c = 0; c < S; ++c) b.v[c] = bot[c];
                    outRing[i & kMask] = b;
                }
                if (lastSeg) {
                    const int e = last();
                    Op::writeLast(row, j0, bot[0], e, A.h);
#pragma unroll
                    for (int c = 1; c < S; ++c)
                        if (j0 + c <= e) Op::writeLast(row, j0 + c, bot[c], e, A.h);
                }
                if constexpr (Op::kCheckpoints) {
                    if (ckBase && ((j0 + S) & (C - 1)) == 0 && j0 + S - 1 <= last()) {
                        storeRows<R>(ckBase + std::size_t((j0 + S) / C - 1) * A.ckRows, M);
                    }
                }
            };
            // The checked form: flags every step.
            auto checkedStep = [&](int t) {
                const int i = t - lane;
                const bool active = i >= 0 && i < steps;
                flags.waitStep(w, Q, t, steps);
                P y{};
                if (active) y = loadGroup(yAll + i);
                step(t, y, active);
                flags.publishStep(w, lane, t, steps);
            };
            int t = 0;
            for (; t < min(G - 1, T); ++t) checkedStep(t);
            // Steady state: every lane on a real entry, none on its last (lane 0's last entry is
            // steps - 1, checked below), so no predicates but the lane roles: the pointers move
            // one entry per step, the checkpoint is a countdown, the stores are predicated.
            if (t + kGroup <= steps - 1) {
                constexpr int kStepsPerCk = C / S;  // steps between checkpoints
                const int i0 = t - lane;
                const P* yp = yAll + i0;
                int ckLeft = (kStepsPerCk - 1 - i0 % kStepsPerCk);  // steps until this lane's next checkpoint
                int ckCol = i0 / kStepsPerCk;                       // the checkpoint it stores then
                const bool ckOn = ckBase != nullptr;
                V pw[R];
                P yc = loadGroup(yp);
                // One step from `from` into `to`; the ring entry of lane 0 is tu & kMask.
                auto fast = [&](int tu, const V (&from)[R], V (&to)[R]) {
                    const P yn = loadGroup(yp + 1);
                    ++yp;
                    V u[S];
                    topCells(tu, u);
                    stepCells<Op, R, S, ABS, WHOLE>(xr, fr, from, to, yc.v, u, dg, bot);
                    zeroVirtual();
                    dg = u[S - 1];
                    yc = yn;
                    if (lane == G - 1) {
                        P b;
#pragma unroll
                        for (int c = 0; c < S; ++c) b.v[c] = bot[c];
                        outRing[(tu - (G - 1)) & kMask] = b;
                    }
                    if constexpr (Op::kCheckpoints) {
                        if (ckLeft == 0) {
                            if (ckOn) {
                                storeRows<R>(ckBase + std::size_t(ckCol) * A.ckRows, to);
                            }
                            ++ckCol;
                            ckLeft = kStepsPerCk;
                        }
                        --ckLeft;
                    }
                };
                for (; t + kGroup <= steps - 1; t += kGroup) {
                    const int tEnd = t + kGroup;
                    flags.waitGroup(w, Q, tEnd);
#pragma unroll 1
                    for (int u = 0; u < kGroup; u += kUnroll) {
                        fast(t + u, pv, pw);
                        fast(t + u + 1, pw, pv);
                        if constexpr (kUnroll == 4) {
                            fast(t + u + 2, pv, pw);
                            fast(t + u + 3, pw, pv);
                        }
                    }
                    flags.publishGroup(w, lane, tEnd);
                    if (lastWarp) {
                        // The group's last-row entries t-G+1 .. tEnd-G: column S(t-G+1) + e.
#pragma unroll
                        for (int e = lane; e < S * kGroup; e += G) {
                            const int p = t - (G - 1) + e / S;
                            const P v = outRing[p & kMask];
                            Op::writeLast(row, S * p + e % S, v.v[e % S], Op::kCheckpoints ? 0 : last(), A.h);
                        }
                    }
                }
            }
            for (; t < T; ++t) checkedStep(t);
        }
        __syncthreads();  // the next task resets the rings and the flags
    }
}

// Launches leanPassKernel<Op, rows, cols, absCost> for launchFp32Pass and launchHalf2Pass: rows
// 2, 4, 8, 16 or 32 at 2 columns per step, 16 or 32 at 4 and 8 (leanColumnsSupported).
// WL_SDTW_WHOLE_LANES=0 keeps the factors for every batch (for an A/B).
#ifndef WL_SDTW_WHOLE_LANES
#define WL_SDTW_WHOLE_LANES 1
#endif
template <class Op>
void launchLeanPass(const StripeArgs& args, int rows, int cols, bool absCost, int grid, int threads, gpuStream_t s) {
    auto go = [&](auto kernel) { kernel<<<grid, threads, 0, s>>>(args); };
    // The widths the batch chooses (8 columns per step) have a form without the factors.
    if (cols == 8 && args.wholeLanes && WL_SDTW_WHOLE_LANES) {
        if (rows == 32) absCost ? go(leanPassKernel<Op, 32, 8, true, true>) : go(leanPassKernel<Op, 32, 8, false, true>);
        else absCost ? go(leanPassKernel<Op, 16, 8, true, true>) : go(leanPassKernel<Op, 16, 8, false, true>);
        return;
    }
    if (cols == 8) {
        if (rows == 32) absCost ? go(leanPassKernel<Op, 32, 8, true>) : go(leanPassKernel<Op, 32, 8, false>);
        else absCost ? go(leanPassKernel<Op, 16, 8, true>) : go(leanPassKernel<Op, 16, 8, false>);
        return;
    }
    if (cols == 4) {
        if (rows == 32) absCost ? go(leanPassKernel<Op, 32, 4, true>) : go(leanPassKernel<Op, 32, 4, false>);
        else absCost ? go(leanPassKernel<Op, 16, 4, true>) : go(leanPassKernel<Op, 16, 4, false>);
        return;
    }
    if (rows == 32) absCost ? go(leanPassKernel<Op, 32, 2, true>) : go(leanPassKernel<Op, 32, 2, false>);
    else if (rows == 16) absCost ? go(leanPassKernel<Op, 16, 2, true>) : go(leanPassKernel<Op, 16, 2, false>);
    else if (rows == 8) absCost ? go(leanPassKernel<Op, 8, 2, true>) : go(leanPassKernel<Op, 8, 2, false>);
    else if (rows == 4) absCost ? go(leanPassKernel<Op, 4, 2, true>) : go(leanPassKernel<Op, 4, 2, false>);
    else absCost ? go(leanPassKernel<Op, 2, 2, true>) : go(leanPassKernel<Op, 2, 2, false>);
}

}  // namespace warplab::compute::gpu::sdtw
