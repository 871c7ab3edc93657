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
#include <functional>
#include <memory>
#include <thread>

#include "compute/gpu/runtime/device_set.h"
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

// The inputs packed and checked once on the host, for every device's prepare().
struct HostInputs {
    PackedHost qh, rh;
};

HostInputs packInputs(const SeriesSet& queries, const Series& reference, const Params& params, SdtwPrecision precision) {
    using K = EngineError::Kind;
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    validate(params);
    if (queries.empty()) throw EngineError(K::BadInput, "queries", "no series given");
    HostInputs in;
    in.qh = packSeries(queries, 0, queries.size(), "queries");
    in.rh = packSeries(SeriesSet{reference}, 0, 1, "reference");
    if (in.qh.dims != 1 || in.rh.dims != 1)
        throw EngineError(K::BadInput, "dims", "the GPU subsequence search takes univariate series");
    if (precision == SdtwPrecision::Half2 && !params.znorm) {
        // Half overflows at 65504; x - y of samples within +-32000 stays finite (a cost may
        // round up to +inf, which only loses that path).
        for (const PackedHost* set : {&in.qh, &in.rh})
            for (float v : set->values)
                if (std::fabs(v) > 32000.f)
                    throw EngineError(K::BadInput, set == &in.rh ? "reference" : "queries",
                                      "half2 precision takes samples within +-32000; z-normalise (--znorm)");
    }
    return in;
}

