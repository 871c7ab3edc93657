// Device code of the subsequence-DTW stripe kernel (see sdtw_passes.h), included by
// sdtw_fp32.cu and sdtw_half2.cu, which instantiate it.
//
// Layout. A task is one query over the reference columns [a, e]. Its rows are cut into
// segments of R rows, one per lane; kWarpSize lanes form a stripe (one warp), and the stripes
// of a task run on the warps of one block, handing the stripe's bottom row down through a
// buffer in device memory with progress flags in shared memory (all warps of a block are
// resident together, so the spin-wait cannot deadlock). Lane l computes the column pair
// (a + 2(t - l), a + 2(t - l) + 1) at step t: the cells above its first row were computed by
// lane l - 1 one step earlier and arrive by two shuffles. Two columns per step give each lane
// two independent min -> fma chains (column j+1 row k-1 next to column j row k) and halve
// the per-step work (shuffles, loads, loop) per cell.
//
// Pass (TRACK = false): cost only. The rows are shifted down by off = nSeg * R - n so that the
// query's last row is register R-1 of the last lane (no per-step register pick). The off rows
// above row 0 are "virtual": their x is 0 and their difference factor 0 (c = fma(y, 0, 0)),
// so they are exactly 0 in every column, which is the free start of METRICS.md's row 0
// (D(0, j) = c + min(0, 0, left) = c). Real rows use c = fma(y, -1, x), which rounds exactly
// as x - y does. Every kCheckpointEvery columns the fp32 pass stores the whole column. A pass
// task may cover a stretch [a, e] of the reference and start from a seed column a - 1 (the
// re-sweeps of sdtw_gpu.cu's reference stretches), writing its last row and checkpoints into
// its query's row or into rows of its own (StripeArgs::perTaskOut).
//
// Start pass (TRACK = true, fp32): the same recurrence with the start column carried in every
// cell (METRICS.md tie order diag, up, left), over [a, e] with column a-1 read back from a
// checkpoint (start -1: "the path comes from left of the start span") or, at a = 0 or unseeded,
// +inf. Its cells get exactly the pass's values (same operations, min is exact), so the
// start at e is the full DP's unless it comes back as -1.
#pragma once
#include "compute/gpu/kernels/common/cost_min.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/packed_series.h"
#include "compute/gpu/kernels/sdtw/sdtw_passes.h"

