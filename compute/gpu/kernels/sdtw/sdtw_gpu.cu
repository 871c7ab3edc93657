// GPU subsequence search (see sdtw_gpu.h): device z-normalisation of every series in one
// launch; the last DP row of every query (fp32 pass with checkpoint columns, or half2 pass);
// one block per query picking the top-k ends with METRICS.md's exclusion zone; then the
// starts from fp32 windows ending at those ends, all matches in one launch (sdtw_passes.h).
// Queries go in chunks sized to the free device memory.
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>

#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/gpu/kernels/sdtw/sdtw_passes.h"

namespace warplab::compute::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kPadY = 8;  // samples readable past the reference's end (8 columns per step read up to e + 7)

// Mean and population std in double of one series, by the whole block, for both normalisers
// (one reduction in one order: they give the same values bit for bit). sum and sq: kThreads
// doubles of shared memory each.
__device__ __forceinline__ void seriesStats(const float* v, int n, double* sum, double* sq, double& mean, double& sd) {
    double a = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) a += v[i];
    sum[threadIdx.x] = a;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) sum[threadIdx.x] += sum[threadIdx.x + w];
        __syncthreads();
    }
    mean = sum[0] / n;
    double b = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) { double e = v[i] - mean; b += e * e; }
    sq[threadIdx.x] = b;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) sq[threadIdx.x] += sq[threadIdx.x + w];
        __syncthreads();
    }
    sd = sqrt(sq[0] / n);
}

// One block per series: its statistics, then in-place normalisation; a constant series
// (std <= 1e-12 * max(1, |mean|)) becomes zeros (METRICS.md).
__global__ void znormKernel(float* values, const long long* offsets, const int* lengths, int count) {
    __shared__ double sum[kThreads], sq[kThreads];
    for (int sIdx = blockIdx.x; sIdx < count; sIdx += gridDim.x) {
        float* v = values + offsets[sIdx];
        const int n = lengths[sIdx];
        double mean, sd;
        seriesStats(v, n, sum, sq, mean, sd);
        const bool constant = sd <= 1e-12 * fmax(1.0, fabs(mean));
        for (int i = threadIdx.x; i < n; i += blockDim.x) v[i] = constant ? 0.f : float((v[i] - mean) / sd);
        __syncthreads();
    }
}

// The two-kernel normaliser: the statistics of every series, then one launch over all samples
// (blockIdx.y: the series), with znormKernel's operations, so its values bit for bit.
__global__ void znormStatsKernel(const float* values, const long long* offsets, const int* lengths, int count,
                                 double* mean, double* sd) {
    __shared__ double sum[kThreads], sq[kThreads];
    for (int sIdx = blockIdx.x; sIdx < count; sIdx += gridDim.x) {
        double mu, s;
        seriesStats(values + offsets[sIdx], lengths[sIdx], sum, sq, mu, s);
        if (threadIdx.x == 0) {
            mean[sIdx] = mu;
            sd[sIdx] = s;
        }
        __syncthreads();
    }
}

__global__ void znormApplyKernel(float* values, const long long* offsets, const int* lengths, int count,
                                 const double* mean, const double* sd) {
    for (int sIdx = blockIdx.y; sIdx < count; sIdx += gridDim.y) {
        float* v = values + offsets[sIdx];
        const int n = lengths[sIdx];
        const double mu = mean[sIdx], s = sd[sIdx];
        const bool constant = s <= 1e-12 * fmax(1.0, fabs(mu));
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            v[i] = constant ? 0.f : float((v[i] - mu) / s);
    }
}

void znormTwoKernels(float* values, const long long* offsets, const int* lengths, int count, int maxLength,
                     DeviceBuffer<double>& mean, DeviceBuffer<double>& sd, gpuStream_t s) {
    mean.resize(std::size_t(count));
    sd.resize(std::size_t(count));
    znormStatsKernel<<<std::min(count, 4096), kThreads, 0, s>>>(values, offsets, lengths, count, mean.get(), sd.get());
    checkLaunch("z-normalisation statistics kernel");
    const dim3 grid(unsigned(std::min((maxLength + kThreads - 1) / kThreads, 1024)), unsigned(std::min(count, 65535)));
    znormApplyKernel<<<grid, kThreads, 0, s>>>(values, offsets, lengths, count, mean.get(), sd.get());
    checkLaunch("z-normalisation kernel");
}

// The top-k of every query's last row: k rounds of (smallest cost, smallest end column on
// ties), each followed by excluding the columns end - n/2 .. end + n/2 (METRICS.md); fewer
// than k matches when the row runs out. A round is two launches: blocks (piece, query) find
// the best of kTopkPiece columns each, then one block per query takes the best of its pieces
// and excludes around it, so that one query's row of tens of millions of columns is scanned by
// the whole chip rather than by one block.
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

