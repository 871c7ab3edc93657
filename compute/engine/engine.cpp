// Engine: single-pair entry points (align, search, distance), kernel choice and input
// preparation. The tiled distance matrix lives in engine_matrix.cpp.
#include "compute/engine/engine.h"

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/cpu/sdtw_parallel.h"
#include "compute/engine/device_list.h"
#include "compute/engine/engine_gpu_search.h"
#include "compute/engine/engine_prepare.h"
#include "compute/engine/engine_row_watch.h"
#include "compute/registry/registry.h"
#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/gpu/kernels/softdtw/softdtw_grad.h"
#endif

namespace warplab::compute {

using K = EngineError::Kind;

namespace detail {

const SeriesSet& prepareSet(const SeriesSet& in, const std::string& name, const Params& p,
                            SeriesSet& storage) {
    if (in.empty()) throw EngineError(K::BadInput, name, "no series given");
    for (std::size_t i = 0; i < in.size(); ++i) checkSeries(in[i], name + "[" + std::to_string(i) + "]");
    if (!p.znorm) return in;
    storage = in;
    for (auto& s : storage) znormalizeInPlace(s);
    return storage;
}

const Series& prepareOne(const Series& in, const std::string& name, const Params& p, Series& storage) {
    checkSeries(in, name);
    if (!p.znorm) return in;
    storage = znormalized(in);
    return storage;
}

}  // namespace detail

namespace {
std::string backendName(Backend b) {
    switch (b) {
        case Backend::Auto: return "auto";
        case Backend::Cpu: return "cpu";
        case Backend::Cuda: return "cuda";
        case Backend::Hip: return "hip";
    }
    return "?";
}

// Highest-priority available kernel of `backend` that supports `metric`, or null.
Kernel* bestOf(Backend backend, Metric metric) {
    Kernel* best = nullptr;
    for (Kernel* k : KernelRegistry::instance().forMetric(metric)) {
        if (k->backend() != backend || !k->unavailableReason().empty()) continue;
        if (!best || k->priority() > best->priority()) best = k;
    }
    return best;
}
}  // namespace

Kernel& Engine::resolveKernel(Metric metric, const RunOptions& options) {
    const std::string metricStr(metricName(metric));
    if (!options.kernel.empty()) {
        Kernel* k = KernelRegistry::instance().find(options.kernel);
        if (!k) throw EngineError(K::BadParameter, "kernel", "no kernel named '" + options.kernel + "'");
        if (!k->supports(metric))
            throw EngineError(K::BadParameter, "kernel", options.kernel + " does not compute " + metricStr);
        if (options.backend != Backend::Auto && k->backend() != options.backend)
            throw EngineError(K::BadParameter, "kernel",
                              options.kernel + " is not a kernel of backend " + backendName(options.backend));
        if (std::string why = k->unavailableReason(); !why.empty())
            throw EngineError(K::Device, "kernel", options.kernel + " cannot run here: " + why);
        return *k;
    }
    if (options.backend == Backend::Auto) {
        // A GPU when one is present, else all CPU cores.
        for (Backend b : {Backend::Cuda, Backend::Hip, Backend::Cpu})
            if (Kernel* k = bestOf(b, metric)) return *k;
    } else if (Kernel* k = bestOf(options.backend, metric)) {
        return *k;
    }
    throw EngineError(options.backend == Backend::Auto || options.backend == Backend::Cpu ? K::Internal : K::Device,
                      "backend", "no available " + backendName(options.backend) + " kernel computes " + metricStr);
}

Alignment Engine::align(const Series& x, const Series& y, const Params& params, bool withMatrix,
                        const RunOptions& options) {
    validate(params);
    Series xs, ys;
    const Series& xp = detail::prepareOne(x, "x", params, xs);
    const Series& yp = detail::prepareOne(y, "y", params, ys);
    checkPair(xp, "x", yp, "y", params.metric);
    // The path needs the whole accumulated matrix in memory: refuse what cannot fit rather
    // than die in the allocator (2^28 doubles = 2 GiB).
    constexpr double kMaxCells = double(1u << 28);
    if (double(xp.length) * double(yp.length) > kMaxCells)
        throw EngineError(K::BadInput, "y",
                          "an alignment of " + std::to_string(xp.length) + " x " + std::to_string(yp.length) +
                              " samples needs more than 2^28 matrix cells (2 GiB); use shorter windows");
    if (options.cancel && options.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled by the user");
    Alignment a = reference::align(xp, yp, params, withMatrix, detail::rowWatch(options));
    a.distance = detail::finish(a.distance, params);
    if (options.progress) options.progress(1.0);
    return a;
}

std::vector<Match> Engine::search(const Series& query, const Series& ref, const Params& params,
                                  const RunOptions& options) {
    validate(params);
    checkSeries(query, "query");
    checkSeries(ref, "reference");
    checkPair(query, "query", ref, "reference", Metric::Sdtw);
    if (options.cancel && options.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");
    // The GPU searches when asked for (backend cuda, or a cuda.* kernel) or, under auto, when a
    // device is present; multichannel series and every other case search on the CPU.
    const bool wantGpu = namesGpu(options);
    std::vector<Match> matches;
    bool done = false;
#if WARPLAB_HAVE_GPU
    // The linked GPU library is CUDA or HIP, never both: asking for the other one is a Device error.
#if WARPLAB_HAVE_HIP
    constexpr Backend kOtherGpu = Backend::Cuda;
#else
    constexpr Backend kOtherGpu = Backend::Hip;
#endif
    if (options.backend != kOtherGpu && (wantGpu || options.backend == Backend::Auto) && gpu::available() &&
        query.dims == 1) {
        // The device z-normalises itself, so it gets the checked inputs before znorm. Every
        // listed device (all by default) takes a share of the reference's stretches.
        const gpu::SdtwOptions o = detail::gpuSearchOptions(options);
        matches = gpu::sdtwSearchBatch(SeriesSet{query}, ref, params, nullptr, gpu::SdtwPrecision::Fp32, o).front();
        done = true;
    }
#endif
    if (!done && wantGpu)
        throw EngineError(K::Device, "backend",
                          "no available GPU searches " + std::string(query.dims == 1 ? "on this machine" : "multichannel series"));
    if (!done) {
        Series qs, rs;
        const Series& qp = detail::normalisedIfAsked(query, params, qs);
        const Series& rp = detail::normalisedIfAsked(ref, params, rs);
        if (!options.kernel.empty() && options.kernel != "cpu.reference" && options.kernel != "cpu.simd")
            throw EngineError(K::BadParameter, "kernel", options.kernel + " does not search (sdtw)");
        // cpu.reference: the one-core sweep the parallel one is held to; otherwise all cores,
        // telling progress as the columns are swept.
        matches = options.kernel == "cpu.reference"
                      ? reference::sdtwTopK(qp, rp, params.cost == Cost::Absolute, params.topk)
                      : reference::sdtwTopKParallel(qp, rp, params.cost == Cost::Absolute, params.topk, {},
                                                    options.threads, options.cancel, options.progress);
    }
    for (Match& m : matches) m.cost = detail::finish(m.cost, params);
    if (options.progress) options.progress(1.0);
    return matches;
}

double Engine::distance(const Series& x, const Series& y, const Params& params) {
    validate(params);
    Series xs, ys;
    const Series& xp = detail::prepareOne(x, "x", params, xs);
    const Series& yp = detail::prepareOne(y, "y", params, ys);
    checkPair(xp, "x", yp, "y", params.metric);
    return detail::finish(reference::rawDistance(xp, yp, params), params);
}

std::vector<double> Engine::softDtwGradient(const Series& x, const Series& y, const Params& params) {
    Params p = params;
    p.metric = Metric::SoftDtw;
    validate(p);
    if (p.znorm) throw EngineError(K::BadParameter, "znorm", "the soft-DTW gradient is taken with respect to the raw series");
    checkSeries(x, "x");
    checkSeries(y, "y");
    checkPair(x, "x", y, "y", Metric::SoftDtw);
    return reference::softDtwGradient(x, y, p.cost == Cost::Absolute, p.gamma);
}

void Engine::softDtwGradientOnDevice(const SoftDtwDeviceBatch& batch, const Params& params) {
    Params p = params;
    p.metric = Metric::SoftDtw;
    validate(p);
    if (p.znorm) throw EngineError(K::BadParameter, "znorm", "the soft-DTW gradient is taken with respect to the raw series");
#if WARPLAB_HAVE_GPU
    gpu::softDtwGradientOnDevice(batch, p);
#else
    (void)batch;
    throw EngineError(K::Device, "backend", gpuUnavailableReason());
#endif
}

}  // namespace warplab::compute
