// GPU subsequence search (see sdtw_gpu.h): device z-normalisation of every series in one
// launch, the shuffle wavefront with free starts (shuffle_dtw.cu) writing each query's last
// DP row with its start columns, then one block per query picking the top-k with METRICS.md's
// exclusion zone. Queries go in chunks sized to the free device memory.
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/gpu_runtime.h"
#include <algorithm>
#include <chrono>

#include "compute/gpu/gpu_device.h"
#include "compute/gpu/sdtw_gpu.h"
#include "compute/gpu/shuffle_dtw.h"

namespace warplab::compute::gpu {

namespace {

constexpr int kThreads = 256;

// One block per series: mean and population std in double, then in-place normalisation;
// a constant series (std <= 1e-12 * max(1, |mean|)) becomes zeros (METRICS.md).
__global__ void znormKernel(float* values, const long long* offsets, const int* lengths, int count) {
    __shared__ double sum[kThreads], sq[kThreads];
    for (int sIdx = blockIdx.x; sIdx < count; sIdx += gridDim.x) {
        float* v = values + offsets[sIdx];
        const int n = lengths[sIdx];
        double a = 0;
        for (int i = threadIdx.x; i < n; i += blockDim.x) a += v[i];
        sum[threadIdx.x] = a;
        __syncthreads();
        for (int w = blockDim.x / 2; w > 0; w /= 2) {
            if (threadIdx.x < w) sum[threadIdx.x] += sum[threadIdx.x + w];
            __syncthreads();
        }
        const double mean = sum[0] / n;
        double b = 0;
        for (int i = threadIdx.x; i < n; i += blockDim.x) { double e = v[i] - mean; b += e * e; }
        sq[threadIdx.x] = b;
        __syncthreads();
        for (int w = blockDim.x / 2; w > 0; w /= 2) {
            if (threadIdx.x < w) sq[threadIdx.x] += sq[threadIdx.x + w];
            __syncthreads();
        }
        const double sd = sqrt(sq[0] / n);
        const bool constant = sd <= 1e-12 * fmax(1.0, fabs(mean));
        for (int i = threadIdx.x; i < n; i += blockDim.x) v[i] = constant ? 0.f : float((v[i] - mean) / sd);
        __syncthreads();
    }
}

// One block per query: k rounds of (smallest cost, smallest end column on ties), then the
// columns end - n/2 .. end + n/2 are excluded. Fewer than k matches when the row runs out.
__global__ void topkKernel(float* costRow, const int* startRow, const int* qLengths, int m, int k,
                           float* outCost, int* outStart, int* outEnd) {
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
            outStart[o] = startRow[std::size_t(q) * m + j];
            outEnd[o] = j;
        }
        const int a = max(0, j - half), b = min(m - 1, j + half);
        for (int c = a + threadIdx.x; c <= b; c += blockDim.x) row[c] = INFINITY;
        __syncthreads();
    }
}

}  // namespace

std::vector<std::vector<Match>> sdtwSearchBatch(const SeriesSet& queries, const Series& reference,
                                                const Params& params, SdtwTiming* timing) {
    using K = EngineError::Kind;
    const auto t0 = std::chrono::steady_clock::now();
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    validate(params);
    if (queries.empty()) throw EngineError(K::BadInput, "queries", "no series given");
    SeriesSet refSet{reference};
    PackedHost qh = packSeries(queries, 0, queries.size(), "queries");
    PackedHost rh = packSeries(refSet, 0, 1, "reference");
    if (qh.dims != 1 || rh.dims != 1)
        throw EngineError(K::BadInput, "dims", "the GPU subsequence search takes univariate series");
    const int m = rh.maxLength, k = params.topk;

    Stream stream;
    PackedDevice qd, rd;
    qd.upload(qh, stream.get());
    rd.upload(rh, stream.get());
    Event start, stop;
    start.record(stream.get());
    if (params.znorm) {
        znormKernel<<<std::min(qd.count, 4096), kThreads, 0, stream.get()>>>(qd.values.get(), qd.offsets.get(), qd.lengths.get(), qd.count);
        checkLaunch("z-normalisation kernel");
        znormKernel<<<1, kThreads, 0, stream.get()>>>(rd.values.get(), rd.offsets.get(), rd.lengths.get(), 1);
        checkLaunch("z-normalisation kernel");
    }

    // Queries per chunk: the last rows (cost + start) of a chunk take 8 bytes per column each;
    // use at most half of the free memory for them.
    const std::size_t freeB = memInfo().first;
    const std::size_t perQuery = std::size_t(m) * 8;
    const int chunk = int(std::max<std::size_t>(1, std::min<std::size_t>(qd.count, freeB / 2 / perQuery)));
    DeviceBuffer<float> costRow(std::size_t(chunk) * m);
    DeviceBuffer<int> startRow(std::size_t(chunk) * m);
    DeviceBuffer<float> scratch;
    DeviceBuffer<int> pairRow(qd.count), pairCol(qd.count);
    std::vector<int> rowIdx(qd.count), zeros(qd.count, 0);
    for (int i = 0; i < qd.count; ++i) rowIdx[i] = i;
    pairRow.upload(rowIdx.data(), rowIdx.size(), stream.get());
    pairCol.upload(zeros.data(), zeros.size(), stream.get());
    DeviceBuffer<float> outCost(std::size_t(qd.count) * k);
    DeviceBuffer<int> outStart(std::size_t(qd.count) * k), outEnd(std::size_t(qd.count) * k);
    // The top-k kernel reads each chunk's query lengths from the packed set, offset per chunk.
    for (int q0 = 0; q0 < qd.count; q0 += chunk) {
        const int nq = std::min(chunk, qd.count - q0);
        // Pair rows index the whole packed set; result rows are relative to the chunk.
        PairsView pv{pairRow.get() + q0, pairCol.get(), nq, 0, nullptr};
        // costRow is indexed by the absolute query index: shift the base back by q0 rows.
        float* costBase = costRow.get() - std::ptrdiff_t(q0) * m;
        int* startBase = startRow.get() - std::ptrdiff_t(q0) * m;
        launchShuffleSdtw(qd, rd, pv, params.cost == Cost::Absolute, costBase, startBase, scratch, stream.get());
        topkKernel<<<nq, kThreads, 0, stream.get()>>>(costRow.get(), startRow.get(), qd.lengths.get() + q0, m, k,
                                                     outCost.get() + std::size_t(q0) * k,
                                                     outStart.get() + std::size_t(q0) * k,
                                                     outEnd.get() + std::size_t(q0) * k);
        checkLaunch("top-k kernel");
    }
    stop.record(stream.get());
    std::vector<float> hc(std::size_t(qd.count) * k);
    std::vector<int> hs(hc.size()), he(hc.size());
    outCost.download(hc.data(), hc.size(), stream.get());
    outStart.download(hs.data(), hs.size(), stream.get());
    outEnd.download(he.data(), he.size(), stream.get());
    stream.sync();

    std::vector<std::vector<Match>> result(qd.count);
    unsigned long long cells = 0;
    for (int q = 0; q < qd.count; ++q) {
        cells += (unsigned long long)qh.lengths[q] * m;
        for (int r = 0; r < k; ++r) {
            const std::size_t o = std::size_t(q) * k + r;
            if (he[o] < 0) break;
            result[q].push_back(Match{double(hc[o]), std::size_t(hs[o]), std::size_t(he[o])});
        }
    }
    if (timing) {
        timing->kernelSeconds = stop.since(start) / 1000.0;
        timing->totalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        timing->cells = cells;
    }
    return result;
}

}  // namespace warplab::compute::gpu