__global__ void pieceBestKernel(const float* costRow, int m, float* pieceV, int* pieceJ) {
    __shared__ float sv[kThreads];
    __shared__ int sj[kThreads];
    const int q = blockIdx.y, piece = blockIdx.x, pieces = gridDim.x;
    const float* row = costRow + std::size_t(q) * m;
    const int a = piece * kTopkPiece, b = min(m, a + kTopkPiece);
    float bv = INFINITY;
    int bj = INT_MAX;
    for (int j = a + threadIdx.x; j < b; j += blockDim.x) {
        const float v = row[j];
        if (v < bv) { bv = v; bj = j; }  // ascending j: strict < keeps the smallest column
    }
    blockBest(bv, bj, sv, sj);
    if (threadIdx.x == 0) {
        pieceV[std::size_t(q) * pieces + piece] = bv;
        pieceJ[std::size_t(q) * pieces + piece] = bj;
    }
}

__global__ void takeBestKernel(float* costRow, const int* qLengths, int m, int pieces, const float* pieceV,
                               const int* pieceJ, int k, int round, float* outCost, int* outEnd) {
    __shared__ float sv[kThreads];
    __shared__ int sj[kThreads];
    const int q = blockIdx.x;
    float bv = INFINITY;
    int bj = INT_MAX;
    for (int p = threadIdx.x; p < pieces; p += blockDim.x) {
        const float v = pieceV[std::size_t(q) * pieces + p];
        const int j = pieceJ[std::size_t(q) * pieces + p];
        if (better(v, j, bv, bj)) { bv = v; bj = j; }
    }
    blockBest(bv, bj, sv, sj);
    if (!(bv < INFINITY)) {  // nothing left: this round and the rest are empty
        if (threadIdx.x == 0) for (int r = round; r < k; ++r) outEnd[std::size_t(q) * k + r] = -1;
        return;
    }
    if (threadIdx.x == 0) {
        outCost[std::size_t(q) * k + round] = bv;
        outEnd[std::size_t(q) * k + round] = bj;
    }
    const int half = qLengths[q] / 2;
    float* row = costRow + std::size_t(q) * m;
    for (int c = max(0, bj - half) + int(threadIdx.x); c <= min(m - 1, bj + half); c += blockDim.x) row[c] = INFINITY;
}

// The top-k of rows [0, nq) of costRow (stride m) into outCost / outEnd (k per query).
void topK(float* costRow, const int* qLengths, int nq, int m, int k, float* outCost, int* outEnd,
          DeviceBuffer<float>& pieceV, DeviceBuffer<int>& pieceJ, gpuStream_t s) {
    const int pieces = (m + kTopkPiece - 1) / kTopkPiece;
    pieceV.resize(std::size_t(nq) * pieces);
    pieceJ.resize(std::size_t(nq) * pieces);
    for (int r = 0; r < k; ++r) {
        pieceBestKernel<<<dim3(unsigned(pieces), unsigned(nq)), kThreads, 0, s>>>(costRow, m, pieceV.get(), pieceJ.get());
        checkLaunch("top-k kernel");
        takeBestKernel<<<nq, kThreads, 0, s>>>(costRow, qLengths, m, pieces, pieceV.get(), pieceJ.get(), k, r, outCost,
                                               outEnd);
        checkLaunch("top-k kernel");
    }
}

// Statistics of one long series (the reference) by many blocks: each sums a piece of
// kStatsPiece samples in seriesStats' order, then one thread adds the pieces in order, so that a
// reference of 40 hours is not reduced by one block; a series of one piece gets seriesStats'
// values bit for bit. mean == nullptr: the sum of the samples, else of their squared deviations.
constexpr int kStatsPiece = 65536;

__global__ void pieceSumKernel(const float* v, int n, const double* mean, double* part) {
    __shared__ double sum[kThreads];
    const int a = blockIdx.x * kStatsPiece, b = min(n, a + kStatsPiece);
    double acc = 0;
    if (mean) {
        const double mu = *mean;
        for (int i = a + threadIdx.x; i < b; i += blockDim.x) { double e = v[i] - mu; acc += e * e; }
    } else {
        for (int i = a + threadIdx.x; i < b; i += blockDim.x) acc += v[i];
    }
    sum[threadIdx.x] = acc;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) sum[threadIdx.x] += sum[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) part[blockIdx.x] = sum[0];
}

// out = (sum of parts) / n, its square root when sqrtOf.
__global__ void finishStatKernel(const double* part, int parts, int n, bool sqrtOf, double* out) {
    if (threadIdx.x != 0) return;
    double acc = 0;
    for (int p = 0; p < parts; ++p) acc += part[p];
    *out = sqrtOf ? sqrt(acc / n) : acc / n;
}

// Inputs on the device, z-normalised when asked, the reference padded for the passes.
struct Prepared {
    PackedHost qh;
    PackedDevice qd;
    int m = 0, maxLength = 0;
    DeviceBuffer<float> y;      // fp32 reference, m + kPadY samples
    DeviceBuffer<__half2> yh;   // half2: (y[j], y[h + j]), L + kPadY pairs
    int L = 0, h = 0;           // half2 segments: A = [0, L), B = [h, m)
    Event znormDone;            // recorded after the z-normalisation
    DeviceBuffer<double> qMean, qSd, rMean, rSd;  // the normalisers' statistics
    DeviceBuffer<double> rParts;                  // the reference's, by pieces
};