void prepare(Prepared& p, const HostInputs& in, const Params& params, SdtwPrecision precision, Stream& stream,
             Event& start, bool twoKernelNormaliser) {
    p.qh = in.qh;
    const PackedHost& rh = in.rh;
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

// One device's part of a search: its stream, inputs, buffers and stretches [k0, k1) of the
// reference (shares.size() == 1: the whole search on one device). Freed with its device current.
struct DeviceShare {
    struct Owned {
        Stream stream;
        Event start, stop;
        Prepared p;
        DeviceBuffer<float> costRow, ck;  // every query's last row and checkpoints, reference-wide
        DeviceBuffer<sdtw::Task> dTasks;
        DeviceBuffer<float> boundary, tmpRow, tmpCk;
        DeviceBuffer<int> dAgreed, dLengths;
        std::vector<int> agreed;
    };
    int device = -1;  // -1: the calling thread's device, nothing to switch
    int k0 = 0, k1 = 0;
    std::unique_ptr<Owned> own;
    DeviceShare() = default;
    DeviceShare(DeviceShare&&) = default;
    ~DeviceShare() {
        if (!own || device < 0) return;
        try {
            DeviceScope scope(device);
            own.reset();
        } catch (...) {
        }
    }
    // f() with this share's device current; a Device error names it.
    template <typename F>
    decltype(auto) run(F&& f) {
        if (device < 0) return std::forward<F>(f)();
        return onDevice(device, std::forward<F>(f));
    }
};

// The stretch bounds of the chunk's queries and its pass tasks [k0, k1) (every query).
std::vector<sdtw::Task> stretchTasks(const std::vector<int>& bounds, int nq, int k0, int k1) {
    std::vector<sdtw::Task> tasks;
    for (int q = 0; q < nq; ++q)
        for (int k = k0; k < k1; ++k) tasks.push_back(sdtw::Task{q, bounds[k], bounds[k + 1] - 1, -1});
    return tasks;
}

// Share d's seeds held by the share before it: every query's checkpoint before d's first column.
void copyEntrySeeds(std::vector<DeviceShare>& shares, std::size_t d, int nq, const std::vector<int>& bounds, int ckCols,
                    int ckRows) {
    constexpr int C = sdtw::kCheckpointEvery;
    DeviceShare& sh = shares[d];
    if (sh.k0 < 1 || sh.k0 >= sh.k1) return;
    std::size_t before = d - 1;  // the share holding stretch k0 - 1
    while (shares[before].k0 >= shares[before].k1 || shares[before].k1 != sh.k0) --before;
    const DeviceShare& from = shares[before];
    const std::size_t c = std::size_t(bounds[sh.k0] / C - 1);
    sh.run([&] {
        for (int q = 0; q < nq; ++q) {
            const std::size_t o = (std::size_t(q) * ckCols + c) * ckRows;
            check(gpuMemcpyPeerAsync(sh.own->ck.get() + o, sh.device, from.own->ck.get() + o, from.device,
                                     std::size_t(ckRows) * sizeof(float), sh.own->stream.get()),
                  "copy between devices");
        }
        sh.own->stream.sync();
    });
}

void sweepRemainder(std::vector<DeviceShare>& shares, int q0, int nq, bool absCost, const std::vector<int>& bounds,
                    const std::vector<int>& f, int ckCols, int ckRows, SdtwTiming& tm) {
    constexpr int C = sdtw::kCheckpointEvery;
    const int S = int(bounds.size()) - 1;
    std::vector<int> first(nq, INT_MAX);  // each query's first column not known exact
    for (int q = 0; q < nq; ++q)
        for (int k = 1; k < S; ++k)
            if (f[std::size_t(q) * S + k] < bounds[k + 1]) {
                first[q] = f[std::size_t(q) * S + k];
                break;
            }
    for (std::size_t d = 0; d < shares.size(); ++d) {
        DeviceShare& sh = shares[d];
        if (sh.k0 >= sh.k1) continue;
        const int a0 = bounds[sh.k0], e = bounds[sh.k1] - 1;
        std::vector<sdtw::Task> tasks;
        for (int q = 0; q < nq; ++q)
            if (first[q] <= e) {
                const int a = std::max(first[q], a0);
                tasks.push_back(sdtw::Task{q, a, e, a / C - 1});
                tm.reseedCells += (unsigned long long)(e - a + 1) * shares[0].own->p.qh.lengths[q0 + q];
            }
        if (tasks.empty()) continue;
        if (d > 0) copyEntrySeeds(shares, d, nq, bounds, ckCols, ckRows);
        sh.run([&] {
            DeviceShare::Owned& o = *sh.own;
            PassOut out;  // in place: a task's seed lies before its columns
            out.costRow = o.costRow.get();
            out.m = o.p.m;
            out.ck = o.ck.get();
            out.ckCols = ckCols;
            out.ckRows = ckRows;
            runPass(o.p, q0, nq, SdtwPrecision::Fp32, absCost, out, &tasks, o.dTasks, o.boundary, o.stream.get(), 0, 0);
            o.stream.sync();
        });
    }
    ++tm.reseedWaves;
    tm.sweptInOrder = true;
}

// Makes the stretched first pass exact (see SdtwOptions::stretches) on every share. bounds: the
// stretches' first columns and m. Every stretch's stored columns are one consistent sweep from
// some column before it; a stretch is re-swept from the stored column before its frontier f (the
// first column not yet known to follow the exact column before the stretch) over a window of a
// few query lengths, in one launch per share for every stretch that needs it; where the window
// reaches a stored checkpoint equal to its own, the rest of the stretch is exact, else the window
// is stored and the next wave goes on from its end. A stretch whose last column changed sends
// its successor back to its start. Stretch 0 is exact from the start, so every wave makes at
// least one more stretch exact. A share's first stretch is seeded from the checkpoint before it,
// which the share before holds: copied across before each wave, while no share runs.
//
// A signal on which the columns never agree would make that a chain of waves, each re-sweeping
// every stretch after the exact ones: after maxWaves waves the rest of each query is swept in
// order instead (sweepRemainder), one seeded task per query and share, which costs at most one
// unsplit pass.
void sweepRemainder(std::vector<DeviceShare>& shares, int q0, int nq, bool absCost, const std::vector<int>& bounds,
                    const std::vector<int>& f, int ckCols, int ckRows, SdtwTiming& tm);

void reseedStretches(std::vector<DeviceShare>& shares, int q0, int nq, bool absCost, const std::vector<int>& bounds,
                     int ckCols, int ckRows, int rows, int cols, int maxWaves, SdtwTiming& tm) {
    constexpr int C = sdtw::kCheckpointEvery;
    const int S = int(bounds.size()) - 1;
    const Prepared& p0 = shares[0].own->p;
    const int m = p0.m;
    std::vector<int> f(std::size_t(nq) * S);
    for (int q = 0; q < nq; ++q)
        for (int k = 0; k < S; ++k) f[std::size_t(q) * S + k] = k == 0 ? bounds[1] : bounds[k];
    for (DeviceShare& sh : shares)
        sh.run([&] { sh.own->dLengths.upload(p0.qh.lengths.data() + q0, std::size_t(nq), sh.own->stream.get()); });
    for (;;) {
        // This wave's tasks per share, and the window each needs.
        std::vector<std::vector<sdtw::Task>> tasks(shares.size());
        std::vector<std::vector<std::size_t>> at(shares.size());  // index into f
        bool any = false;
        for (std::size_t d = 0; d < shares.size(); ++d)
            for (int q = 0; q < nq; ++q) {
                const int window = (2 * p0.qh.lengths[q0 + q] + C - 1) / C * C + C;
                for (int k = std::max(1, shares[d].k0); k < shares[d].k1; ++k) {
                    const std::size_t i = std::size_t(q) * S + k;
                    if (f[i] >= bounds[k + 1]) continue;
                    tasks[d].push_back(sdtw::Task{q, f[i], std::min(f[i] + window, bounds[k + 1]) - 1, f[i] / C - 1});
                    at[d].push_back(i);
                    any = true;
                }
            }
        if (!any) return;
        if (tm.reseedWaves >= maxWaves) {
            sweepRemainder(shares, q0, nq, absCost, bounds, f, ckCols, ckRows, tm);
            return;
        }
        for (std::size_t d = 1; d < shares.size(); ++d)
            if (!tasks[d].empty()) copyEntrySeeds(shares, d, nq, bounds, ckCols, ckRows);
        for (std::size_t d = 0; d < shares.size(); ++d) {
            if (tasks[d].empty()) continue;
            DeviceShare& sh = shares[d];
            sh.run([&] {
                DeviceShare::Owned& o = *sh.own;
                int tmpM = C;
                for (const sdtw::Task& t : tasks[d]) tmpM = std::max(tmpM, (t.e - t.a + 1 + C - 1) / C * C);
                const int tmpCkCols = tmpM / C;
                const std::size_t count = tasks[d].size();
                o.tmpRow.resize(count * std::size_t(tmpM));
                o.tmpCk.resize(count * std::size_t(tmpCkCols) * ckRows);
                PassOut out;
                out.costRow = o.tmpRow.get();
                out.m = tmpM;
                out.ck = o.tmpCk.get();
                out.ckCols = tmpCkCols;
                out.ckRows = ckRows;
                out.seedCk = o.ck.get();
                out.seedCols = ckCols;
                out.perTaskOut = true;
                const gpuStream_t s = o.stream.get();
                runPass(o.p, q0, nq, SdtwPrecision::Fp32, absCost, out, &tasks[d], o.dTasks, o.boundary, s, rows, cols);
                o.dAgreed.resize(count);
                commitReseedKernel<<<int(std::min<std::size_t>(count, 65535)), kThreads, 0, s>>>(
                    o.dTasks.get(), int(count), o.dLengths.get(), o.tmpRow.get(), tmpM, o.tmpCk.get(), tmpCkCols,
                    o.costRow.get(), m, o.ck.get(), ckCols, ckRows, o.dAgreed.get());
                checkLaunch("sdtw stretch commit kernel");
                o.agreed.resize(count);
                o.dAgreed.download(o.agreed.data(), count, s);
            });
        }
        ++tm.reseedWaves;
        std::vector<std::size_t> restart;
        for (std::size_t d = 0; d < shares.size(); ++d) {
            if (tasks[d].empty()) continue;
            shares[d].run([&] { shares[d].own->stream.sync(); });
            for (std::size_t t = 0; t < tasks[d].size(); ++t) {
                const sdtw::Task& tk = tasks[d][t];
                const std::size_t i = at[d][t];
                const int k = int(i % S), end = bounds[k + 1];
                tm.reseedCells += (unsigned long long)(tk.e - tk.a + 1) * p0.qh.lengths[q0 + tk.query];
                if (shares[d].own->agreed[t] >= 0) {
                    f[i] = end;
                } else {
                    f[i] = tk.e + 1;
                    if (f[i] == end && k + 1 < S) restart.push_back(i + 1);  // its last column changed
                }
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

// The last rows (and fp32 checkpoints, when ck) of queries [q0, q0 + nq) into every share's
// costRow / ck: one pass over the whole reference on the one share, or (fp32, more than one
// stretch) each share's stretches, then re-swept exact (reseedStretches). Returns the bounds.
std::vector<int> lastRowsPass(std::vector<DeviceShare>& shares, int q0, int nq, SdtwPrecision precision, bool absCost,
                              bool withCk, int ckCols, int ckRows, const SdtwOptions& options, SdtwTiming& tm) {
    const Prepared& p0 = shares[0].own->p;
    int maxLen = 1;
    for (int q = 0; q < nq; ++q) maxLen = std::max(maxLen, p0.qh.lengths[q0 + q]);
    int S = 1;
    if (precision == SdtwPrecision::Fp32 && withCk)
        S = options.stretches > 0 ? options.stretches
                                  : sdtwStretchCount(p0.m, maxLen, nq, multiprocessorCount() * int(shares.size()));
    const std::vector<int> bounds = stretchBounds(p0.m, S);
    tm.stretches = int(bounds.size()) - 1;
    const int D = int(shares.size());
    for (int d = 0; d < D; ++d) {  // the first shares get a stretch more where they do not divide
        shares[d].k0 = (tm.stretches * d + D - 1) / D;
        shares[d].k1 = (tm.stretches * (d + 1) + D - 1) / D;
    }
    for (DeviceShare& sh : shares) {
        if (sh.k0 >= sh.k1) continue;
        sh.run([&] {
            DeviceShare::Owned& o = *sh.own;
            PassOut out;
            out.costRow = o.costRow.get();
            out.m = o.p.m;
            out.ck = withCk ? o.ck.get() : nullptr;
            out.ckCols = ckCols;
            out.ckRows = ckRows;
            const std::vector<sdtw::Task> tasks = stretchTasks(bounds, nq, sh.k0, sh.k1);
            runPass(o.p, q0, nq, precision, absCost, out, tm.stretches == 1 ? nullptr : &tasks, o.dTasks, o.boundary,
                    o.stream.get(), options.rowsPerLane, options.columnsPerStep, &tm.rowsPerLane, &tm.columnsPerStep);
        });
    }
    if (tm.stretches > 1)
        reseedStretches(shares, q0, nq, absCost, bounds, ckCols, ckRows, options.rowsPerLane, options.columnsPerStep,
                        options.maxReseedWaves > 0 ? options.maxReseedWaves : options.maxReseedWaves < 0 ? 0 : 48, tm);
    // Share 0 gathers the last rows (the checkpoints stay where they are: the windows fetch theirs).
    for (int d = 1; d < D; ++d) {
        DeviceShare& sh = shares[d];
        if (sh.k0 >= sh.k1) continue;
        const std::size_t a = std::size_t(bounds[sh.k0]), n = std::size_t(bounds[sh.k1]) - a;
        sh.run([&] {
            for (int q = 0; q < nq; ++q) {
                const std::size_t o = std::size_t(q) * p0.m + a;
                check(gpuMemcpyPeerAsync(shares[0].own->costRow.get() + o, shares[0].device, sh.own->costRow.get() + o,
                                         sh.device, n * sizeof(float), sh.own->stream.get()),
                      "copy between devices");
            }
            sh.own->stream.sync();
        });
    }
    return bounds;
}

// Starts (and fp32 costs) of the matches ends[i] of queries tasks[i].query: fp32 windows,
// widened while a seeded window reports a start left of it.
// fetchSeeds (may be empty) is called with each round's tasks before it runs: the seed
// checkpoints another device holds are copied into ck first.
void runWindows(const Prepared& p, int q0, int nq, std::vector<sdtw::Task>& tasks, const float* ck, int ckCols,
                int ckRows, bool absCost, std::vector<int>& starts, std::vector<float>& costs, SdtwTiming& tm,
                gpuStream_t s, const std::function<void(const std::vector<sdtw::Task>&)>& fetchSeeds = {}) {
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

namespace {

// A share per device of `devices` (empty: the calling thread's device), each with the inputs
// on it (prepare()).
std::vector<DeviceShare> makeShares(const std::vector<int>& devices, const SeriesSet& queries, const Series& reference,
                                    const Params& params, SdtwPrecision precision, const SdtwOptions& options) {
    const HostInputs in = packInputs(queries, reference, params, precision);
    std::vector<DeviceShare> shares(std::max<std::size_t>(1, devices.size()));
    for (std::size_t d = 0; d < shares.size(); ++d) shares[d].device = devices.empty() ? -1 : devices[d];
    auto prepareShare = [&](DeviceShare& sh) {
        sh.run([&] {
            sh.own = std::make_unique<DeviceShare::Owned>();
            prepare(sh.own->p, in, params, precision, sh.own->stream, sh.own->start, options.twoKernelNormaliser);
        });
    };
    if (shares.size() == 1) {
        prepareShare(shares[0]);
        return shares;
    }
    // Several devices: each uploads and normalises at once (a thread each), and they copy to
    // one another directly where they can (the gathered rows, the seeds).
    (void)connectPeers(devices);
    std::vector<std::exception_ptr> failed(shares.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t d = 0; d < shares.size(); ++d)
            threads.emplace_back([&, d] {
                try {
                    prepareShare(shares[d]);
                } catch (...) {
                    failed[d] = std::current_exception();
                }
            });
    }
    for (auto& f : failed)
        if (f) std::rethrow_exception(f);
    return shares;
}

// Several devices and a batch that fills each of them whole: the queries split in equal runs,
// a device each, on threads of their own (every query's matches are its own: nothing to merge).
std::vector<std::vector<Match>> searchSplitByQueries(const SeriesSet& queries, const Series& reference,
                                                     const Params& params, SdtwTiming* timing, SdtwPrecision precision,
                                                     const SdtwOptions& options, const std::vector<int>& devices) {
    const std::size_t D = devices.size(), count = queries.size();
    std::vector<std::vector<std::vector<Match>>> parts(D);
    std::vector<SdtwTiming> times(D);
    std::vector<std::exception_ptr> failed(D);
    {
        std::vector<std::jthread> threads;
        for (std::size_t d = 0; d < D; ++d)
            threads.emplace_back([&, d] {
                const std::size_t a = count * d / D, b = count * (d + 1) / D;
                if (a >= b) return;
                SdtwOptions one = options;
                one.devices = {devices[d]};
                try {
                    parts[d] = sdtwSearchBatch(SeriesSet(queries.begin() + long(a), queries.begin() + long(b)), reference,
                                               params, &times[d], precision, one);
                } catch (...) {
                    failed[d] = std::current_exception();
                }
            });
    }
    for (auto& f : failed)
        if (f) std::rethrow_exception(f);
    std::vector<std::vector<Match>> result;
    SdtwTiming tm;
    for (std::size_t d = 0; d < D; ++d) {
        for (auto& r : parts[d]) result.push_back(std::move(r));
        const SdtwTiming& t = times[d];
        tm.kernelSeconds = std::max(tm.kernelSeconds, t.kernelSeconds);
        tm.znormSeconds = std::max(tm.znormSeconds, t.znormSeconds);
        tm.passSeconds = std::max(tm.passSeconds, t.passSeconds);
        tm.totalSeconds = std::max(tm.totalSeconds, t.totalSeconds);
        tm.cells += t.cells;
        tm.windowCells += t.windowCells;
        tm.windowRounds = std::max(tm.windowRounds, t.windowRounds);
        tm.windowCostMismatches += t.windowCostMismatches;
        tm.reseedWaves = std::max(tm.reseedWaves, t.reseedWaves);
        tm.reseedCells += t.reseedCells;
        if (t.rowsPerLane) {
            tm.rowsPerLane = t.rowsPerLane;
            tm.columnsPerStep = t.columnsPerStep;
            tm.stretches = t.stretches;
        }
    }
    tm.devices = int(D);
    if (timing) *timing = tm;
    return result;
}

// The devices a search runs on, and whether its queries are split among them: a half2 search
// or a batch whose share per device fills that device whole splits its queries; a fp32 batch
// that does not splits the reference (its stretches) instead; one device takes it all.
struct DevicePlan {
    std::vector<int> devices;  // empty: the calling thread's device
    bool byQueries = false;
};

DevicePlan planDevices(const SeriesSet& queries, const Series& reference, SdtwPrecision precision,
                       const SdtwOptions& options) {
    DevicePlan plan;
    if (options.devices.empty()) return plan;
    plan.devices = resolveDevices(options.devices);
    const int D = int(plan.devices.size());
    if (D <= 1 || queries.empty()) return plan;
    int maxLen = 1;
    for (const Series& q : queries) maxLen = std::max(maxLen, int(q.length));
    const int share = int((queries.size() + std::size_t(D) - 1) / std::size_t(D));
    const bool fillsEach = options.stretches == 1 ||
                           sdtwStretchCount(int(reference.length), maxLen, share,
                                            onDevice(plan.devices.front(), [] { return multiprocessorCount(); })) == 1;
    if (precision == SdtwPrecision::Half2 || fillsEach) {
        if (int(queries.size()) >= D) plan.byQueries = true;
        else plan.devices.resize(1);  // too few queries to split, and no stretches to split
    }
    return plan;
}

}  // namespace

std::vector<std::vector<Match>> sdtwSearchBatch(const SeriesSet& queries, const Series& reference,
                                                const Params& params, SdtwTiming* timing, SdtwPrecision precision,
                                                const SdtwOptions& options) {
    checkOptions(options);
    const DevicePlan plan = planDevices(queries, reference, precision, options);
    if (plan.byQueries) return searchSplitByQueries(queries, reference, params, timing, precision, options, plan.devices);
    const auto t0 = std::chrono::steady_clock::now();
    constexpr int C = sdtw::kCheckpointEvery;
    std::vector<DeviceShare> shares = makeShares(plan.devices, queries, reference, params, precision, options);
    DeviceShare& s0 = shares[0];
    const Prepared& p = s0.own->p;
    const int m = p.m, k = params.topk, count = p.qd.count;
    const bool absCost = params.cost == Cost::Absolute;
    const bool half2 = precision == SdtwPrecision::Half2;
    SdtwTiming tm;
    tm.devices = int(shares.size());

    // Checkpoints (fp32): all rows of every C-th column, rows padded to kCheckpointRowAlign.
    const int ckRows = (p.maxLength + sdtw::kCheckpointRowAlign - 1) / sdtw::kCheckpointRowAlign * sdtw::kCheckpointRowAlign;
    const int ckCols = half2 ? 0 : m / C;
    // Queries per chunk: the last row and the checkpoints of a chunk's queries in at most
    // half of the free memory of every device (each holds them reference-wide, filling its own
    // stretches).
    const std::size_t perQuery = (std::size_t(m) + std::size_t(ckCols) * ckRows) * sizeof(float);
    std::size_t fit = std::size_t(count);
    for (DeviceShare& sh : shares) fit = std::min(fit, sh.run([] { return memInfo().first; }) / 2 / perQuery);
    const int chunk = int(std::max<std::size_t>(1, fit));
    for (DeviceShare& sh : shares)
        sh.run([&] {
            sh.own->costRow.resize(std::size_t(chunk) * m);
            sh.own->ck.resize(std::max<std::size_t>(1, std::size_t(chunk) * ckCols * ckRows));
        });
    DeviceBuffer<float> outCost, pieceV;
    DeviceBuffer<int> outEnd, pieceJ;
    s0.run([&] {
        outCost.resize(std::size_t(chunk) * k);
        outEnd.resize(std::size_t(chunk) * k);
    });
    std::vector<std::vector<Match>> result(count);
    for (int q0 = 0; q0 < count; q0 += chunk) {
        const int nq = std::min(chunk, count - q0);
        const auto passT0 = std::chrono::steady_clock::now();
        const std::vector<int> bounds = lastRowsPass(shares, q0, nq, precision, absCost, !half2, ckCols, ckRows, options, tm);
        std::vector<float> hc(std::size_t(nq) * k);
        std::vector<int> he(hc.size());
        s0.run([&] {
            const gpuStream_t s = s0.own->stream.get();
            check(gpuStreamSynchronize(s), "stream synchronisation");
            tm.passSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - passT0).count();
            topK(s0.own->costRow.get(), p.qd.lengths.get() + q0, nq, m, k, outCost.get(), outEnd.get(), pieceV, pieceJ, s);
            outCost.download(hc.data(), hc.size(), s);
            outEnd.download(he.data(), he.size(), s);
            check(gpuStreamSynchronize(s), "stream synchronisation");
        });
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
        // A window's seed checkpoint lies in some share's stretches: copied into share 0's first.
        auto fetchSeeds = [&](const std::vector<sdtw::Task>& round) {
            for (const sdtw::Task& t : round) {
                if (t.seed < 0) continue;
                const int col = t.seed * C + C - 1;
                for (std::size_t d = 1; d < shares.size(); ++d) {
                    if (shares[d].k0 >= shares[d].k1 || col < bounds[shares[d].k0] || col >= bounds[shares[d].k1]) continue;
                    const std::size_t o = (std::size_t(t.query) * ckCols + t.seed) * ckRows;
                    check(gpuMemcpyPeerAsync(s0.own->ck.get() + o, s0.device, shares[d].own->ck.get() + o,
                                             shares[d].device, std::size_t(ckRows) * sizeof(float), s0.own->stream.get()),
                          "copy between devices");
                }
            }
        };
        std::vector<int> starts;
        std::vector<float> costs;
        s0.run([&] {
            runWindows(p, q0, nq, tasks, half2 ? nullptr : s0.own->ck.get(), ckCols, ckRows, absCost, starts, costs, tm,
                       s0.own->stream.get(), shares.size() > 1 ? std::function(fetchSeeds) : nullptr);
        });
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const std::size_t o = slot[i];
            const float cost = half2 ? costs[i] : hc[o];
            if (!half2 && !(costs[i] == hc[o])) ++tm.windowCostMismatches;
            result[q0 + tasks[i].query].push_back(Match{double(cost), std::size_t(std::max(0, starts[i])),
                                                        std::size_t(he[o])});
        }
    }
    s0.run([&] {
        s0.own->stop.record(s0.own->stream.get());
        s0.own->stream.sync();
    });
    for (int q = 0; q < count; ++q) tm.cells += (unsigned long long)p.qh.lengths[q] * m;
    if (timing) {
        tm.kernelSeconds = s0.own->stop.since(s0.own->start) / 1000.0;
        tm.znormSeconds = params.znorm ? p.znormDone.since(s0.own->start) / 1000.0 : 0.0;
        tm.totalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        *timing = tm;
    }
    return result;
}

std::vector<std::vector<float>> sdtwLastRows(const SeriesSet& queries, const Series& reference, const Params& params,
                                             SdtwPrecision precision, const SdtwOptions& options) {
    checkOptions(options);
    DevicePlan plan = planDevices(queries, reference, precision, options);
    if (plan.byQueries) plan.devices.resize(1);  // the rows of a batch that fills a device: on one
    std::vector<DeviceShare> shares = makeShares(plan.devices, queries, reference, params, precision, options);
    const Prepared& p = shares[0].own->p;
    const int m = p.m, count = p.qd.count;
    // fp32 stretches need the checkpoints to re-sweep from.
    const int ckRows = (p.maxLength + sdtw::kCheckpointRowAlign - 1) / sdtw::kCheckpointRowAlign * sdtw::kCheckpointRowAlign;
    const int ckCols = precision == SdtwPrecision::Fp32 && options.stretches != 1 ? m / sdtw::kCheckpointEvery : 0;
    for (DeviceShare& sh : shares)
        sh.run([&] {
            sh.own->costRow.resize(std::size_t(count) * m);
            sh.own->ck.resize(std::size_t(count) * ckCols * ckRows);
        });
    SdtwTiming tm;
    lastRowsPass(shares, 0, count, precision, params.cost == Cost::Absolute, ckCols > 0, ckCols, ckRows, options, tm);
    std::vector<float> all(std::size_t(count) * m);
    shares[0].run([&] {
        shares[0].own->costRow.download(all.data(), all.size(), shares[0].own->stream.get());
        shares[0].own->stream.sync();
    });
    std::vector<std::vector<float>> rows(count);
    for (int q = 0; q < count; ++q) rows[q].assign(all.begin() + std::size_t(q) * m, all.begin() + std::size_t(q + 1) * m);
    return rows;
}

}  // namespace warplab::compute::gpu