namespace warplab::compute::gpu::sdtw {

constexpr int kMaxThreads = 256;

struct F32Op {
    using V = float;
    static constexpr bool kCheckpoints = true;
    // The lean pass's ring entry reaches lane 0 through the shuffle (sdtw_pass_kernel.h,
    // topCells) in half2, where it is faster; fp32 keeps the broadcast load, which is.
    static constexpr bool kRingByShuffle = false;
    // The lean pass's steady-state steps per loop iteration at R rows x S columns per step: 4 (see
    // H2Op) at 16 to 64 cells per step, where the loop overhead matters (up to 5 % faster); 2
    // elsewhere, where 4 steps lost about 1 % (at 16 x 8, the published shape, too).
    static constexpr int stepsPerIteration(int R, int S) { return R * S >= 16 && R * S <= 64 && R <= 16 ? 4 : 2; }
    __device__ static V inf() { return INFINITY; }
    __device__ static V zero() { return 0.f; }
    __device__ static V fromX(float x) { return x; }
    __device__ static V factor(bool real) { return real ? -1.f : 0.f; }
    __device__ static V loadY(const void* y, int j) { return __ldg(static_cast<const float*>(y) + j); }
    // Columns j, j + 1 (j even: one 8-byte load).
    __device__ static void loadY2(const void* y, int j, V& a, V& b) {
        const float2 v = *reinterpret_cast<const float2*>(static_cast<const float*>(y) + j);
        a = v.x;
        b = v.y;
    }
    __device__ static V min3(V a, V b, V c) { return costMin3(a, b, c); }
    template <bool ABS>
    __device__ static V cell(V x, V f, V y, V mn) {
        const float c = fmaf(y, f, x);
        return ABS ? fabsf(c) + mn : fmaf(c, c, mn);
    }
    // A real row's cell without the factor: fma(y, -1, x) is x - y rounded once, the same bits.
    template <bool ABS>
    __device__ static V cellReal(V x, V y, V mn) {
        const float c = x - y;
        return ABS ? fabsf(c) + mn : fmaf(c, c, mn);
    }
    // The last row of column j: one column of the reference.
    __device__ static void writeLast(float* row, int j, V v, int /*last*/, int /*h*/) { row[j] = v; }
};

__device__ __forceinline__ __half2 h2FromBits(unsigned u) {
    __half2 v;
    __builtin_memcpy(&v, &u, sizeof v);
    return v;
}
__device__ __forceinline__ unsigned h2Bits(__half2 v) {
    unsigned u;
    __builtin_memcpy(&u, &v, sizeof u);
    return u;
}

// Two reference segments per lane: the low half is column j of segment A = [0, L), the
// high half column h + j of segment B = [h, m) (see sdtw_half2.cu).
struct H2Op {
    using V = __half2;
    static constexpr bool kCheckpoints = false;
    static constexpr bool kRingByShuffle = true;
    // 4 steps per iteration: the loop's counter, branch and the moves that rotate its carried
    // registers come every 4 steps, not 2 (the published shape, 16 x 8, gains about 1 %; narrow
    // shapes up to 11 %). At most 128 cells per step: 8 steps of 16 x 8 overflow the instruction
    // cache (a sixth slower), and 4 steps of 32 x 8 would be as long.
    static constexpr int stepsPerIteration(int R, int S) { return R * S <= 128 ? 4 : 2; }
    __device__ static V inf() { return h2FromBits(0x7C007C00u); }
    __device__ static V zero() { return h2FromBits(0u); }
    __device__ static V fromX(float x) { return __float2half2_rn(x); }
    __device__ static V factor(bool real) { return h2FromBits(real ? 0xBC00BC00u : 0u); }  // -1 or 0
    __device__ static V loadY(const void* y, int j) { return static_cast<const __half2*>(y)[j]; }
    __device__ static void loadY2(const void* y, int j, V& a, V& b) {
        const uint2 v = *reinterpret_cast<const uint2*>(static_cast<const __half2*>(y) + j);
        a = h2FromBits(v.x);
        b = h2FromBits(v.y);
    }
    __device__ static V min3(V a, V b, V c) {
#if WL_GPU_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        // Non-negative halfs (and +inf) order as their bits do as int16: one DPX instruction.
        return h2FromBits(__vimin3_s16x2(h2Bits(a), h2Bits(b), h2Bits(c)));
#else
        // Per 16-bit half, the smaller bit pattern (the same order for non-negative halfs).
        const unsigned x = h2Bits(a), y = h2Bits(b), z = h2Bits(c);
        const unsigned lo = min(min(x & 0xFFFFu, y & 0xFFFFu), z & 0xFFFFu);
        const unsigned hi = min(min(x >> 16, y >> 16), z >> 16);
        return h2FromBits(lo | (hi << 16));
#endif
    }
    template <bool ABS>
    __device__ static V cell(V x, V f, V y, V mn) {
        const __half2 c = __hfma2(y, f, x);
        return ABS ? __hadd2(__habs2(c), mn) : __hfma2(c, c, mn);
    }
    template <bool ABS>
    __device__ static V cellReal(V x, V y, V mn) {
        const __half2 c = __hsub2(x, y);
        return ABS ? __hadd2(__habs2(c), mn) : __hfma2(c, c, mn);
    }
    // Column j of A where A alone covers it (j < L, always); column h + j of B past A's end.
    __device__ static void writeLast(float* row, int j, V v, int last, int h) {
        row[j] = __low2float(v);
        if (h + j > last) row[h + j] = __high2float(v);
    }
};

// The boundary buffer holds 32-bit values (float or __half2), read back through volatile floats.
template <class V>
__device__ __forceinline__ V fromFloatBits(float f) {
    V v;
    __builtin_memcpy(&v, &f, sizeof v);
    return v;
}

// Shuffles move 32-bit words; HIP's have no __half2 overload.
template <class V, int G>
__device__ __forceinline__ V shflUp(V v) {
    float f;
    __builtin_memcpy(&f, &v, sizeof f);
    return fromFloatBits<V>(WL_SHFL_UP(f, 1, G));
}

template <class V, int G>
__device__ __forceinline__ V shflFrom(V v, int src) {
    float f;
    __builtin_memcpy(&f, &v, sizeof f);
    return fromFloatBits<V>(WL_SHFL(f, src, G));
}

// Where pass task ti's last row and checkpoints go (offsets into costRow and ck): its query's
// row at the task's columns, or (perTaskOut) a row of the task's own from column 0.
struct TaskOut {
    std::size_t rowAt, ckAt;
};
__device__ __forceinline__ TaskOut taskOut(const StripeArgs& A, const Task& tk, int ti) {
    const int slot = A.perTaskOut ? ti : tk.query;
    const int col = A.perTaskOut ? 0 : tk.a;
    return {std::size_t(slot) * A.m + col, (std::size_t(slot) * A.ckCols + col / kCheckpointEvery) * A.ckRows};
}

// A pass task's seed column a - 1 (row i at [i]), or nullptr: +inf.
__device__ __forceinline__ const float* seedColumn(const StripeArgs& A, const Task& tk, int pad) {
    if (tk.seed < 0) return nullptr;
    const float* ck = A.seedCk ? A.seedCk : A.ck;
    const int cols = A.seedCk ? A.seedCols : A.ckCols;
    return ck + (std::size_t(tk.query) * cols + tk.seed) * A.ckRows + pad;
}

template <class Op, int R, bool ABS, bool TRACK>
__global__ void __launch_bounds__(kMaxThreads) stripeKernel(StripeArgs A) {
    using V = typename Op::V;
    static_assert(R % 4 == 0 && kCheckpointRowAlign % R == 0, "checkpoint rows are stored in float4s");
    static_assert(!TRACK || sizeof(V) == sizeof(float), "start tracking is fp32 only");
    constexpr int G = kWarpSize;
    constexpr int kFlags = kMaxThreads / G;
    constexpr int C = kCheckpointEvery;
    __shared__ long long progress[kFlags];
    const int W = int(blockDim.x) / G, w = int(threadIdx.x) / G, lane = int(threadIdx.x) % G;
    V* buf = reinterpret_cast<V*>(A.boundary + std::size_t(blockIdx.x) * A.boundaryStride);
    int* bufS = reinterpret_cast<int*>(A.boundary + std::size_t(blockIdx.x) * A.boundaryStride + A.boundaryStride / 2);

    for (int ti = blockIdx.x; ti < A.taskCount; ti += gridDim.x) {
        const Task tk = A.tasks ? A.tasks[ti] : Task{ti, 0, A.last, -1};
        const int n = A.queries.lengths[tk.query];
        const float* x = A.queries.values + A.queries.offsets[tk.query];
        const int a = tk.a, width = tk.e - tk.a + 1, steps = (width + 1) / 2;
        const int nSeg = (n + R - 1) / R, Q = (nSeg + G - 1) / G;
        const int off = TRACK ? 0 : nSeg * R - n;
        const int pad = (n + kCheckpointRowAlign - 1) / kCheckpointRowAlign * kCheckpointRowAlign - n;
        const float* seed = TRACK ? (tk.seed >= 0 ? A.ck + (std::size_t(tk.query) * A.ckCols + tk.seed) * A.ckRows + pad
                                                  : nullptr)
                                  : seedColumn(A, tk, pad);
        [[maybe_unused]] const TaskOut o = taskOut(A, tk, ti);
        const int sN = (n - 1) / R, kN = (n - 1) - sN * R;  // TRACK: where row n-1 lives
        const long long P = width + 2;
        if (int(threadIdx.x) < kFlags) progress[threadIdx.x] = 0;
        __syncthreads();
        for (int qs = w; qs < Q; qs += W) {
            const int s = qs * G + lane;
            const bool seg = s < nSeg;
            const int row0 = s * R - off;
            V xr[R], fr[R], pv[R];
            int st[R];
#pragma unroll
            for (int k = 0; k < R; ++k) {
                const int row = row0 + k;
                const bool real = row >= 0 && row < n;
                xr[k] = Op::fromX(seg && real ? x[row] : 0.f);
                fr[k] = Op::factor(TRACK || row >= 0);
                if constexpr (TRACK) {
                    pv[k] = (seed && seg && real) ? seed[row] : Op::inf();
                    st[k] = -1;
                } else {
                    pv[k] = row < 0 ? Op::zero() : ((seed && seg) ? Op::fromX(seed[row]) : Op::inf());
                }
            }
            // The diagonal neighbour of the lane's first row for its next column.
            V dg = Op::inf();
            if (seed && seg && row0 >= 1 && row0 - 1 < n) dg = Op::fromX(seed[row0 - 1]);
            int sdg = -1;
            V bot0 = Op::inf(), bot1 = Op::inf();
            int sb0 = 0, sb1 = 0;
            volatile long long* prodFlag = progress + (qs + W - 1) % W;
            const long long base = (long long)(qs - 1) * P;
            long long avail = 0;
            const bool writer = lane == G - 1 && qs + 1 < Q;
            const int T = steps + G - 1;
            for (int t = 0; t < T; ++t) {
                const int i2 = 2 * (t - lane);
                V u0 = shflUp<V, G>(bot0), u1 = shflUp<V, G>(bot1);
                int su0 = 0, su1 = 0;
                if constexpr (TRACK) {
                    su0 = WL_SHFL_UP(sb0, 1, G);
                    su1 = WL_SHFL_UP(sb1, 1, G);
                }
                if (!seg || i2 < 0 || i2 >= 2 * steps) continue;
                const int jj = a + i2;
                const V y0 = Op::loadY(A.y, jj), y1 = Op::loadY(A.y, jj + 1);
                V d0 = dg;
                int sd0 = sdg;
                if (lane == 0) {
                    if (s == 0) {
                        // Row 0 (or the first virtual row): free start, D(0, j) = c. The start of
                        // column jj+1's row 0 comes through its diagonal (u0), hence jj + 1 there.
                        u0 = u1 = d0 = Op::zero();
                        sd0 = jj;
                        su0 = su1 = jj + 1;
                    } else {
                        if (avail < i2 + 2) {  // wait for the stripe above to have written these columns
                            long long seen;
                            while ((seen = *prodFlag - base) < i2 + 2) {}
                            avail = seen;
                            __threadfence_block();
                        }
                        const volatile float* vb = reinterpret_cast<const volatile float*>(buf);
                        u0 = fromFloatBits<V>(vb[i2]);
                        u1 = fromFloatBits<V>(vb[i2 + 1]);
                        if constexpr (TRACK) {
                            const volatile int* vs = bufS;
                            su0 = vs[i2];
                            su1 = vs[i2 + 1];
                        }
                    }
                }
                V N[R], M[R];
                int sNv[R], sMv[R];
                // One cell: up / left / diag neighbours with their starts.
                auto cell = [&](int k, V y, V up, int sup, V left, int sleft, V diag, int sdiag, V& out, int& sOut) {
                    const V mn = Op::min3(up, left, diag);
                    out = Op::template cell<ABS>(xr[k], fr[k], y, mn);
                    if constexpr (TRACK) sOut = diag == mn ? sdiag : (up == mn ? sup : sleft);
                };
                int dummy = 0;
                cell(0, y0, u0, su0, pv[0], TRACK ? st[0] : 0, d0, sd0, N[0], TRACK ? sNv[0] : dummy);
#pragma unroll
                for (int k = 1; k < R; ++k) {
                    cell(k, y0, N[k - 1], TRACK ? sNv[k - 1] : 0, pv[k], TRACK ? st[k] : 0, pv[k - 1],
                         TRACK ? st[k - 1] : 0, N[k], TRACK ? sNv[k] : dummy);
                    const int r = k - 1;
                    cell(r, y1, r == 0 ? u1 : M[r == 0 ? 0 : r - 1], r == 0 ? su1 : (TRACK ? sMv[r == 0 ? 0 : r - 1] : 0),
                         N[r], TRACK ? sNv[r] : 0, r == 0 ? u0 : N[r == 0 ? 0 : r - 1],
                         r == 0 ? su0 : (TRACK ? sNv[r == 0 ? 0 : r - 1] : 0), M[r], TRACK ? sMv[r] : dummy);
                }
                cell(R - 1, y1, M[R - 2], TRACK ? sMv[R - 2] : 0, N[R - 1], TRACK ? sNv[R - 1] : 0, N[R - 2],
                     TRACK ? sNv[R - 2] : 0, M[R - 1], TRACK ? sMv[R - 1] : dummy);
                (void)dummy;
                dg = u1;
                sdg = su1;
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    pv[k] = M[k];
                    if constexpr (TRACK) st[k] = sMv[k];
                }
                bot0 = N[R - 1];
                bot1 = M[R - 1];
                if constexpr (TRACK) {
                    sb0 = sNv[R - 1];
                    sb1 = sMv[R - 1];
                }
                if (writer) {
                    buf[i2] = bot0;
                    buf[i2 + 1] = bot1;
                    if constexpr (TRACK) {
                        bufS[i2] = sb0;
                        bufS[i2 + 1] = sb1;
                    }
                    if ((t & 15) == 0 || i2 + 2 >= 2 * steps) {  // publish every 16 steps and at the end
                        __threadfence_block();
                        static_cast<volatile long long*>(progress)[w] = (long long)qs * P + i2 + 2;
                    }
                }
                if constexpr (TRACK) {
                    if (s == sN && i2 + 2 >= width) {  // column e is jj (odd width) or jj + 1
                        const bool second = (width & 1) == 0;
                        float v = 0;
                        int sv = 0;
#pragma unroll
                        for (int k = 0; k < R; ++k)
                            if (k == kN) { v = second ? M[k] : N[k]; sv = second ? sMv[k] : sNv[k]; }
                        A.outCost[ti] = v;
                        A.outStart[ti] = sv;
                    }
                } else {
                    if (s == nSeg - 1 && A.costRow) {
                        float* row = A.costRow + o.rowAt;  // column a first (half2: a = 0)
                        Op::writeLast(row, jj - a, N[R - 1], A.last, A.h);
                        if (jj + 1 <= tk.e) Op::writeLast(row, jj + 1 - a, M[R - 1], A.last, A.h);
                    }
                    if constexpr (Op::kCheckpoints) {
                        if (A.ck && (jj + 2) % C == 0 && jj + 1 <= tk.e) {
                            float* dst = reinterpret_cast<float*>(A.ck) + o.ckAt +
                                         std::size_t((jj + 2 - a) / C - 1) * A.ckRows + (row0 + pad);
#pragma unroll
                            for (int k = 0; k < R; k += 4)
                                *reinterpret_cast<float4*>(dst + k) = make_float4(M[k], M[k + 1], M[k + 2], M[k + 3]);
                        }
                    }
                }
            }
        }
        __syncthreads();  // the next task reuses the buffer and the progress flags
    }
}

}  // namespace warplab::compute::gpu::sdtw