// The reference's z-normalisation (both normalisers): its statistics by pieces, then every
// sample (znormApplyKernel, znormKernel's operations).
void znormLong(float* values, const long long* offsets, const int* lengths, int n, Prepared& p, gpuStream_t s) {
    const int pieces = (n + kStatsPiece - 1) / kStatsPiece;
    p.rParts.resize(std::size_t(pieces));
    p.rMean.resize(1);
    p.rSd.resize(1);
    pieceSumKernel<<<pieces, kThreads, 0, s>>>(values, n, nullptr, p.rParts.get());
    finishStatKernel<<<1, 32, 0, s>>>(p.rParts.get(), pieces, n, false, p.rMean.get());
    pieceSumKernel<<<pieces, kThreads, 0, s>>>(values, n, p.rMean.get(), p.rParts.get());
    finishStatKernel<<<1, 32, 0, s>>>(p.rParts.get(), pieces, n, true, p.rSd.get());
    checkLaunch("z-normalisation statistics kernel");
    znormApplyKernel<<<unsigned(std::min((n + kThreads - 1) / kThreads, 65535)), kThreads, 0, s>>>(
        values, offsets, lengths, 1, p.rMean.get(), p.rSd.get());
    checkLaunch("z-normalisation kernel");
}

void prepare(Prepared& p, const SeriesSet& queries, const Series& reference, const Params& params,
             SdtwPrecision precision, Stream& stream, Event& start, bool twoKernelNormaliser) {
    using K = EngineError::Kind;
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    validate(params);
    if (queries.empty()) throw EngineError(K::BadInput, "queries", "no series given");
    SeriesSet refSet{reference};
    p.qh = packSeries(queries, 0, queries.size(), "queries");
    PackedHost rh = packSeries(refSet, 0, 1, "reference");
    if (p.qh.dims != 1 || rh.dims != 1)
        throw EngineError(K::BadInput, "dims", "the GPU subsequence search takes univariate series");
    if (precision == SdtwPrecision::Half2 && !params.znorm) {
        // Half overflows at 65504; x - y of samples within +-32000 stays finite (a cost may
        // round up to +inf, which only loses that path).
        for (const PackedHost* set : {&p.qh, &rh})
            for (float v : set->values)
                if (std::fabs(v) > 32000.f)
                    throw EngineError(K::BadInput, set == &rh ? "reference" : "queries",
                                      "half2 precision takes samples within +-32000; z-normalise (--znorm)");
    }
    p.m = rh.maxLength;
    p.maxLength = p.qh.maxLength;
    PackedDevice rd;
    p.qd.upload(p.qh, stream.get());
    rd.upload(rh, stream.get());
    start.record(stream.get());
    if (params.znorm && twoKernelNormaliser) {
        znormTwoKernels(p.qd.values.get(), p.qd.offsets.get(), p.qd.lengths.get(), p.qd.count, p.qh.maxLength, p.qMean,
                        p.qSd, stream.get());
    } else if (params.znorm) {
        znormKernel<<<std::min(p.qd.count, 4096), kThreads, 0, stream.get()>>>(p.qd.values.get(), p.qd.offsets.get(),
                                                                                p.qd.lengths.get(), p.qd.count);
        checkLaunch("z-normalisation kernel");
    }
    if (params.znorm) znormLong(rd.values.get(), rd.offsets.get(), rd.lengths.get(), rh.maxLength, p, stream.get());
    p.znormDone.record(stream.get());
    p.y.resize(std::size_t(p.m) + kPadY);
    check(gpuMemsetAsync(p.y.get(), 0, (std::size_t(p.m) + kPadY) * sizeof(float), stream.get()), "memset");
    check(gpuMemcpyAsync(p.y.get(), rd.values.get(), std::size_t(p.m) * sizeof(float), gpuMemcpyDeviceToDevice,
                         stream.get()),
          "copy on device");
    if (precision == SdtwPrecision::Half2) {
        const int ov = sdtwHalf2Span(p.maxLength);
        // Two equal segments overlapping by ov; a reference too short to split is computed
        // twice (both halves are segment A).
        if (p.m > 2 * ov) {
            p.L = int((std::size_t(p.m) + ov + 1) / 2);
            p.h = p.m - p.L;
        } else {
            p.L = p.m;
            p.h = 0;
        }
        p.yh.resize(std::size_t(p.L) + kPadY);
        sdtw::packHalf2Reference(p.y.get(), p.yh.get(), p.L, p.h, kPadY, stream.get());
    }
    // The stream keeps rd alive until here: its values were copied into p.y on the stream.
    stream.sync();
}

// The stripe kernel's arguments for queries [q0, q0 + nq) of the prepared set.
sdtw::StripeArgs passArgs(const Prepared& p, int q0, int nq, SdtwPrecision precision) {
    sdtw::StripeArgs a;
    a.queries = view(p.qd);
    a.queries.offsets += q0;
    a.queries.lengths += q0;
    a.m = p.m;
    a.taskCount = nq;
    if (precision == SdtwPrecision::Half2) {
        a.y = p.yh.get();
        a.last = p.L - 1;
        a.h = p.h;
    } else {
        a.y = p.y.get();
        a.last = p.m - 1;
    }
    return a;
}

