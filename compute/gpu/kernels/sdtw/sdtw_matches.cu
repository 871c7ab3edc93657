// From the last rows to the matches of the GPU subsequence search (sdtw_search_parts.h): the
// top-k ends by many blocks a round, then each end's start (and fp32 cost) from a start span ending
// at it, seeded with the exact checkpoint column before it.
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>
#include <climits>

#include "compute/gpu/kernels/sdtw/sdtw_search_parts.h"
#include "compute/gpu/runtime/gpu_device.h"

namespace warplab::compute::gpu::sdtw {

namespace {

// The top-k of every query's last row: k rounds of (smallest cost, smallest end column on
// ties), each followed by excluding the columns end - n/2 .. end + n/2 (METRICS.md); fewer
// than k matches when the row runs out. One process: two launches in all (topK, roundsKernel).
// Over processes a round is two launches: blocks (piece, query) find the best of kTopkPiece
// columns each, then one block per query takes the best of its pieces (the processes then choose
// and exclude), so that one query's row of tens of millions of columns is scanned by the whole
// chip rather than by one block.
constexpr int kTopkPiece = 65536;

__device__ __forceinline__ bool better(float v, int j, float bv, int bj) { return v < bv || (v == bv && j < bj); }

// Block-wide best of (v, j) pairs; every thread gets the result.
__device__ __forceinline__ void blockBest(float& v, int& j, float* sv, int* sj) {
    sv[threadIdx.x] = v;
    sj[threadIdx.x] = j;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w && better(sv[threadIdx.x + w], sj[threadIdx.x + w], sv[threadIdx.x], sj[threadIdx.x])) {
            sv[threadIdx.x] = sv[threadIdx.x + w];
            sj[threadIdx.x] = sj[threadIdx.x + w];
        }
        __syncthreads();
    }
    v = sv[0];
    j = sj[0];
    __syncthreads();
}

// METRICS.md's exclusion zone: columns end - n/2 .. end + n/2 of one row set to +inf, by the block.
__device__ __forceinline__ void excludeAround(float* row, int m, int end, int n) {
    const int half = n / 2;
    for (int c = max(0, end - half) + int(threadIdx.x); c <= min(m - 1, end + half); c += blockDim.x) row[c] = INFINITY;
}

// The best (cost, then column) of row[a, b), by the block; every thread gets it.
__device__ __forceinline__ void rangeBest(const float* row, int a, int b, float& v, int& j, float* sv, int* sj) {
    v = INFINITY;
    j = INT_MAX;
    for (int c = a + int(threadIdx.x); c < b; c += blockDim.x) {
        const float x = row[c];
        if (x < v) { v = x; j = c; }  // ascending c: strict < keeps the smallest column
    }
    blockBest(v, j, sv, sj);
}

// The best of `count` bests (V[s], J[s]), by the block; every thread gets it.
__device__ __forceinline__ void bestOfBests(const float* V, const int* J, int count, float& v, int& j, float* sv, int* sj) {
    v = INFINITY;
    j = INT_MAX;
    for (int s = threadIdx.x; s < count; s += blockDim.x)
        if (better(V[s], J[s], v, j)) { v = V[s]; j = J[s]; }
    blockBest(v, j, sv, sj);
}

// Pieces of columns [c0, c1).
__global__ void pieceBestKernel(const float* costRow, int m, int c0, int c1, float* pieceV, int* pieceJ) {
    __shared__ float sv[kThreads];
    __shared__ int sj[kThreads];
    const int q = blockIdx.y, piece = blockIdx.x, pieces = gridDim.x;
    const int a = c0 + piece * kTopkPiece;
    float bv;
    int bj;
    rangeBest(costRow + std::size_t(q) * m, a, min(c1, a + kTopkPiece), bv, bj, sv, sj);
    if (threadIdx.x == 0) {
        pieceV[std::size_t(q) * pieces + piece] = bv;
        pieceJ[std::size_t(q) * pieces + piece] = bj;
    }
}

// One block per query: the best of its pieces' bests (end -1: its row has run out); the
// processes then choose and exclude.
__global__ void takeBestKernel(int pieces, const float* pieceV, const int* pieceJ, float* outCost, int* outEnd) {
    __shared__ float sv[kThreads];
    __shared__ int sj[kThreads];
    const int q = blockIdx.x;
    float bv;
    int bj;
    bestOfBests(pieceV + std::size_t(q) * pieces, pieceJ + std::size_t(q) * pieces, pieces, bv, bj, sv, sj);
    if (threadIdx.x == 0) {
        outCost[q] = bv;
        outEnd[q] = bv < INFINITY ? bj : -1;
    }
}

// One block per query: the columns end - n/2 .. end + n/2 of the round's winner (none: end < 0).
__global__ void excludeKernel(float* costRow, const int* qLengths, int m, const int* ends) {
    const int q = blockIdx.x;
    if (ends[q] >= 0) excludeAround(costRow + std::size_t(q) * m, m, ends[q], qLengths[q]);
}

