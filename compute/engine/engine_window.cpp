// Engine entry points of the search modes beyond subsequence DTW: z-normalised window search and
// subsequence search with a scope (self-exclusion, half2 precision). engine.cpp keeps the
// original Engine::search.
#include <algorithm>
#include <limits>
#include <string>

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/cpu/sdtw_parallel.h"
#include "compute/engine/engine.h"
#include "compute/engine/engine_gpu_search.h"
#include "compute/engine/engine_prepare.h"
#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/gpu/kernels/window/window_gpu.h"
#endif

namespace warplab::compute {

using K = EngineError::Kind;

namespace {

std::vector<double> toDouble(const Series& s) { return std::vector<double>(s.samples().begin(), s.samples().end()); }

// What every window search checks and prepares: the parameters, the two series, the
// z-normalised query and the search parameters of `scope`.
WindowSearchParams prepareWindowSearch(const Series& query, const Series& reference, const Params& params,
                                       const RunOptions& options, const SearchScope& scope, std::vector<double>& qz) {
    validate(params);
    if (params.cost != Cost::Squared)
        throw EngineError(K::BadParameter, "cost", "window search is defined for the squared cost (--cost sq) only");
    checkSeries(query, "query");
    checkSeries(reference, "reference");
    if (query.dims != 1 || reference.dims != 1)
        throw EngineError(K::BadInput, query.dims != 1 ? "query" : "reference",
                          "window search takes one channel (got " + std::to_string(std::max(query.dims, reference.dims)) +
                              ")");
    if (options.cancel && options.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");
    const std::size_t m = query.length;
    std::vector<double> qd = toDouble(query);
    qz.assign(m, 0.0);
    znormWindow(qd.data(), m, qz.data());
    WindowSearchParams wp;
    wp.band = params.band;
    wp.topk = params.topk;
    wp.begin = scope.begin;
    wp.end = scope.end;
    wp.excludedStarts = scope.excluded;
    for (const ExcludedSpan& s : scope.spans)
        if (auto r = spanExcludedStarts(s, query.length)) wp.excludedStarts.push_back(*r);
    wp.threads = options.threads;
    wp.bruteForce = options.kernel == "cpu.reference";
    return wp;
}

}  // namespace

std::vector<WindowCandidate> Engine::windowCandidates(const Series& query, const Series& reference,
                                                      const Params& params, const RunOptions& options,
                                                      const SearchScope& scope, WindowSearchStats* stats) {
    std::vector<double> qz;
    const WindowSearchParams wp = prepareWindowSearch(query, reference, params, options, scope, qz);
    if (!options.kernel.empty() && options.kernel != "cpu.reference" && options.kernel != "cpu.window" &&
        options.kernel != "cuda.window" && options.kernel != "hip.window")
        throw EngineError(K::BadParameter, "kernel",
                          options.kernel + " does not do window search (cpu.reference, cpu.window, cuda.window)");
    // On the device where a GPU is named; its candidates' costs are the CPU's bit for bit, so a
    // distributed search merges either.
#if WARPLAB_HAVE_GPU
    if (namesGpu(options) && options.kernel != "cpu.reference") {
        if (!gpu::available()) throw EngineError(K::Device, "backend", "no available GPU on this machine");
        auto cands = gpu::windowCandidates(qz.data(), query.length, reference, wp, stats, nullptr, options.devices);
        if (options.progress) options.progress(1.0);
        return cands;
    }
#endif
    if (namesGpu(options))
        throw EngineError(K::Device, "backend", "this build has no GPU window search (cuda.window)");
    return windowSearchCandidates(reference.samples().data(), reference.samples().size(), qz.data(), query.length, wp,
                                  stats, options.cancel, options.progress);
}

std::vector<Match> Engine::windowSearch(const Series& query, const Series& reference, const Params& params,
                                        const RunOptions& options, const SearchScope& scope,
                                        WindowSearchStats* stats) {
    // The candidates of the whole stretch, selected once (window_search.h).
    std::vector<Match> matches =
        selectWindowTopK(windowCandidates(query, reference, params, options, scope, stats), query.length, params.topk);
    for (Match& mt : matches) mt.cost = detail::finish(mt.cost, params);
    if (options.progress) options.progress(1.0);
    return matches;
}

std::vector<Match> Engine::search(const Series& query, const Series& ref, const Params& params,
                                  const RunOptions& options, const SearchScope& scope) {
    if (scope.excluded.empty() && scope.spans.empty() && scope.precision == SearchPrecision::Fp32 && scope.begin == 0 &&
        scope.end == SIZE_MAX)
        return search(query, ref, params, options);
    if (scope.begin != 0 || scope.end != SIZE_MAX)
        throw EngineError(K::BadParameter, "scope", "a stretch of the reference applies to window search only");
    validate(params);
    checkSeries(query, "query");
    checkSeries(ref, "reference");
    checkPair(query, "query", ref, "reference", Metric::Sdtw);
    if (options.cancel && options.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");
    std::vector<Match> matches;
    bool done = false;
    const bool half2 = scope.precision == SearchPrecision::Half2;
    // The host's z-normalised copies (qs, rs) are made only where the host computes on them;
    // the GPU normalises on the device.
    Series qs, rs;
#if WARPLAB_HAVE_GPU
    // A span to keep clear is judged by every end column's start, which the device's last row
    // does not carry: that search runs on the CPU (the series the query was cut from, once).
    if (scope.spans.empty() && (namesGpu(options) || options.backend == Backend::Auto || half2) &&
        gpu::available() && query.dims == 1) {
        const auto prec = half2 ? gpu::SdtwPrecision::Half2 : gpu::SdtwPrecision::Fp32;
        gpu::SdtwOptions o = detail::gpuSearchOptions(options);
        if (scope.excluded.empty() || !half2) {
            // fp32: the excluded ends leave the device's top-k rounds, the matches otherwise the
            // unexcluded search's. half2: the engine's own search, ends on the half row, each
            // match rescored in fp32.
            o.excludedEnds = scope.excluded;
            matches = gpu::sdtwSearchBatch(SeriesSet{query}, ref, params, nullptr, prec, o).front();
        } else {
            // Ends from the device's last row with the excluded ends masked, chosen by the
            // METRICS.md greedy on the host; each reported end's cost and start recomputed on the
            // CPU in double over the sdtwHalf2Span(n) columns ending at it (the same window the
            // device's half2 rescoring uses).
            const Series& qp = detail::normalisedIfAsked(query, params, qs);
            const Series& rp = detail::normalisedIfAsked(ref, params, rs);
            std::vector<float> row = gpu::sdtwLastRows(SeriesSet{query}, ref, params, prec, o).front();
            const std::size_t M = row.size(), half = qp.length / 2;
            std::vector<double> cost(row.begin(), row.end());
            const double inf = std::numeric_limits<double>::infinity();
            for (const auto& r : scope.excluded)
                for (std::size_t j = r.first; j <= r.second && j < M; ++j) cost[j] = inf;
            const std::size_t span = std::size_t(gpu::sdtwHalf2Span(int(qp.length)));
            for (int r = 0; r < params.topk; ++r) {
                std::size_t best = M;
                for (std::size_t j = 0; j < M; ++j)
                    if (cost[j] < inf && (best == M || cost[j] < cost[best])) best = j;
                if (best == M) break;
                const std::size_t lo = best + 1 >= span ? best + 1 - span : 0;
                Series win(std::vector<float>(rp.samples().begin() + lo, rp.samples().begin() + best + 1));
                const auto acc = reference::sdtwMatrix(qp, win, params.cost == Cost::Absolute);
                const std::size_t w = win.length;
                const auto path = reference::sdtwBacktrack(acc, qp.length, w, w - 1);
                matches.push_back(Match{acc[(qp.length - 1) * w + w - 1], lo + path.front().second, best});
                const std::size_t a = best >= half ? best - half : 0, b = std::min(M - 1, best + half);
                for (std::size_t j = a; j <= b; ++j) cost[j] = inf;
            }
        }
        done = true;
    }
#endif
    if (!done && half2 && scope.spans.empty())
        throw EngineError(K::Device, "precision", "half2 needs a CUDA or HIP device (none available here)");
    if (!done && namesGpu(options) && scope.spans.empty())
        throw EngineError(K::Device, "backend", "no available GPU searches on this machine");
    if (!done) {
        if (scope.spans.empty() && !options.kernel.empty() && options.kernel != "cpu.reference" &&
            options.kernel != "cpu.simd")
            throw EngineError(K::BadParameter, "kernel", options.kernel + " does not search (sdtw)");
        // cpu.reference: the one-core sweep the parallel one is held to; otherwise all cores,
        // telling progress as the columns are swept.
        const Series& qp = detail::normalisedIfAsked(query, params, qs);
        const Series& rp = detail::normalisedIfAsked(ref, params, rs);
        matches = options.kernel == "cpu.reference"
                      ? reference::sdtwTopK(qp, rp, params.cost == Cost::Absolute, params.topk, scope.excluded,
                                            scope.spans)
                      : reference::sdtwTopKParallel(qp, rp, params.cost == Cost::Absolute, params.topk,
                                                    scope.excluded, options.threads, options.cancel, options.progress,
                                                    scope.spans);
    }
    for (Match& mt : matches) mt.cost = detail::finish(mt.cost, params);
    if (options.progress) options.progress(1.0);
    return matches;
}

}  // namespace warplab::compute