// Where a pass writes: the last rows (stride m) and checkpoints (ckCols per row of tasks),
// seeds read from seedCk (null: ck), and whether each task has rows of its own (perTaskOut).
struct PassOut {
    float* costRow = nullptr;
    int m = 0;
    float* ck = nullptr;
    int ckCols = 0, ckRows = 0;
    const float* seedCk = nullptr;
    int seedCols = 0;
    bool perTaskOut = false;
};

// Runs the pass for queries [q0, q0 + nq) whole, or for `tasks` (query indices relative to q0;
// pass tasks: a a multiple of kCheckpointEvery), at `rows` rows per lane (0: rowsPerLane
// chooses) and `cols` columns per step (0: columnsPerStep chooses; the lean pass only).
void runPass(const Prepared& p, int q0, int nq, SdtwPrecision precision, bool absCost, const PassOut& out,
             const std::vector<sdtw::Task>* tasks, DeviceBuffer<sdtw::Task>& dTasks, DeviceBuffer<float>& boundary,
             gpuStream_t s, int rows, int cols, int* rowsUsed = nullptr, int* colsUsed = nullptr) {
    sdtw::StripeArgs a = passArgs(p, q0, nq, precision);
    a.costRow = out.costRow;
    a.m = out.m;
    a.ck = out.ck;
    a.ckCols = out.ckCols;
    a.ckRows = out.ckRows;
    a.seedCk = out.seedCk;
    a.seedCols = out.seedCols;
    a.perTaskOut = out.perTaskOut;
    std::vector<int> lengths;  // of each task
    int maxWidth = a.last + 1;
    if (tasks) {
        dTasks.upload(tasks->data(), tasks->size(), s);
        a.tasks = dTasks.get();
        a.taskCount = int(tasks->size());
        maxWidth = 1;
        for (const sdtw::Task& t : *tasks) {
            lengths.push_back(p.qh.lengths[q0 + t.query]);
            maxWidth = std::max(maxWidth, t.e - t.a + 1);
        }
    } else {
        lengths.assign(p.qh.lengths.begin() + q0, p.qh.lengths.begin() + q0 + nq);
    }
    const int count = int(lengths.size());
    int maxLen = 1;
    for (int n : lengths) maxLen = std::max(maxLen, n);
    if (rows == 0) rows = sdtw::rowsPerLane(lengths.data(), count, kWarpSize, multiprocessorCount());
    // The lean pass needs one warp per stripe; longer queries take stripeKernel (8 or 16 rows),
    // and so do seeded tasks (the re-sweeps: a few percent of the cells; seeds in the lean pass
    // cost its 16-row form registers it cannot spare).
    bool seeded = false;
    if (tasks)
        for (const sdtw::Task& t : *tasks) seeded = seeded || t.seed >= 0;
    bool lean = !seeded && sdtw::leanPassFits(maxLen, rows, kWarpSize);
    if (!lean && rows != 16 && rows != 8) rows = rows == 32 ? 16 : 8;
    if (!lean && !seeded) lean = sdtw::leanPassFits(maxLen, rows, kWarpSize);
    const int warps = lean ? sdtw::stripesOf(maxLen, rows, kWarpSize) : sdtw::warpsPerBlock(maxLen, rows, kWarpSize);
    cols = lean ? sdtw::columnsPerStep(rows, cols) : 2;
    if (rowsUsed) *rowsUsed = rows;
    if (colsUsed) *colsUsed = cols;
    if (lean) {
        a.boundaryStride = 0;
        a.boundary = nullptr;
    } else {
        a.boundaryStride = (maxWidth + 3 + 1) / 2 * 2;
    }
    const std::size_t fit =
        lean ? std::size_t(count) : std::max<std::size_t>(1, memInfo().first / 4 / (std::size_t(a.boundaryStride) * 4));
    const int grid = int(std::min<std::size_t>({std::size_t(count), fit, 65535}));
    if (!lean) {
        boundary.resize(std::size_t(grid) * a.boundaryStride);
        a.boundary = boundary.get();
    }
    if (precision == SdtwPrecision::Half2) sdtw::launchHalf2Pass(a, rows, cols, absCost, lean, grid, warps, s);
    else sdtw::launchFp32Pass(a, rows, cols, absCost, lean, grid, warps, s);
}

