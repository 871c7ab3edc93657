// Batched window search on the GPU (window_gpu.h). CUDA and HIP from this one source.
#include "compute/gpu/kernels/window/window_gpu.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/device_set.h"

namespace warplab::compute::gpu {

namespace {

using u64 = unsigned long long;

// The exact statistics of window_search.cpp's znormWindow, operation for operation (the _rn
// intrinsics keep the compiler from fusing a multiply and an add, which the CPU does not do).
__device__ void windowStats(const float* x, int m, double& mean, double& sd, bool& constant) {
    double sum = 0;
    for (int i = 0; i < m; ++i) sum = __dadd_rn(sum, double(x[i]));
    mean = __ddiv_rn(sum, double(m));
    double ss = 0;
    for (int i = 0; i < m; ++i) {
        const double e = __dsub_rn(double(x[i]), mean);
        ss = __dadd_rn(ss, __dmul_rn(e, e));
    }
    sd = __dsqrt_rn(__ddiv_rn(ss, double(m)));
    constant = sd <= 1e-12 * fmax(1.0, fabs(mean));
}

__device__ inline double zOf(float x, double mean, double sd, bool constant) {
    return constant ? 0.0 : __ddiv_rn(__dsub_rn(double(x), mean), sd);
}

__device__ inline bool excludedStart(u64 s, const u64* ex, int nEx) {
    for (int r = 0; r < nEx; ++r)
        if (s >= ex[2 * r] && s <= ex[2 * r + 1]) return true;
    return false;
}

// Stage 1: a lower bound for every start of [begin, end): max(LB_Kim, LB_Keogh of the query
// envelope), rounded down to float; +inf for excluded starts.
__global__ void boundsKernel(const float* y, u64 begin, u64 end, int m, const double* q, const double* qU,
                             const double* qL, const u64* ex, int nEx, float* lb) {
    const u64 s = begin + u64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (s >= end) return;
    if (excludedStart(s, ex, nEx)) { lb[s - begin] = INFINITY; return; }
    const float* x = y + s;
    double mean, sd;
    bool constant;
    windowStats(x, m, mean, sd, constant);
    const double z0 = zOf(x[0], mean, sd, constant), zl = zOf(x[m - 1], mean, sd, constant);
    double kim = (q[0] - z0) * (q[0] - z0);
    if (m > 1) kim += (q[m - 1] - zl) * (q[m - 1] - zl);
    double keogh = 0;
    for (int j = 0; j < m; ++j) {
        const double v = zOf(x[j], mean, sd, constant);
        double d = 0;
        if (v > qU[j]) d = v - qU[j];
        else if (v < qL[j]) d = qL[j] - v;
        keogh += d * d;
    }
    lb[s - begin] = __double2float_rd(fmax(kim, keogh));
}

// Stage 2: per slot of W starts, the smallest bound and its start (the smallest on a tie).
__global__ void slotMinKernel(const float* lb, u64 count, u64 begin, u64 W, u64 slot0, u64 nSlots, float* slotLb,
                              u64* slotArg) {
    const u64 k = u64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k >= nSlots) return;
    const u64 slot = slot0 + k;
    const u64 a = slot * W > begin ? slot * W : begin;
    const u64 b = (slot + 1) * W < begin + count ? (slot + 1) * W : begin + count;
    float best = INFINITY;
    u64 arg = ~0ull;
    for (u64 s = a; s < b; ++s) {
        const float v = lb[s - begin];
        if (v < best) { best = v; arg = s; }
    }
    slotLb[k] = best;
    slotArg[k] = arg;
}

// Stage 3: compaction of the starts whose bound may not exceed the limit.
__global__ void compactKernel(const float* lb, u64 count, u64 begin, double limit, u64* list, u64 cap,
                              unsigned long long* n) {
    const u64 i = u64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= count) return;
    if (double(lb[i]) <= limit) {
        const u64 at = atomicAdd(n, 1ull);
        if (at < cap) list[at] = begin + i;
    }
}

// Non-negative doubles order like their bit patterns: the shared best-so-far is an atomicMin
// on those bits.
__device__ inline double bitsToDouble(u64 b) { return __longlong_as_double((long long)b); }
__device__ inline u64 doubleToBits(double d) { return (u64)__double_as_longlong(d); }

