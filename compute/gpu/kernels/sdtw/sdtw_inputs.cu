// The GPU subsequence search's inputs on a device (sdtw_search_parts.h): packed and checked once
// on the host, uploaded, z-normalised on the device (the queries one block each or in two
// launches, the reference by pieces, so that 40 hours are not reduced by one block), the
// reference padded for the passes (and packed in pairs for half2).
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>
#include <cmath>

#include "compute/gpu/kernels/sdtw/sdtw_search_parts.h"
#include "compute/gpu/runtime/gpu_device.h"

namespace warplab::compute::gpu::sdtw {

namespace {

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

// Statistics of one long series (the reference) by many blocks: each sums a piece of
// kStatsPiece samples in seriesStats' order, then one thread adds the pieces in order, so that a
// reference of 40 hours is not reduced by one block; a series of one piece gets seriesStats'
// values bit for bit. mean == nullptr: the sum of the samples, else of their squared deviations.
constexpr int kStatsPiece = 65536;
// Samples each thread loads before it adds them: one load at a time made each of the piece's 256
// loads per thread wait for the one before (102 us for a 100,000-sample reference, 2 blocks on an
// H100); 16 loads in flight take a sixteenth of the latency.
constexpr int kStatsLoads = 16;

__global__ void pieceSumKernel(const float* v, int n, const double* mean, double* part) {
    __shared__ double sum[kThreads];
    const int a = blockIdx.x * kStatsPiece, b = min(n, a + kStatsPiece);
    const int stride = int(blockDim.x);
    const double mu = mean ? *mean : 0.0;
    double acc = 0;
    // Each thread adds its samples a + t, a + t + stride, ... in that order, as one load per step
    // did: the loads only come earlier, the sums are the same operations in the same order (the
    // squared deviation's fma is the contraction nvcc made of `acc += e * e`), so bit for bit.
    for (int i0 = a + int(threadIdx.x); i0 < b; i0 += kStatsLoads * stride) {
        float r[kStatsLoads];
#pragma unroll
        for (int u = 0; u < kStatsLoads; ++u) {
            const int i = i0 + u * stride;
            r[u] = i < b ? v[i] : 0.f;
        }
#pragma unroll
        for (int u = 0; u < kStatsLoads; ++u) {
            if (i0 + u * stride < b) {
                if (mean) {
                    const double e = double(r[u]) - mu;
                    acc = fma(e, e, acc);
                } else {
                    acc += double(r[u]);
                }
            }
        }
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

}  // namespace

namespace {

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

}  // namespace

HostInputs packInputs(const SeriesSet& queries, const Series& reference, const Params& params, SdtwPrecision precision,
                      bool referenceChecked) {
    using K = EngineError::Kind;
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    validate(params);
    if (queries.empty()) throw EngineError(K::BadInput, "queries", "no series given");
    HostInputs in;
    in.qh = packSeries(queries, 0, queries.size(), "queries");
    in.reference = &reference;
    if (in.qh.dims != 1 || reference.dims != 1)
        throw EngineError(K::BadInput, "dims", "the GPU subsequence search takes univariate series");
    if (reference.length == 0 || reference.samples().size() != reference.length)
        throw EngineError(K::BadInput, "reference", "empty series");
    if (reference.length > std::size_t(1) << 30) throw EngineError(K::BadInput, "reference", "longer than 2^30 samples");
    const std::span<const float> r = reference.samples();
    for (std::size_t k = 0; !referenceChecked && k < r.size(); ++k)
        if (!std::isfinite(r[k]))
            throw EngineError(K::BadInput, "reference",
                              "sample " + std::to_string(k) + " is " + (std::isnan(r[k]) ? "NaN" : "infinite"));
    if (precision == SdtwPrecision::Half2 && !params.znorm) {
        // Half overflows at 65504; x - y of samples within +-32000 stays finite (a cost may
        // round up to +inf, which only loses that path).
        const std::span<const float> sets[] = {in.qh.values, r};
        for (const std::span<const float>& set : sets)
            for (float v : set)
                if (std::fabs(v) > 32000.f)
                    throw EngineError(K::BadInput, set.data() == r.data() ? "reference" : "queries",
                                      "half2 precision takes samples within +-32000; z-normalise (--znorm)");
    }
    return in;
}

void prepare(Prepared& p, const HostInputs& in, const Params& params, SdtwPrecision precision, Stream& stream,
             Event& start, bool twoKernelNormaliser) {
    // The host side keeps the queries' layout only: their samples are uploaded from the packed
    // inputs (a copy of 512 x 2,000 samples per call is host time the device waits for).
    p.L = p.h = 0;  // (a kept share's: set again for half2 below)
    p.qh.values.clear();
    p.qh.offsets = in.qh.offsets;
    p.qh.lengths = in.qh.lengths;
    p.qh.dims = in.qh.dims;
    p.qh.maxLength = in.qh.maxLength;
    p.qh.minLength = in.qh.minLength;
    const Series& ref = *in.reference;
    p.m = int(ref.length);
    p.maxLength = p.qh.maxLength;
    p.qd.upload(in.qh, stream.get());
    // The reference straight into the padded pass input, normalised there.
    p.y.resize(std::size_t(p.m) + kPadY);
    check(gpuMemsetAsync(p.y.get() + p.m, 0, kPadY * sizeof(float), stream.get()), "memset");
    p.y.upload(ref.samples().data(), ref.samples().size(), stream.get());
    start.record(stream.get());
    if (params.znorm && twoKernelNormaliser) {
        znormTwoKernels(p.qd.values.get(), p.qd.offsets.get(), p.qd.lengths.get(), p.qd.count, p.qh.maxLength, p.qMean,
                        p.qSd, stream.get());
    } else if (params.znorm) {
        znormKernel<<<std::min(p.qd.count, 4096), kThreads, 0, stream.get()>>>(p.qd.values.get(), p.qd.offsets.get(),
                                                                                p.qd.lengths.get(), p.qd.count);
        checkLaunch("z-normalisation kernel");
    }
    if (params.znorm) {
        const long long zero = 0;
        p.rOffset.upload(&zero, 1, stream.get());
        p.rLength.upload(&p.m, 1, stream.get());
        znormLong(p.y.get(), p.rOffset.get(), p.rLength.get(), p.m, p, stream.get());
    }
    p.znormDone.record(stream.get());
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

}  // namespace warplab::compute::gpu::sdtw