// One block per re-sweep task (query q over [a, e], its rows and checkpoints in tmp at slot ti):
// the first checkpoint where the re-swept column equals the stored one (every row, bit for
// bit) is where the stored columns become exact, the recurrence being the same from there;
// the columns before it are copied over the stored ones (all of [a, e] when none agrees).
// agreed[ti]: the agreeing column, or -1.
__global__ void commitReseedKernel(const sdtw::Task* tasks, int count, const int* lengths, const float* tmpRow,
                                   int tmpM, const float* tmpCk, int tmpCkCols, float* row, int m, float* ck,
                                   int ckCols, int ckRows, int* agreed) {
    constexpr int C = sdtw::kCheckpointEvery;
    __shared__ int same;
    for (int ti = blockIdx.x; ti < count; ti += gridDim.x) {
        const sdtw::Task tk = tasks[ti];
        const int n = lengths[tk.query];
        const int pad = (n + sdtw::kCheckpointRowAlign - 1) / sdtw::kCheckpointRowAlign * sdtw::kCheckpointRowAlign - n;
        const int width = tk.e - tk.a + 1, nCk = width / C;
        const float* fresh = tmpCk + std::size_t(ti) * tmpCkCols * ckRows + pad;
        float* stored = ck + (std::size_t(tk.query) * ckCols + tk.a / C) * ckRows + pad;
        int agree = -1;
        for (int r = 0; r < nCk && agree < 0; ++r) {
            if (threadIdx.x == 0) same = 1;
            __syncthreads();
            for (int i = threadIdx.x; i < n; i += blockDim.x)
                if (__float_as_uint(fresh[std::size_t(r) * ckRows + i]) != __float_as_uint(stored[std::size_t(r) * ckRows + i]))
                    same = 0;
            __syncthreads();
            if (same) agree = r;
            __syncthreads();
        }
        const int upto = agree >= 0 ? agree * C + C - 1 : width - 1;
        const float* in = tmpRow + std::size_t(ti) * tmpM;
        float* out = row + std::size_t(tk.query) * m + tk.a;
        for (int j = threadIdx.x; j <= upto; j += blockDim.x) out[j] = in[j];
        for (int r = 0; r < (agree >= 0 ? agree : nCk); ++r)
            for (int i = threadIdx.x; i < n; i += blockDim.x)
                stored[std::size_t(r) * ckRows + i] = fresh[std::size_t(r) * ckRows + i];
        if (threadIdx.x == 0) agreed[ti] = agree >= 0 ? tk.a + upto : -1;
        __syncthreads();
    }
}

// Makes the stretched first pass exact (see SdtwOptions::stretches). bounds: the stretches'
// first columns and m. Every stretch's stored columns are one consistent sweep from some
// column before it; a stretch is re-swept from the stored column before its frontier f (the
// first column not yet known to follow the exact column before the stretch) over a window of
// a few query lengths, in one launch for every stretch that needs it; where the window reaches
// a stored checkpoint equal to its own, the rest of the stretch is exact, else the window is
// stored and the next wave goes on from its end. A stretch whose last column changed sends its
// successor back to its start. Stretch 0 is exact from the start, so every wave makes at least
// one more stretch exact.
void reseedStretches(const Prepared& p, int q0, int nq, bool absCost, const std::vector<int>& bounds, float* costRow,
                     float* ck, int ckCols, int ckRows, int rows, int cols, DeviceBuffer<sdtw::Task>& dTasks,
                     DeviceBuffer<float>& boundary, SdtwTiming& tm, gpuStream_t s) {
    constexpr int C = sdtw::kCheckpointEvery;
    const int S = int(bounds.size()) - 1, m = p.m;
    std::vector<int> f(std::size_t(nq) * S);
    for (int q = 0; q < nq; ++q)
        for (int k = 0; k < S; ++k) f[std::size_t(q) * S + k] = k == 0 ? bounds[1] : bounds[k];
    DeviceBuffer<float> tmpRow, tmpCk;
    DeviceBuffer<int> dAgreed, dLengths;
    dLengths.upload(p.qh.lengths.data() + q0, std::size_t(nq), s);
    for (;;) {
        std::vector<sdtw::Task> tasks;
        std::vector<std::size_t> at;  // index into f
        int tmpM = C;
        for (int q = 0; q < nq; ++q) {
            const int n = p.qh.lengths[q0 + q];
            const int window = (2 * n + C - 1) / C * C + C;
            for (int k = 1; k < S; ++k) {
                const std::size_t i = std::size_t(q) * S + k;
                if (f[i] >= bounds[k + 1]) continue;
                const int e = std::min(f[i] + window, bounds[k + 1]) - 1;
                tasks.push_back(sdtw::Task{q, f[i], e, f[i] / C - 1});
                at.push_back(i);
                tmpM = std::max(tmpM, (e - f[i] + 1 + C - 1) / C * C);
            }
        }
        if (tasks.empty()) return;
        const int tmpCkCols = tmpM / C;
        tmpRow.resize(tasks.size() * std::size_t(tmpM));
        tmpCk.resize(tasks.size() * std::size_t(tmpCkCols) * ckRows);
        PassOut out;
        out.costRow = tmpRow.get();
        out.m = tmpM;
        out.ck = tmpCk.get();
        out.ckCols = tmpCkCols;
        out.ckRows = ckRows;
        out.seedCk = ck;
        out.seedCols = ckCols;
        out.perTaskOut = true;
        runPass(p, q0, nq, SdtwPrecision::Fp32, absCost, out, &tasks, dTasks, boundary, s, rows, cols);
        dAgreed.resize(tasks.size());
        const int grid = int(std::min<std::size_t>(tasks.size(), 65535));
        commitReseedKernel<<<grid, kThreads, 0, s>>>(dTasks.get(), int(tasks.size()), dLengths.get(), tmpRow.get(),
                                                      tmpM, tmpCk.get(), tmpCkCols, costRow, m, ck, ckCols, ckRows,
                                                      dAgreed.get());
        checkLaunch("sdtw stretch commit kernel");
        std::vector<int> agreed(tasks.size());
        dAgreed.download(agreed.data(), agreed.size(), s);
        check(gpuStreamSynchronize(s), "stream synchronisation");
        ++tm.reseedWaves;
        std::vector<std::size_t> restart;
        for (std::size_t t = 0; t < tasks.size(); ++t) {
            const std::size_t i = at[t];
            const int k = int(i % S), end = bounds[k + 1];
            tm.reseedCells += (unsigned long long)(tasks[t].e - tasks[t].a + 1) * p.qh.lengths[q0 + tasks[t].query];
            if (agreed[t] >= 0) {
                f[i] = end;
            } else {
                f[i] = tasks[t].e + 1;
                if (f[i] == end && k + 1 < S) restart.push_back(i + 1);  // its last column changed
            }
        }
        for (std::size_t i : restart) f[i] = bounds[i % S];
    }
}