// Stage 4: exact z and band DTW of each listed start; +inf when abandoned. shareBest (k = 1):
// the limit tightens to the best cost any block has found.
__global__ void dtwKernel(const float* y, int m, long w, const double* q, const u64* list, u64 count, double limitIn,
                          double slackPerUnit, int shareBest, u64* best, double* scratch, double* cost) {
    const u64 tid = u64(blockIdx.x) * blockDim.x + threadIdx.x;
    const u64 stride = u64(gridDim.x) * blockDim.x;
    double* z = scratch + tid * 3 * u64(m);
    double* prev = z + m;
    double* cur = prev + m;
    const double inf = INFINITY;
    for (u64 k = tid; k < count; k += stride) {
        const float* x = y + list[k];
        double mean, sd;
        bool constant;
        windowStats(x, m, mean, sd, constant);
        for (int i = 0; i < m; ++i) z[i] = zOf(x[i], mean, sd, constant);
        double limit = limitIn;
        if (shareBest) {
            const double b = bitsToDouble(*(volatile u64*)best);
            if (b < limit) limit = b + slackPerUnit * (b + double(m));
        }
        for (int j = 0; j < m; ++j) prev[j] = cur[j] = inf;
        bool abandoned = false;
        for (long i = 0; i < m; ++i) {
            const long lo = i - w > 0 ? i - w : 0, hi = i + w < m - 1 ? i + w : m - 1;
            if (lo > 0) cur[lo - 1] = inf;
            double rowMin = inf;
            for (long j = lo; j <= hi; ++j) {
                const double d = __dsub_rn(q[i], z[j]);
                const double c = __dmul_rn(d, d);
                double v;
                if (i == 0 && j == 0) v = c;
                else {
                    const double left = j > 0 ? cur[j - 1] : inf, diag = j > 0 ? prev[j - 1] : inf;
                    v = __dadd_rn(c, fmin(fmin(prev[j], left), diag));
                }
                cur[j] = v;
                rowMin = fmin(rowMin, v);
            }
            if (rowMin > limit) { abandoned = true; break; }
            double* t = prev; prev = cur; cur = t;
        }
        const double c = abandoned ? inf : prev[m - 1];
        cost[k] = c;
        if (shareBest && c < inf) atomicMin(best, doubleToBits(c));
    }
}

// The query envelope, as window_search.cpp's (clipped to the query).
void queryEnvelope(const double* q, std::size_t m, long w, std::vector<double>& U, std::vector<double>& L) {
    U.resize(m);
    L.resize(m);
    for (long j = 0; j < long(m); ++j) {
        double u = -INFINITY, l = INFINITY;
        for (long t = std::max(0L, j - w); t <= std::min(long(m) - 1, j + w); ++t) {
            u = std::max(u, q[t]);
            l = std::min(l, q[t]);
        }
        U[std::size_t(j)] = u;
        L[std::size_t(j)] = l;
    }
}

double slackOf(double b, std::size_t m) { return 1e-6 * (b + double(m)); }

}  // namespace

