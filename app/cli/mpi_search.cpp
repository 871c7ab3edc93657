// Distributed `search` (mpi_search.h).
#include "app/cli/mpi_search.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "app/cli/mpi_job.h"
#include "app/cli/reference_parts.h"
#include "compute/core/preprocess.h"
#include "compute/cpu/sdtw_parallel.h"
#include "compute/cpu/sdtw_stretch.h"
#include "compute/engine/device_list.h"
#include "compute/engine/engine.h"

namespace warplab::cli {

namespace {
namespace ref = compute::reference;

void sendColumn(const ref::SdtwColumn& c, int to) {
    mpi::sendBytes(c.cost.data(), c.cost.size() * sizeof(double), to);
    std::vector<std::uint64_t> s(c.start.begin(), c.start.end());
    mpi::sendBytes(s.data(), s.size() * sizeof(std::uint64_t), to);
}

ref::SdtwColumn recvColumn(std::size_t n, int from) {
    ref::SdtwColumn c;
    c.cost.resize(n);
    mpi::recvBytes(c.cost.data(), n * sizeof(double), from);
    std::vector<std::uint64_t> s(n);
    mpi::recvBytes(s.data(), n * sizeof(std::uint64_t), from);
    c.start.assign(s.begin(), s.end());
    return c;
}

struct WireMatch {
    double cost;
    std::uint64_t start, end;
};

struct WireCandidate {
    double cost;
    std::uint64_t start;
};

struct WireSourceMatch {
    double cost, startS, endS;
    std::uint64_t start, end, source;
};

using mpi::recvVector;
using mpi::sendVector;

void sendText(const std::string& s, int to) { sendVector(std::vector<char>(s.begin(), s.end()), to); }

std::string recvText(int from) {
    const auto v = recvVector<char>(from);
    return std::string(v.begin(), v.end());
}
}  // namespace

namespace {
// Rank r's part [lo, hi) of `reference`, checked as a series: a bad sample is named with the
// file and where it is in the reference (one rank may be the only one to see it).
compute::Series readPart(const ReferenceParts& reference, std::size_t lo, std::size_t hi) {
    compute::Series part = reference.read(lo, hi);
    try {
        compute::checkSeries(part, "reference", lo);
    } catch (const compute::EngineError& e) {
        throw compute::EngineError(e.kind(), "", reference.path() + ": " + e.what());
    }
    return part;
}
}  // namespace

std::vector<compute::Match> searchMpi(const compute::Series& query, const ReferenceParts& reference,
                                      const compute::Params& params, const compute::RunOptions& options,
                                      const compute::SearchScope& scope) {
    compute::Series qp, part;
    ref::SdtwStretch mine;
    const int r = mpi::rank(), K = mpi::size();
    mpi::ProgressRelay relay(r == 0 ? options.progress : compute::ProgressFn{});
    const std::size_t m = reference.length();
    const std::size_t a = m * std::size_t(r) / std::size_t(K), b = m * std::size_t(r + 1) / std::size_t(K);
    const bool absCost = params.cost == compute::Cost::Absolute;
    mpi::step([&] {
        mpi::injectFailure("search");
        compute::checkSeries(query, "query");
        qp = params.znorm ? compute::znormalized(query) : query;
        if (params.znorm) {
            // The mean and std are the whole reference's: read it whole, keep the stretch.
            compute::Series z = readPart(reference, 0, m);
            compute::znormalizeInPlace(z);
            part = compute::Series(std::vector<float>(z.values.begin() + std::ptrdiff_t(a * z.dims),
                                                      z.values.begin() + std::ptrdiff_t(b * z.dims)),
                                   z.dims, z.name);
        } else {
            part = a < b ? readPart(reference, a, b) : reference.read(a, b);  // a rank may have no columns
        }
        compute::checkPair(qp, "query", part, "reference", compute::Metric::Sdtw);
        // On all of the rank's cores: the same columns as one core's sweep (sdtw_parallel.h),
        // counted from the part's first, then moved to the reference's.
        mine = ref::sdtwStretchParallel(qp, part, absCost, 0, b - a, options.threads, options.cancel, 0, true,
                                        relay.fn());
        ref::sdtwStretchShift(mine, a);
    }, [&] { relay.finish(); });
    // The boundary columns, rank to rank: rank r's exact end column needs rank r-1's.
    if (r > 0) ref::sdtwReseed(qp, part, absCost, recvColumn(qp.length, r - 1), mine, a);
    if (r + 1 < K) sendColumn(mine.endColumn, r + 1);
    // Excluded ends (self-exclusion) leave every round, as the single-process search's do.
    for (const auto& [lo, hi] : scope.excluded) ref::sdtwStretchExclude(mine, lo, hi);
    // Ends whose match overlaps the query's own place, by the starts of the exact stretch.
    for (const compute::ExcludedSpan& s : scope.spans) ref::sdtwStretchExcludeOverlapping(mine, s);

    // METRICS.md's top-k over every stretch: the best (cost, then column) of all ranks, then
    // its neighbourhood excluded everywhere.
    const std::size_t half = qp.length / 2;
    std::vector<compute::Match> out;
    std::vector<WireMatch> all(static_cast<std::size_t>(K));
    for (int round = 0; round < params.topk; ++round) {
        const compute::Match own = ref::sdtwStretchBest(mine);
        const WireMatch w{own.cost, own.start, own.end};
        mpi::allgather(&w, sizeof w, all.data());
        const WireMatch* best = nullptr;
        for (const WireMatch& c : all)
            if (c.cost < std::numeric_limits<double>::infinity() &&
                (!best || c.cost < best->cost || (c.cost == best->cost && c.end < best->end)))
                best = &c;
        if (!best) break;
        out.push_back(compute::Match{best->cost, std::size_t(best->start), std::size_t(best->end)});
        const std::size_t e = std::size_t(best->end);
        ref::sdtwStretchExclude(mine, e >= half ? e - half : 0, std::min(m - 1, e + half));
    }
    for (compute::Match& x : out)
        if (params.sqrt) x.cost = std::sqrt(x.cost);
    // The relay draws what arrived before every rank finished; the search is whole now.
    if (r == 0 && options.progress) options.progress(1.0);
    return out;
}

std::vector<compute::Match> searchMpiGpu(const compute::Series& query, const ReferenceParts& reference,
                                         const compute::Params& params, const compute::RunOptions& options,
                                         const compute::SearchScope& scope) {
    compute::Series whole;
    // What would fail one rank alone fails here, agreed, before the ranks wait on one another
    // inside the search (which agrees on its own start: no device memory, a device error).
    mpi::step([&] {
        mpi::injectFailure("search");
        compute::validate(params);
        compute::checkSeries(query, "query");
        compute::checkGpus(options.devices);
        whole = readPart(reference, 0, reference.length());
        compute::checkPair(query, "query", whole, "reference", compute::Metric::Sdtw);
        if (query.dims != 1)
            throw compute::EngineError(compute::EngineError::Kind::BadInput, "query",
                                       "the GPU searches univariate series only; give --backend cpu");
    });
    const compute::ProcessGroup ranks = mpi::processGroup();
    compute::RunOptions o = options;
    o.processes = &ranks;
    o.progress = {};  // the device pass tells none; rank 0 draws the end
    std::vector<compute::Match> out = compute::Engine::search(query, whole, params, o, scope);
    if (mpi::rank() == 0 && options.progress) options.progress(1.0);
    return out;
}

std::vector<compute::Match> windowSearchMpi(const compute::Series& query, const ReferenceParts& reference,
                                            const compute::Params& params, const compute::RunOptions& options,
                                            const compute::SearchScope& scope, compute::WindowSearchStats* stats) {
    const int r = mpi::rank(), K = mpi::size();
    std::vector<compute::WindowCandidate> mine;
    compute::WindowSearchStats myStats;
    mpi::ProgressRelay relay(r == 0 ? options.progress : compute::ProgressFn{});
    mpi::step([&] {
        mpi::injectFailure("search");
        // Starts 0 .. n - m, cut in K equal stretches [s0, s1); the rank reads the samples its
        // windows cover, [s0, s1 + m - 1) (at least one sample, so that a rank without starts
        // still checks the query as every search does).
        const std::size_t n = reference.length(), m = query.length;
        const std::size_t starts = n >= m ? n - m + 1 : 0;
        const std::size_t s0 = starts * std::size_t(r) / std::size_t(K);
        const std::size_t s1 = starts * std::size_t(r + 1) / std::size_t(K);
        const std::size_t lo = std::min(s0, n > 0 ? n - 1 : 0);
        const std::size_t hi = std::min(n, std::max(s1 + m - 1, lo + 1));
        const compute::Series part = readPart(reference, lo, hi);
        compute::SearchScope local = scope;  // in the part's starts
        local.begin = s0 - lo;
        local.end = s1 - lo;
        local.excluded.clear();
        local.spans.clear();
        std::vector<std::pair<std::size_t, std::size_t>> excluded = scope.excluded;  // global starts
        for (const compute::ExcludedSpan& s : scope.spans)
            if (auto r = compute::spanExcludedStarts(s, m)) excluded.push_back(*r);
        for (const auto& [x, y] : excluded)
            if (y >= lo) local.excluded.emplace_back(std::max(x, lo) - lo, y - lo);
        compute::RunOptions o = options;
        o.shareIndex = 0;
        o.shareCount = 1;
        o.progress = relay.fn();  // rank 0 draws the mean of every rank's
        mine = compute::Engine::windowCandidates(query, part, params, o, local, &myStats);
        for (compute::WindowCandidate& c : mine) c.start += lo;
    }, [&] { relay.finish(); });
    if (r != 0) {
        std::vector<WireCandidate> wire;
        wire.reserve(mine.size());
        for (const auto& c : mine) wire.push_back({c.cost, c.start});
        sendVector(wire, 0);
        sendVector(std::vector<compute::WindowSearchStats>{myStats}, 0);
        return {};
    }
    compute::WindowSearchStats total = myStats;
    for (int from = 1; from < K; ++from) {
        for (const WireCandidate& w : recvVector<WireCandidate>(from)) mine.push_back({w.cost, std::size_t(w.start)});
        total += recvVector<compute::WindowSearchStats>(from).front();
    }
    if (stats) *stats = total;
    auto out = compute::selectWindowTopK(std::move(mine), query.length, params.topk);
    for (compute::Match& x : out)
        if (params.sqrt) x.cost = std::sqrt(x.cost);
    // The relay draws what arrived before every rank finished; the search is whole now.
    if (r == 0 && options.progress) options.progress(1.0);
    return out;
}

MultiSearchMpiResult searchSourcesMpi(const compute::Series& query, const std::vector<compute::SearchSource>& sources,
                                      const compute::Params& params, const compute::RunOptions& options,
                                      const compute::SeriesSearch& search, SearchLog& log) {
    const int r = mpi::rank(), K = mpi::size();
    mpi::ProgressRelay relay(r == 0 ? options.progress : compute::ProgressFn{});
    compute::RunOptions o = options;
    o.progress = relay.fn();
    o.shareIndex = r;
    o.shareCount = K;
    std::vector<compute::SourceMatch> mine;
    std::vector<std::size_t> tooShort;
    mpi::step(
        [&] {
            mpi::injectFailure("search");
            mine = compute::searchSources(query, sources, params, o, search, &tooShort);
        },
        [&] { relay.finish(); });
    // Whether any rank searched anything: a source is searched unless it is too short.
    std::uint64_t searched = 0;
    for (std::size_t i = std::size_t(r); i < sources.size(); i += std::size_t(K)) ++searched;
    searched -= tooShort.size();
    std::vector<std::uint64_t> all(std::size_t(K), 0);
    mpi::allgather(&searched, sizeof searched, all.data());
    std::uint64_t total = 0;
    for (auto v : all) total += v;
    mpi::step([&] {
        if (total == 0)
            throw compute::EngineError(compute::EngineError::Kind::BadInput, "reference",
                                       "every reference is shorter than the query (" + std::to_string(query.length) +
                                           " samples)");
    });
    if (r != 0) {
        std::vector<WireSourceMatch> wire;
        for (const auto& s : mine)
            wire.push_back({s.match.cost, s.startS, s.endS, s.match.start, s.match.end, s.source});
        sendVector(wire, 0);
        sendVector(std::vector<std::uint64_t>(tooShort.begin(), tooShort.end()), 0);
        sendText(log.notes, 0);
        sendVector(std::vector<compute::WindowSearchStats>{log.stats}, 0);
        sendVector(std::vector<double>{log.seconds}, 0);
        return {};
    }
    MultiSearchMpiResult out;
    out.tooShort = tooShort;
    for (int from = 1; from < K; ++from) {
        for (const WireSourceMatch& w : recvVector<WireSourceMatch>(from))
            mine.push_back({compute::Match{w.cost, std::size_t(w.start), std::size_t(w.end)}, std::size_t(w.source), w.startS,
                            w.endS});
        for (auto i : recvVector<std::uint64_t>(from)) out.tooShort.push_back(std::size_t(i));
        log.notes += recvText(from);
        log.stats += recvVector<compute::WindowSearchStats>(from).front();
        log.seconds = std::max(log.seconds, recvVector<double>(from).front());
    }
    std::sort(out.tooShort.begin(), out.tooShort.end());
    out.matches = compute::mergeSourceMatches(std::move(mine), std::size_t(std::max(1, params.topk)));
    return out;
}

}  // namespace warplab::cli