// Stretch bounds of m columns: S stretches whose inner bounds are multiples of kCheckpointEvery.
std::vector<int> stretchBounds(int m, int S) {
    constexpr int C = sdtw::kCheckpointEvery;
    std::vector<int> b{0};
    for (int k = 1; k < S; ++k) {
        const int at = int((long long)m * k / S / C * C);
        if (at > b.back() && at < m) b.push_back(at);
    }
    b.push_back(m);
    return b;
}

// The last rows (and fp32 checkpoints, when ck) of queries [q0, q0 + nq): one pass over the
// whole reference, or (fp32, more than one stretch) over the stretches, then re-swept exact.
void lastRowsPass(const Prepared& p, int q0, int nq, SdtwPrecision precision, bool absCost, float* costRow, float* ck,
                  int ckCols, int ckRows, const SdtwOptions& options, SdtwTiming& tm, gpuStream_t s) {
    DeviceBuffer<sdtw::Task> dTasks;
    DeviceBuffer<float> boundary;
    PassOut out;
    out.costRow = costRow;
    out.m = p.m;
    out.ck = ck;
    out.ckCols = ckCols;
    out.ckRows = ckRows;
    int maxLen = 1;
    for (int q = 0; q < nq; ++q) maxLen = std::max(maxLen, p.qh.lengths[q0 + q]);
    int S = 1;
    if (precision == SdtwPrecision::Fp32 && ck)
        S = options.stretches > 0 ? options.stretches : sdtwStretchCount(p.m, maxLen, nq, multiprocessorCount());
    const std::vector<int> bounds = stretchBounds(p.m, S);
    tm.stretches = int(bounds.size()) - 1;
    if (tm.stretches == 1) {
        runPass(p, q0, nq, precision, absCost, out, nullptr, dTasks, boundary, s, options.rowsPerLane,
                options.columnsPerStep, &tm.rowsPerLane, &tm.columnsPerStep);
        return;
    }
    std::vector<sdtw::Task> tasks;
    for (int q = 0; q < nq; ++q)
        for (std::size_t k = 0; k + 1 < bounds.size(); ++k) tasks.push_back(sdtw::Task{q, bounds[k], bounds[k + 1] - 1, -1});
    runPass(p, q0, nq, precision, absCost, out, &tasks, dTasks, boundary, s, options.rowsPerLane, options.columnsPerStep,
            &tm.rowsPerLane, &tm.columnsPerStep);
    reseedStretches(p, q0, nq, absCost, bounds, costRow, ck, ckCols, ckRows, options.rowsPerLane, options.columnsPerStep,
                    dTasks, boundary, tm, s);
}