// topK in two launches instead of two per round. segmentMinKernel: the best (cost, then
// column) of every segment of segLen columns, kSegmentThreads threads a segment, every row at
// once. roundsKernel: one block per query takes the k rounds over its segments' bests, then
// excludes end - n/2 .. end + n/2 in the row as excludeAround does, marks the segments wholly
// inside as empty and takes the best of the (at most two) segments the zone cuts again from the
// row. The best of the segments' bests is the best of the row's columns (the order, cost then
// column, is total; a segment's best is its smallest column of its smallest cost), and every
// segment's best is that of its columns not yet excluded, so each round picks what a scan of
// the whole row picks: the same matches, ties included, reading the row once.
constexpr int kSegmentThreads = 32;
constexpr int kSegmentsPerBlock = kThreads / kSegmentThreads;
constexpr int kMaxSegments = 8192;  // per row: the rounds' block scans at most this many bests

int segmentLength(int m) {
    const int per = (m + kMaxSegments - 1) / kMaxSegments;
    return std::max(1024, (per + 1023) / 1024 * 1024);
}

__global__ void segmentMinKernel(const float* costRow, int nq, int m, int segLen, int segs, float* segV, int* segJ) {
    __shared__ float sv[kThreads];
    __shared__ int sj[kThreads];
    const int g = int(threadIdx.x) / kSegmentThreads, t = int(threadIdx.x) % kSegmentThreads;
    const int seg = int(blockIdx.x) * kSegmentsPerBlock + g;
    for (int q = blockIdx.y; q < nq; q += gridDim.y) {
        const float* row = costRow + std::size_t(q) * m;
        float bv = INFINITY;
        int bj = INT_MAX;
        if (seg < segs) {
            const int a = seg * segLen, b = min(m, a + segLen);
            for (int j = a + t; j < b; j += kSegmentThreads) {
                const float v = row[j];
                if (v < bv) { bv = v; bj = j; }  // ascending j: strict < keeps the smallest column
            }
        }
        sv[threadIdx.x] = bv;
        sj[threadIdx.x] = bj;
        __syncthreads();
        for (int w = kSegmentThreads / 2; w > 0; w /= 2) {
            const int i = int(threadIdx.x);
            if (t < w && better(sv[i + w], sj[i + w], sv[i], sj[i])) {
                sv[i] = sv[i + w];
                sj[i] = sj[i + w];
            }
            __syncthreads();
        }
        if (t == 0 && seg < segs) {
            segV[std::size_t(q) * segs + seg] = sv[threadIdx.x];
            segJ[std::size_t(q) * segs + seg] = sj[threadIdx.x];
        }
        __syncthreads();  // the next query reuses sv, sj
    }
}

__global__ void roundsKernel(float* costRow, const int* qLengths, int m, int segLen, int segs, float* segV, int* segJ,
                             int k, float* outCost, int* outEnd) {
    __shared__ float sv[kThreads];
    __shared__ int sj[kThreads];
    const int q = blockIdx.x;
    float* row = costRow + std::size_t(q) * m;
    float* V = segV + std::size_t(q) * segs;
    int* J = segJ + std::size_t(q) * segs;
    const int half = qLengths[q] / 2;
    for (int r = 0; r < k; ++r) {
        float bv;
        int bj;
        bestOfBests(V, J, segs, bv, bj, sv, sj);
        if (!(bv < INFINITY)) {  // nothing left: this round and the rest are empty
            if (threadIdx.x == 0) for (int rr = r; rr < k; ++rr) outEnd[std::size_t(q) * k + rr] = -1;
            return;
        }
        if (threadIdx.x == 0) {
            outCost[std::size_t(q) * k + r] = bv;
            outEnd[std::size_t(q) * k + r] = bj;
        }
        excludeAround(row, m, bj, qLengths[q]);
        const int lo = max(0, bj - half), hi = min(m - 1, bj + half);
        const int s0 = lo / segLen, s1 = hi / segLen;
        for (int s = s0 + 1 + int(threadIdx.x); s < s1; s += blockDim.x) {
            V[s] = INFINITY;
            J[s] = INT_MAX;
        }
        __syncthreads();  // the row's excluded columns (and the segments) seen by the whole block
        for (int s = s0;; s = s1) {
            float v;
            int j;
            rangeBest(row, s * segLen, min(m, s * segLen + segLen), v, j, sv, sj);
            if (threadIdx.x == 0) {
                V[s] = v;
                J[s] = j;
            }
            if (s == s1) break;
        }
        __syncthreads();  // the segments' new bests seen by the next round
    }
}

