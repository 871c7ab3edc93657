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

// One block per query: k rounds of (smallest cost, smallest end column on ties), then the
// columns end - n/2 .. end + n/2 are excluded. Fewer than k matches when the row runs out.
__global__ void topkKernel(float* costRow, const int* qLengths, int m, int k, float* outCost, int* outEnd) {
    __shared__ float bestV[kThreads];
    __shared__ int bestJ[kThreads];
    const int q = blockIdx.x;
    float* row = costRow + std::size_t(q) * m;
    const int half = qLengths[q] / 2;
    for (int round = 0; round < k; ++round) {
        float bv = INFINITY;
        int bj = INT_MAX;
        for (int j = threadIdx.x; j < m; j += blockDim.x) {
            float v = row[j];
            if (v < bv || (v == bv && j < bj)) { bv = v; bj = j; }
        }
        bestV[threadIdx.x] = bv;
        bestJ[threadIdx.x] = bj;
        __syncthreads();
        for (int w = blockDim.x / 2; w > 0; w /= 2) {
            if (threadIdx.x < w) {
                float ov = bestV[threadIdx.x + w];
                int oj = bestJ[threadIdx.x + w];
                if (ov < bestV[threadIdx.x] || (ov == bestV[threadIdx.x] && oj < bestJ[threadIdx.x])) {
                    bestV[threadIdx.x] = ov;
                    bestJ[threadIdx.x] = oj;
                }
            }
            __syncthreads();
        }
        const float v = bestV[0];
        const int j = bestJ[0];
        __syncthreads();
        const std::size_t o = std::size_t(q) * k + round;
        if (!(v < INFINITY)) {  // nothing left: mark the rest empty
            if (threadIdx.x == 0) for (int r = round; r < k; ++r) outEnd[std::size_t(q) * k + r] = -1;
            return;
        }
        if (threadIdx.x == 0) {
            outCost[o] = v;
            outEnd[o] = j;
        }
        const int a = max(0, j - half), b = min(m - 1, j + half);
        for (int c = a + threadIdx.x; c <= b; c += blockDim.x) row[c] = INFINITY;
        __syncthreads();
    }
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
    DeviceBuffer<double> qMean, qSd, rMean, rSd;  // the two-kernel normaliser's statistics
};

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
        znormTwoKernels(rd.values.get(), rd.offsets.get(), rd.lengths.get(), 1, rh.maxLength, p.rMean, p.rSd,
                        stream.get());
    } else if (params.znorm) {
        znormKernel<<<std::min(p.qd.count, 4096), kThreads, 0, stream.get()>>>(p.qd.values.get(), p.qd.offsets.get(),
                                                                                p.qd.lengths.get(), p.qd.count);
        checkLaunch("z-normalisation kernel");
        znormKernel<<<1, kThreads, 0, stream.get()>>>(rd.values.get(), rd.offsets.get(), rd.lengths.get(), 1);
        checkLaunch("z-normalisation kernel");
    }
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

// Runs the pass for queries [q0, q0 + nq) into costRow (and checkpoints when ck is given), at
// `rows` rows per lane (0: rowsPerLane chooses) and `cols` columns per step (0: columnsPerStep
// chooses; the lean pass only).
void runPass(const Prepared& p, int q0, int nq, SdtwPrecision precision, bool absCost, float* costRow, float* ck,
             int ckCols, int ckRows, DeviceBuffer<float>& boundary, gpuStream_t s, int rows, int cols,
             int* rowsUsed = nullptr, int* colsUsed = nullptr) {
    sdtw::StripeArgs a = passArgs(p, q0, nq, precision);
    a.costRow = costRow;
    a.ck = ck;
    a.ckCols = ckCols;
    a.ckRows = ckRows;
    int maxLen = 1;
    for (int i = 0; i < nq; ++i) maxLen = std::max(maxLen, p.qh.lengths[q0 + i]);
    if (rows == 0) rows = sdtw::rowsPerLane(p.qh.lengths.data() + q0, nq, kWarpSize, multiprocessorCount());
    // The lean pass needs one warp per stripe; longer queries take stripeKernel (8 or 16 rows).
    bool lean = sdtw::leanPassFits(maxLen, rows, kWarpSize);
    if (!lean && rows != 16) {
        rows = rows == 32 ? 16 : 8;
        lean = sdtw::leanPassFits(maxLen, rows, kWarpSize);
    }
    const int warps = lean ? sdtw::stripesOf(maxLen, rows, kWarpSize) : sdtw::warpsPerBlock(maxLen, rows, kWarpSize);
    cols = lean ? sdtw::columnsPerStep(rows, cols) : 2;
    if (rowsUsed) *rowsUsed = rows;
    if (colsUsed) *colsUsed = cols;
    if (lean) {
        a.boundaryStride = 0;
        a.boundary = nullptr;
    } else {
        a.boundaryStride = (a.last + 3 + 1) / 2 * 2;
    }
    const std::size_t fit =
        lean ? std::size_t(nq) : std::max<std::size_t>(1, memInfo().first / 4 / (std::size_t(a.boundaryStride) * 4));
    const int grid = int(std::min<std::size_t>({std::size_t(nq), fit, 65535}));
    if (!lean) {
        boundary.resize(std::size_t(grid) * a.boundaryStride);
        a.boundary = boundary.get();
    }
    if (precision == SdtwPrecision::Half2) sdtw::launchHalf2Pass(a, rows, cols, absCost, lean, grid, warps, s);
    else sdtw::launchFp32Pass(a, rows, cols, absCost, lean, grid, warps, s);
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
    const int rowsPerLane = options.rowsPerLane;
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
    DeviceBuffer<float> boundary, outCost(std::size_t(chunk) * k);
    DeviceBuffer<int> outEnd(std::size_t(chunk) * k);
    std::vector<std::vector<Match>> result(count);
    for (int q0 = 0; q0 < count; q0 += chunk) {
        const int nq = std::min(chunk, count - q0);
        Event passStart, passStop;
        passStart.record(stream.get());
        runPass(p, q0, nq, precision, absCost, costRow.get(), half2 ? nullptr : ck.get(), ckCols, ckRows, boundary,
                stream.get(), rowsPerLane, options.columnsPerStep, &tm.rowsPerLane, &tm.columnsPerStep);
        passStop.record(stream.get());
        topkKernel<<<nq, kThreads, 0, stream.get()>>>(costRow.get(), p.qd.lengths.get() + q0, m, k, outCost.get(),
                                                      outEnd.get());
        checkLaunch("top-k kernel");
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
    const int rowsPerLane = options.rowsPerLane;
    Stream stream;
    Event start;
    Prepared p;
    prepare(p, queries, reference, params, precision, stream, start, options.twoKernelNormaliser);
    const int m = p.m, count = p.qd.count;
    DeviceBuffer<float> costRow(std::size_t(count) * m), boundary;
    runPass(p, 0, count, precision, params.cost == Cost::Absolute, costRow.get(), nullptr, 0, 0, boundary,
            stream.get(), rowsPerLane, options.columnsPerStep);
    std::vector<float> all(std::size_t(count) * m);
    costRow.download(all.data(), all.size(), stream.get());
    stream.sync();
    std::vector<std::vector<float>> rows(count);
    for (int q = 0; q < count; ++q) rows[q].assign(all.begin() + std::size_t(q) * m, all.begin() + std::size_t(q + 1) * m);
    return rows;
}

}  // namespace warplab::compute::gpu