// Starts (and fp32 costs) of the matches ends[i] of queries tasks[i].query: fp32 windows,
// widened while a seeded window reports a start left of it.
void runWindows(const Prepared& p, int q0, int nq, std::vector<sdtw::Task>& tasks, const float* ck, int ckCols,
                int ckRows, bool absCost, std::vector<int>& starts, std::vector<float>& costs, SdtwTiming& tm,
                gpuStream_t s) {
    constexpr int C = sdtw::kCheckpointEvery;
    starts.assign(tasks.size(), -1);
    costs.assign(tasks.size(), INFINITY);
    std::vector<int> todo(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) todo[i] = int(i);
    DeviceBuffer<sdtw::Task> dTasks;
    DeviceBuffer<float> dCost, boundary;
    DeviceBuffer<int> dStart;
    while (!todo.empty()) {
        std::vector<sdtw::Task> round;
        int maxWidth = 1, maxLen = 1;
        for (int i : todo) {
            round.push_back(tasks[i]);
            maxWidth = std::max(maxWidth, tasks[i].e - tasks[i].a + 1);
            maxLen = std::max(maxLen, p.qh.lengths[q0 + tasks[i].query]);
            tm.windowCells += (unsigned long long)(tasks[i].e - tasks[i].a + 1) * p.qh.lengths[q0 + tasks[i].query];
        }
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
        // The lean window pass keeps the stripes' boundaries in shared memory.
        const bool lean = sdtw::leanPassFits(maxLen, 16, kWarpSize);
        a.boundaryStride = lean ? 0 : 2L * ((maxWidth + 2 + 1) / 2 * 2);
        const std::size_t fit =
            lean ? round.size() : std::max<std::size_t>(1, memInfo().first / 4 / (std::size_t(a.boundaryStride) * 4));
        const int grid = int(std::min<std::size_t>({round.size(), fit, 65535}));
        if (!lean) {
            boundary.resize(std::size_t(grid) * a.boundaryStride);
            a.boundary = boundary.get();
        }
        sdtw::launchWindows(a, absCost, lean, grid, sdtw::warpsPerBlock(maxLen, 16, kWarpSize), s);
        ++tm.windowRounds;
        std::vector<int> hs(round.size());
        std::vector<float> hc(round.size());
        dStart.download(hs.data(), hs.size(), s);
        dCost.download(hc.data(), hc.size(), s);
        check(gpuStreamSynchronize(s), "stream synchronisation");
        std::vector<int> next;
        for (std::size_t r = 0; r < round.size(); ++r) {
            const int i = todo[r];
            sdtw::Task& t = tasks[i];
            if (hs[r] >= 0 || t.a == 0 || t.seed < 0) {
                starts[i] = hs[r];
                costs[i] = hc[r];
                continue;
            }
            // The best path comes from left of the window: twice as wide, on a checkpoint.
            const long a0 = long(t.e) + 1 - 2L * (t.e - t.a + 1);
            t.a = a0 <= 0 ? 0 : int(a0 / C * C);
            t.seed = t.a > 0 ? t.a / C - 1 : -1;
            next.push_back(i);
        }
        todo.swap(next);
    }
}

}  // namespace

int sdtwHalf2Span(int queryLength) { return std::max(64, 2 * queryLength); }

int sdtwStretchCount(int m, int maxLength, int count, int sms) {
    constexpr int C = sdtw::kCheckpointEvery;
    const long long minStretch = std::max<long long>(4LL * C, 16LL * std::max(1, maxLength));
    const long long warpsPerTask = std::max(1, (maxLength + 16 * kWarpSize - 1) / (16 * kWarpSize));
    const long long warps = std::max(1, count) * warpsPerTask, chip = std::max(1, sms);
    // A batch that already gives every multiprocessor 8 warps sweeps whole: the re-sweeps (a
    // few percent of the cells, on the slower seeded stripeKernel) then cost more than the
    // extra warps gain (512 x 2000 in 100,000 on the H100, 15.5 warps per multiprocessor:
    // 28.3 ms cut in 3 stretches, 23.3 ms whole).
    if (warps >= 8 * chip) return 1;
    const long long want = (32 * chip + warps - 1) / warps;
    return int(std::max<long long>(1, std::min<long long>(want, m / minStretch)));
}

void checkOptions(const SdtwOptions& o) {
    const int rows = o.rowsPerLane;
    if (rows != 0 && !sdtw::passRowsSupported(rows))
        throw EngineError(EngineError::Kind::BadInput, "rows per lane",
                          "the GPU subsequence pass takes 2, 4, 8, 16 or 32 rows per lane, not " + std::to_string(rows));
    const int cols = o.columnsPerStep;
    if (cols != 0 && cols != 2 && cols != 4 && cols != 8)
        throw EngineError(EngineError::Kind::BadInput, "columns per step",
                          "the GPU subsequence pass computes 2, 4 or 8 columns per step, not " + std::to_string(cols));
    if (cols > 2 && rows != 0 && !sdtw::leanColumnsSupported(rows, cols))
        throw EngineError(EngineError::Kind::BadInput, "columns per step",
                          std::to_string(cols) + " columns per step need 16 or 32 rows per lane, not " +
                              std::to_string(rows));
}

