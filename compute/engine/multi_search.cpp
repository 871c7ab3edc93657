#include "compute/engine/multi_search.h"

#include <algorithm>

#include "compute/core/error.h"
#include "compute/engine/engine.h"

namespace warplab::compute {

std::vector<SourceMatch> mergeTopK(const std::vector<std::vector<Match>>& perSource, std::size_t k,
                                   const std::vector<double>& rates) {
    std::vector<SourceMatch> all;
    for (std::size_t i = 0; i < perSource.size(); ++i)
        for (const Match& m : perSource[i]) {
            SourceMatch s{m, i, 0, 0};
            const double rate = i < rates.size() ? rates[i] : 0;
            if (rate > 0) {
                s.startS = double(m.start) / rate;
                s.endS = double(m.end + 1) / rate;
            }
            all.push_back(s);
        }
    return mergeSourceMatches(std::move(all), k);
}

std::vector<SourceMatch> mergeSourceMatches(std::vector<SourceMatch> all, std::size_t k) {
    // Cost ascending; ties by source order, then by start (the rule stated in the header).
    std::stable_sort(all.begin(), all.end(), [](const SourceMatch& a, const SourceMatch& b) {
        if (a.match.cost != b.match.cost) return a.match.cost < b.match.cost;
        if (a.source != b.source) return a.source < b.source;
        return a.match.start < b.match.start;
    });
    if (all.size() > k) all.resize(k);
    return all;
}

std::vector<SourceMatch> searchSources(const Series& query, const std::vector<SearchSource>& sources,
                                       const Params& params, const RunOptions& options, const SeriesSearch& search,
                                       std::vector<std::size_t>* skipped) {
    if (sources.empty()) throw EngineError(EngineError::Kind::BadInput, "reference", "no reference to search in");
    const SeriesSearch run =
        search ? search : SeriesSearch([](const Series& q, const Series& r, const SearchSource&, const Params& p,
                                          const RunOptions& o) { return Engine::search(q, r, p, o); });
    std::vector<std::vector<Match>> lists(sources.size());
    std::vector<double> rates(sources.size());
    std::size_t searched = 0;
    const std::size_t shares = std::size_t(std::max(1, options.shareCount)), share = std::size_t(options.shareIndex);
    const std::size_t mine = (sources.size() + shares - 1 - share) / shares;  // i = share, share + shares, ...
    std::size_t done = 0;
    for (std::size_t i = share; i < sources.size(); i += shares, ++done) {
        if (options.cancel && options.cancel->cancelled()) throw EngineError(EngineError::Kind::Cancelled, "", "cancelled");
        rates[i] = sources[i].rateHz;
        const Series ref = sources[i].load();
        if (ref.length < query.length) {
            if (skipped) skipped->push_back(i);
            continue;
        }
        RunOptions o = options;
        o.shareIndex = 0;  // the share is of the sources; each is searched whole
        o.shareCount = 1;
        if (options.progress) {
            const double n = double(mine);
            o.progress = [&options, done, n](double f) { options.progress((double(done) + f) / n); };
        }
        lists[i] = run(query, ref, sources[i], params, o);
        ++searched;
    }
    if (shares > 1) {
        if (options.progress) options.progress(1.0);
        return mergeTopK(lists, std::size_t(std::max(1, params.topk)), rates);
    }
    if (searched == 0)
        throw EngineError(EngineError::Kind::BadInput, "reference",
                          "every reference is shorter than the query (" + std::to_string(query.length) + " samples)");
    if (options.progress) options.progress(1.0);
    return mergeTopK(lists, std::size_t(std::max(1, params.topk)), rates);
}

}  // namespace warplab::compute