__global__ void maskKernel(float* costRow, int m, int lo, int hi) {
    float* row = costRow + std::size_t(blockIdx.y) * m;
    for (int c = lo + int(blockIdx.x * blockDim.x + threadIdx.x); c <= hi; c += gridDim.x * blockDim.x) row[c] = INFINITY;
}

}  // namespace

// The top-k of rows [0, nq) of costRow (stride m) into outCost / outEnd (k per query): the
// segments' bests, then the rounds (see roundsKernel).
void topK(float* costRow, const int* qLengths, int nq, int m, int k, float* outCost, int* outEnd,
          DeviceBuffer<float>& pieceV, DeviceBuffer<int>& pieceJ, gpuStream_t s) {
    if (nq <= 0 || k <= 0) return;
    const int segLen = segmentLength(m), segs = (m + segLen - 1) / segLen;
    pieceV.resize(std::size_t(nq) * segs);
    pieceJ.resize(std::size_t(nq) * segs);
    const dim3 grid(unsigned((segs + kSegmentsPerBlock - 1) / kSegmentsPerBlock), unsigned(std::min(nq, 65535)));
    segmentMinKernel<<<grid, kThreads, 0, s>>>(costRow, nq, m, segLen, segs, pieceV.get(), pieceJ.get());
    checkLaunch("top-k kernel");
    roundsKernel<<<nq, kThreads, 0, s>>>(costRow, qLengths, m, segLen, segs, pieceV.get(), pieceJ.get(), k, outCost,
                                         outEnd);
    checkLaunch("top-k kernel");
}

void topKAcross(float* costRow, const int* qLengths, int nq, int m, int k, int c0, int c1,
                const ProcessGroup& processes, std::vector<float>& hc, std::vector<int>& he,
                DeviceBuffer<float>& pieceV, DeviceBuffer<int>& pieceJ, gpuStream_t s) {
    struct Offer {
        float v;
        int j;
    };
    const int pieces = c0 < c1 ? (c1 - c0 + kTopkPiece - 1) / kTopkPiece : 0;
    const std::size_t K = std::size_t(processes.count);
    pieceV.resize(std::size_t(nq) * std::max(1, pieces));
    pieceJ.resize(std::size_t(nq) * std::max(1, pieces));
    DeviceBuffer<float> roundV(nq);
    DeviceBuffer<int> roundJ(nq), winners(nq);
    std::vector<float> v(nq);
    std::vector<int> j(nq), win(nq);
    std::vector<Offer> mine(nq), all(K * std::size_t(nq));
    hc.assign(std::size_t(nq) * k, INFINITY);
    he.assign(std::size_t(nq) * k, -1);
    std::vector<char> open(nq, 1);  // rows not yet run out
    for (int r = 0; r < k; ++r) {
        if (pieces > 0) {
            pieceBestKernel<<<dim3(unsigned(pieces), unsigned(nq)), kThreads, 0, s>>>(costRow, m, c0, c1, pieceV.get(),
                                                                                      pieceJ.get());
            checkLaunch("top-k kernel");
            takeBestKernel<<<nq, kThreads, 0, s>>>(pieces, pieceV.get(), pieceJ.get(), roundV.get(), roundJ.get());
            checkLaunch("top-k kernel");
            roundV.download(v.data(), std::size_t(nq), s);
            roundJ.download(j.data(), std::size_t(nq), s);
            check(gpuStreamSynchronize(s), "stream synchronisation");
        }
        for (int q = 0; q < nq; ++q)
            mine[q] = pieces > 0 && j[q] >= 0 ? Offer{v[q], j[q]} : Offer{INFINITY, INT_MAX};
        processes.allgather(mine.data(), mine.size() * sizeof(Offer), all.data());
        bool any = false;
        for (int q = 0; q < nq; ++q) {
            Offer best{INFINITY, INT_MAX};
            for (std::size_t p = 0; p < K; ++p) {
                const Offer& o = all[p * std::size_t(nq) + std::size_t(q)];
                if (o.v < INFINITY && (o.v < best.v || (o.v == best.v && o.j < best.j))) best = o;
            }
            win[q] = -1;
            if (!open[q] || !(best.v < INFINITY)) {
                open[q] = 0;
                continue;
            }
            hc[std::size_t(q) * k + r] = best.v;
            he[std::size_t(q) * k + r] = win[q] = best.j;
            any = true;
        }
        if (!any) break;
        winners.upload(win.data(), std::size_t(nq), s);
        excludeKernel<<<nq, kThreads, 0, s>>>(costRow, qLengths, m, winners.get());
        checkLaunch("top-k kernel");
    }
    check(gpuStreamSynchronize(s), "stream synchronisation");
}