std::vector<std::vector<Match>> sdtwSearchBatch(const SeriesSet& queries, const Series& reference,
                                                const Params& params, SdtwTiming* timing, SdtwPrecision precision,
                                                const SdtwOptions& options) {
    checkOptions(options);
    const auto t0 = std::chrono::steady_clock::now();
    constexpr int C = sdtw::kCheckpointEvery;
    Stream stream;
    Event start, stop;
    Prepared p;
    prepare(p, queries, reference, params, precision, stream, start, options.twoKernelNormaliser);
    const int m = p.m, k = params.topk, count = p.qd.count;
    const bool absCost = params.cost == Cost::Absolute;
    const bool half2 = precision == SdtwPrecision::Half2;
    SdtwTiming tm;

    // Checkpoints (fp32): all rows of every C-th column, rows padded to kCheckpointRowAlign.
    const int ckRows = (p.maxLength + sdtw::kCheckpointRowAlign - 1) / sdtw::kCheckpointRowAlign * sdtw::kCheckpointRowAlign;
    const int ckCols = half2 ? 0 : m / C;
    // Queries per chunk: the last row and the checkpoints of a chunk's queries in at most
    // half of the free device memory.
    const std::size_t perQuery = (std::size_t(m) + std::size_t(ckCols) * ckRows) * sizeof(float);
    const int chunk = int(std::max<std::size_t>(1, std::min<std::size_t>(count, memInfo().first / 2 / perQuery)));
    DeviceBuffer<float> costRow(std::size_t(chunk) * m);
    DeviceBuffer<float> ck(std::max<std::size_t>(1, std::size_t(chunk) * ckCols * ckRows));
    DeviceBuffer<float> outCost(std::size_t(chunk) * k);
    DeviceBuffer<int> outEnd(std::size_t(chunk) * k);
    DeviceBuffer<float> pieceV;
    DeviceBuffer<int> pieceJ;
    std::vector<std::vector<Match>> result(count);
    for (int q0 = 0; q0 < count; q0 += chunk) {
        const int nq = std::min(chunk, count - q0);
        Event passStart, passStop;
        passStart.record(stream.get());
        lastRowsPass(p, q0, nq, precision, absCost, costRow.get(), half2 ? nullptr : ck.get(), ckCols, ckRows, options,
                     tm, stream.get());
        passStop.record(stream.get());
        topK(costRow.get(), p.qd.lengths.get() + q0, nq, m, k, outCost.get(), outEnd.get(), pieceV, pieceJ,
             stream.get());
        std::vector<float> hc(std::size_t(nq) * k);
        std::vector<int> he(hc.size());
        outCost.download(hc.data(), hc.size(), stream.get());
        outEnd.download(he.data(), he.size(), stream.get());
        stream.sync();
        tm.passSeconds += passStop.since(passStart) / 1000.0;
        // One window per match, ending at it: fp32 from the checkpoint about n + C columns
        // left of the end (widened when the path comes from further left); half2 unseeded
        // over the span.
        std::vector<sdtw::Task> tasks;
        std::vector<std::size_t> slot;  // index into hc/he
        for (int q = 0; q < nq; ++q) {
            const int n = p.qh.lengths[q0 + q];
            for (int r = 0; r < k; ++r) {
                const std::size_t o = std::size_t(q) * k + r;
                if (he[o] < 0) break;
                sdtw::Task t{q, 0, he[o], -1};
                if (half2) {
                    t.a = std::max(0, he[o] + 1 - sdtwHalf2Span(n));
                } else {
                    const long a0 = long(he[o]) + 1 - n - C;
                    t.a = a0 <= 0 ? 0 : int(a0 / C * C);
                    t.seed = t.a > 0 ? t.a / C - 1 : -1;
                }
                tasks.push_back(t);
                slot.push_back(o);
            }
        }
        std::vector<int> starts;
        std::vector<float> costs;
        runWindows(p, q0, nq, tasks, half2 ? nullptr : ck.get(), ckCols, ckRows, absCost, starts, costs, tm,
                   stream.get());
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const std::size_t o = slot[i];
            const float cost = half2 ? costs[i] : hc[o];
            if (!half2 && !(costs[i] == hc[o])) ++tm.windowCostMismatches;
            result[q0 + tasks[i].query].push_back(Match{double(cost), std::size_t(std::max(0, starts[i])),
                                                        std::size_t(he[o])});
        }
    }
    stop.record(stream.get());
    stream.sync();
    for (int q = 0; q < count; ++q) tm.cells += (unsigned long long)p.qh.lengths[q] * m;
    if (timing) {
        tm.kernelSeconds = stop.since(start) / 1000.0;
        tm.znormSeconds = params.znorm ? p.znormDone.since(start) / 1000.0 : 0.0;
        tm.totalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        *timing = tm;
    }
    return result;
}

std::vector<std::vector<float>> sdtwLastRows(const SeriesSet& queries, const Series& reference, const Params& params,
                                             SdtwPrecision precision, const SdtwOptions& options) {
    checkOptions(options);
    Stream stream;
    Event start;
    Prepared p;
    prepare(p, queries, reference, params, precision, stream, start, options.twoKernelNormaliser);
    const int m = p.m, count = p.qd.count;
    DeviceBuffer<float> costRow(std::size_t(count) * m);
    // fp32 stretches need the checkpoints to re-sweep from.
    const int ckRows = (p.maxLength + sdtw::kCheckpointRowAlign - 1) / sdtw::kCheckpointRowAlign * sdtw::kCheckpointRowAlign;
    const int ckCols = precision == SdtwPrecision::Fp32 && options.stretches != 1 ? m / sdtw::kCheckpointEvery : 0;
    DeviceBuffer<float> ck(std::size_t(count) * ckCols * ckRows);
    SdtwTiming tm;
    lastRowsPass(p, 0, count, precision, params.cost == Cost::Absolute, costRow.get(), ckCols ? ck.get() : nullptr,
                 ckCols, ckRows, options, tm, stream.get());
    std::vector<float> all(std::size_t(count) * m);
    costRow.download(all.data(), all.size(), stream.get());
    stream.sync();
    std::vector<std::vector<float>> rows(count);
    for (int q = 0; q < count; ++q) rows[q].assign(all.begin() + std::size_t(q) * m, all.begin() + std::size_t(q + 1) * m);
    return rows;
}

}  // namespace warplab::compute::gpu