std::vector<WindowCandidate> windowCandidatesDevice(const double* qzHost, std::size_t m, const float* y, std::size_t N,
                                                    const WindowSearchParams& p, WindowSearchStats* statsOut,
                                                    WindowGpuTiming* timing) {
    using K = EngineError::Kind;
    const auto t0 = std::chrono::steady_clock::now();
    if (m == 0) throw EngineError(K::BadInput, "query", "empty query");
    if (p.topk < 1) throw EngineError(K::BadParameter, "topk", "must be >= 1");
    if (N < m) return {};
    const u64 begin = p.begin, end = std::min<u64>(p.end, N - m + 1);
    if (begin >= end) return {};
    const u64 count = end - begin;
    const long w = std::min<long>(p.band, long(m));
    const int k = p.topk;
    Stream stream;
    const gpuStream_t s = stream.get();
    Event e0, e1, e2, e3;

    std::vector<double> qU, qL;
    queryEnvelope(qzHost, m, w, qU, qL);
    DeviceBuffer<double> dq, dU, dL;
    dq.upload(qzHost, m, s);
    dU.upload(qU.data(), m, s);
    dL.upload(qL.data(), m, s);
    std::vector<u64> ex;
    for (const auto& r : p.excludedStarts) { ex.push_back(r.first); ex.push_back(r.second); }
    DeviceBuffer<u64> dex(std::max<std::size_t>(1, ex.size()));
    if (!ex.empty()) dex.upload(ex.data(), ex.size(), s);

    DeviceBuffer<float> lb(count);
    e0.record(s);
    const int threads = 256;
    boundsKernel<<<unsigned((count + threads - 1) / threads), threads, 0, s>>>(
        y, begin, end, int(m), dq.get(), dU.get(), dL.get(), dex.get(), int(ex.size() / 2), lb.get());
    checkLaunch("window bounds");
    e1.record(s);

    // The bound B from k same-parity slots whose exact costs are computed now.
    const u64 W = 2 * (m / 2) + 1, slot0 = begin / W, slot1 = (end - 1) / W + 1, nSlots = slot1 - slot0;
    DeviceBuffer<float> slotLb(nSlots);
    DeviceBuffer<u64> slotArg(nSlots);
    slotMinKernel<<<unsigned((nSlots + threads - 1) / threads), threads, 0, s>>>(lb.get(), count, begin, W, slot0,
                                                                                 nSlots, slotLb.get(), slotArg.get());
    checkLaunch("window slot minima");
    std::vector<float> hSlotLb(nSlots);
    std::vector<u64> hSlotArg(nSlots);
    slotLb.download(hSlotLb.data(), nSlots, s);
    slotArg.download(hSlotArg.data(), nSlots, s);
    stream.sync();
    const double inf = std::numeric_limits<double>::infinity();
    // Per parity, the slots with the smallest bounds (a few more than k: their costs may exceed
    // their bounds).
    const std::size_t want = std::size_t(k) * 4 + 16;
    std::vector<u64> pickStarts;
    std::vector<int> pickParity;
    for (int par = 0; par < 2; ++par) {
        std::vector<u64> idx;
        for (u64 i = 0; i < nSlots; ++i)
            if (int((slot0 + i) & 1) == par && hSlotArg[i] != ~0ull && std::isfinite(hSlotLb[i])) idx.push_back(i);
        const std::size_t take = std::min(want, idx.size());
        std::partial_sort(idx.begin(), idx.begin() + long(take), idx.end(),
                          [&](u64 a, u64 b) { return hSlotLb[a] < hSlotLb[b]; });
        for (std::size_t i = 0; i < take; ++i) { pickStarts.push_back(hSlotArg[idx[i]]); pickParity.push_back(par); }
    }
    double B = inf;
    const int maxThreads = 16384;
    DeviceBuffer<u64> best(1);
    const u64 infBits = 0x7ff0000000000000ull;
    if (!pickStarts.empty()) {
        DeviceBuffer<u64> dl;
        dl.upload(pickStarts.data(), pickStarts.size(), s);
        DeviceBuffer<double> scratch(std::min<std::size_t>(pickStarts.size(), maxThreads) * 3 * m);
        DeviceBuffer<double> dc(pickStarts.size());
        best.upload(&infBits, 1, s);
        const unsigned blocks = unsigned((std::min<std::size_t>(pickStarts.size(), maxThreads) + 127) / 128);
        dtwKernel<<<blocks, 128, 0, s>>>(y, int(m), w, dq.get(), dl.get(), pickStarts.size(), inf, 1e-6, 0, best.get(),
                                          scratch.get(), dc.get());
        checkLaunch("window dtw (bound)");
        std::vector<double> hc(pickStarts.size());
        dc.download(hc.data(), hc.size(), s);
        stream.sync();
        for (int par = 0; par < 2; ++par) {
            std::vector<double> c;
            for (std::size_t i = 0; i < hc.size(); ++i)
                if (pickParity[i] == par) c.push_back(hc[i]);
            if (int(c.size()) >= k) {
                std::nth_element(c.begin(), c.begin() + (k - 1), c.end());
                B = std::min(B, c[std::size_t(k - 1)]);
            }
        }
    }
    e2.record(s);

    // Survivors: bound <= B + slack (all when B is infinite).
    const double limit = std::isfinite(B) ? B + slackOf(B, m) : inf;
    DeviceBuffer<unsigned long long> dn(1);
    std::size_t cap = std::max<std::size_t>(1024, std::size_t(k) * 1024);
    DeviceBuffer<u64> list;
    unsigned long long survivors = 0;
    for (;;) {
        list.resize(cap);
        const unsigned long long zero = 0;
        dn.upload(&zero, 1, s);
        compactKernel<<<unsigned((count + threads - 1) / threads), threads, 0, s>>>(lb.get(), count, begin, limit,
                                                                                    list.get(), cap, dn.get());
        checkLaunch("window compaction");
        dn.download(&survivors, 1, s);
        stream.sync();
        if (survivors <= cap) break;
        cap = std::size_t(survivors);
    }
    std::vector<WindowCandidate> cands;
    std::size_t abandoned = 0;
    if (survivors) {
        const std::size_t nThreads = std::min<std::size_t>(survivors, maxThreads);
        DeviceBuffer<double> scratch(nThreads * 3 * m);
        DeviceBuffer<double> dc(survivors);
        // k = 1 shares the best so far across blocks; it starts at B (a real cost).
        u64 bBits;
        std::memcpy(&bBits, &B, sizeof bBits);
        best.upload(&bBits, 1, s);
        dtwKernel<<<unsigned((nThreads + 127) / 128), 128, 0, s>>>(y, int(m), w, dq.get(), list.get(), survivors, limit,
                                                                    1e-6, k == 1 ? 1 : 0, best.get(), scratch.get(),
                                                                    dc.get());
        checkLaunch("window dtw");
        std::vector<u64> hl(survivors);
        std::vector<double> hc(survivors);
        list.download(hl.data(), survivors, s);
        dc.download(hc.data(), survivors, s);
        e3.record(s);
        stream.sync();
        for (std::size_t i = 0; i < survivors; ++i) {
            if (std::isfinite(hc[i])) cands.push_back({hc[i], std::size_t(hl[i])});
            else ++abandoned;
        }
    } else {
        e3.record(s);
        stream.sync();
    }
    if (statsOut) {
        WindowSearchStats st;
        u64 excluded = 0;
        for (const auto& r : p.excludedStarts) {
            const u64 a = std::max<u64>(r.first, begin), b = std::min<u64>(r.second, end - 1);
            if (a <= b) excluded += b - a + 1;
        }
        st.excluded = excluded;
        st.windows = count - excluded;
        st.prunedKeoghQuery = st.windows - survivors;  // LB_Kim and LB_Keogh together (one pass)
        st.abandonedDtw = abandoned;
        st.fullDtw = survivors - abandoned;
        st.exactStats = st.windows;  // every window's statistics are the exact two-pass ones
        *statsOut = st;
    }
    if (timing) {
        timing->boundsMs = e1.since(e0);
        timing->selectMs = e2.since(e1);
        timing->dtwMs = e3.since(e2);
        timing->survivors = survivors;
        timing->totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    return cands;
}

std::vector<Match> windowSearchDevice(const double* qz, std::size_t m, const float* y, std::size_t N,
                                      const WindowSearchParams& p, WindowSearchStats* stats, WindowGpuTiming* timing) {
    return selectWindowTopK(windowCandidatesDevice(qz, m, y, N, p, stats, timing), m, p.topk);
}

namespace {

// Samples [lo, hi) of the reference on the current device, searched over p's starts (global
// indices, all inside [lo, hi - m]): the candidates with global starts.
std::vector<WindowCandidate> candidatesOfPart(const double* qz, std::size_t m, const Series& reference, std::size_t lo,
                                              std::size_t hi, const WindowSearchParams& p, WindowSearchStats* stats,
                                              WindowGpuTiming* timing) {
    DeviceBuffer<float> dy;
    Stream st;
    dy.upload(reference.samples().data() + lo, hi - lo, st.get());
    st.sync();
    WindowSearchParams local = p;
    local.begin = p.begin - lo;
    local.end = p.end - lo;
    local.excludedStarts.clear();
    for (const auto& [x, y] : p.excludedStarts)
        if (y >= lo) local.excludedStarts.emplace_back(std::max(x, lo) - lo, y - lo);
    auto cands = windowCandidatesDevice(qz, m, dy.get(), hi - lo, local, stats, timing);
    for (WindowCandidate& c : cands) c.start += lo;
    return cands;
}

}  // namespace

std::vector<WindowCandidate> windowCandidates(const double* qz, std::size_t m, const Series& reference,
                                              const WindowSearchParams& p, WindowSearchStats* stats,
                                              WindowGpuTiming* timing, const std::vector<int>& devices) {
    const std::vector<int> list = resolveDevices(devices);
    const std::size_t N = reference.length;
    if (m == 0 || N < m || list.size() <= 1 || p.begin >= std::min<std::size_t>(p.end, N - m + 1)) {
        // One device (or nothing to split): the whole reference on it, as before.
        return onDevice(list.empty() ? 0 : list.front(),
                        [&] { return candidatesOfPart(qz, m, reference, 0, N, p, stats, timing); });
    }
    // An equal share of the starts per device, each on a thread of its own, reading only the
    // samples its windows cover; each share's candidates are those of a stretch
    // (window_search.h), so together they are the whole search's.
    const std::size_t begin = p.begin, end = std::min<std::size_t>(p.end, N - m + 1), D = list.size();
    std::vector<std::vector<WindowCandidate>> parts(D);
    std::vector<WindowSearchStats> partStats(D);
    runPerDevice(D, [&](std::size_t d) {
        const std::size_t s0 = begin + (end - begin) * d / D, s1 = begin + (end - begin) * (d + 1) / D;
        if (s0 >= s1) return;
        WindowSearchParams share = p;
        share.begin = s0;
        share.end = s1;
        parts[d] = onDevice(list[d], [&] {
            return candidatesOfPart(qz, m, reference, s0, s1 + m - 1, share, &partStats[d], nullptr);
        });
    });
    std::vector<WindowCandidate> all;
    WindowSearchStats sum;
    for (std::size_t d = 0; d < D; ++d) {
        all.insert(all.end(), parts[d].begin(), parts[d].end());
        sum += partStats[d];
    }
    if (stats) *stats = sum;
    return all;
}

std::vector<Match> windowSearch(const double* qz, std::size_t m, const Series& reference, const WindowSearchParams& p,
                                WindowSearchStats* stats, WindowGpuTiming* timing, const std::vector<int>& devices) {
    return selectWindowTopK(windowCandidates(qz, m, reference, p, stats, timing, devices), m, p.topk);
}

}  // namespace warplab::compute::gpu