void maskEnds(float* costRow, int nq, int m, std::size_t lo, std::size_t hi, gpuStream_t s) {
    if (nq <= 0 || lo >= std::size_t(m) || hi < lo) return;
    const int a = int(lo), b = int(std::min<std::size_t>(hi, std::size_t(m) - 1));
    const int blocks = std::min(1024, (b - a + kThreads) / kThreads);
    maskKernel<<<dim3(unsigned(blocks), unsigned(nq)), kThreads, 0, s>>>(costRow, m, a, b);
    checkLaunch("sdtw exclusion kernel");
}

// Starts (and fp32 costs) of the matches ends[i] of queries tasks[i].query: fp32 start spans,
// widened while a seeded start span reports a start left of it.
// fetchSeeds (may be empty) is called with each round's tasks before it runs: the seed
// checkpoints another device holds are copied into ck first.
void recoverStarts(const Prepared& p, int q0, int nq, std::vector<sdtw::Task>& tasks, const float* ck, int ckCols,
                int ckRows, bool absCost, std::vector<int>& starts, std::vector<float>& costs, SdtwTiming& tm,
                gpuStream_t s, const std::function<void(const std::vector<sdtw::Task>&)>& fetchSeeds, int trackExtra) {
    constexpr int C = sdtw::kCheckpointEvery;
    starts.assign(tasks.size(), -1);
    costs.assign(tasks.size(), INFINITY);
    std::vector<int> todo(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) todo[i] = int(i);
    DeviceBuffer<sdtw::Task> dTasks;
    DeviceBuffer<float> dCost, boundary;
    DeviceBuffer<int> dStart;
    const int roundsBefore = tm.startRounds;
    while (!todo.empty()) {
        std::vector<sdtw::Task> round;
        int maxWidth = 1, maxLen = 1;
        for (int i : todo) {
            round.push_back(tasks[i]);
            maxWidth = std::max(maxWidth, tasks[i].e - tasks[i].a + 1);
            maxLen = std::max(maxLen, p.qh.lengths[q0 + tasks[i].query]);
            tm.startCells += (unsigned long long)(tasks[i].e - tasks[i].a + 1) * p.qh.lengths[q0 + tasks[i].query];
        }
        if (fetchSeeds) fetchSeeds(round);
        dTasks.upload(round.data(), round.size(), s);
        dCost.resize(round.size());
        dStart.resize(round.size());
        sdtw::StripeArgs a = passArgs(p, q0, nq, SdtwPrecision::Fp32);
        a.tasks = dTasks.get();
        a.taskCount = int(round.size());
        a.ck = const_cast<float*>(ck);
        a.ckCols = ckCols;
        a.ckRows = ckRows;
        a.outCost = dCost.get();
        a.outStart = dStart.get();
        // The lean start pass keeps the stripes' boundaries in shared memory.
        const bool lean = sdtw::leanPassFits(maxLen, 16, kWarpSize);
        a.boundaryStride = lean ? 0 : 2L * ((maxWidth + 2 + 1) / 2 * 2);
        // The first round may track the spans' last columns only (the lean start pass); a start
        // that comes back -1 from it is run again with every column tracked (sdtw_start_kernel.h).
        const bool partial = lean && trackExtra >= 0 && tm.startRounds == roundsBefore;
        a.trackExtra = partial ? trackExtra : -1;
        const std::size_t fit =
            lean ? round.size() : std::max<std::size_t>(1, memInfo().first / 4 / (std::size_t(a.boundaryStride) * 4));
        const int grid = int(std::min<std::size_t>({round.size(), fit, 65535}));
        if (!lean) {
            boundary.resize(std::size_t(grid) * a.boundaryStride);
            a.boundary = boundary.get();
        }
        sdtw::launchStartPasses(a, absCost, lean, grid, sdtw::warpsPerBlock(maxLen, 16, kWarpSize), s);
        ++tm.startRounds;
        std::vector<int> hs(round.size());
        std::vector<float> hc(round.size());
        dStart.download(hs.data(), hs.size(), s);
        dCost.download(hc.data(), hc.size(), s);
        check(gpuStreamSynchronize(s), "stream synchronisation");
        std::vector<int> next;
        for (std::size_t r = 0; r < round.size(); ++r) {
            const int i = todo[r];
            sdtw::Task& t = tasks[i];
            if (hs[r] < 0 && partial) {  // through a costs-only column: the same span, all tracked
                next.push_back(i);
                continue;
            }
            if (hs[r] >= 0 || t.a == 0 || t.seed < 0) {
                starts[i] = hs[r];
                costs[i] = hc[r];
                continue;
            }
            // The best path comes from left of the start span: twice as wide, on a checkpoint.
            const long a0 = long(t.e) + 1 - 2L * (t.e - t.a + 1);
            t.a = a0 <= 0 ? 0 : int(a0 / C * C);
            t.seed = t.a > 0 ? t.a / C - 1 : -1;
            next.push_back(i);
        }
        todo.swap(next);
    }
}

}  // namespace warplab::compute::gpu::sdtw
