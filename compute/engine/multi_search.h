// Search over many references: every (recording, channel) of a study, or
// several reference files, searched one at a time with the per-series search (Engine::search
// today; the window search of `--mode window` plugs in through `SeriesSearch`), their top-k
// lists merged into one ranked list.
//
// Exactness: each source's search already applies the exclusion zone inside that source, and
// matches of different sources never exclude each other, so the k best of the union are the
// k best of the merged per-source top-k lists. Order: cost ascending; ties by source index
// (the order of `sources`), then by start sample.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/params.h"
#include "compute/core/results.h"
#include "compute/core/series.h"

namespace warplab::compute {

// One reference of a multi-source search. `load` reads its samples when its turn comes (a
// study channel of one recording, read lazily), so at most one reference is in memory.
struct SearchSource {
    std::string recording;        // file name, for results
    std::string channel;          // channel name, for results
    int recordingIndex = -1;      // the caller's indices (io::Study recording and channel)
    int channelIndex = -1;
    double rateHz = 0;            // samples per second (0: unknown, seconds are not reported)
    double clockStartS = 0;       // study clock at the reference's first sample, seconds
    std::function<Series()> load; // throws IoError naming the file when it cannot be read
};

struct SourceMatch {
    Match match;                  // start and end are samples of that source (end inclusive)
    std::size_t source = 0;       // index into the sources
    double startS = 0, endS = 0;  // match.start / rate, (match.end + 1) / rate (0 when no rate)
};

// The per-series search: top-k of `query` in `reference` (which is `source`, loaded). Default:
// Engine::search. `source` lets a caller exclude the query's own place when the query was cut
// from that very recording and channel.
using SeriesSearch = std::function<std::vector<Match>(const Series& query, const Series& reference,
                                                      const SearchSource& source, const Params& params,
                                                      const RunOptions& options)>;

// Searches every source in order (progress over all of them; cancel between and inside) and
// returns the best params.topk matches over all of them. A source shorter than the query is
// skipped (its index is appended to `skipped` when given) instead of failing the whole search.
// options.shareCount > 1 (a rank of an MPI job): only the sources i with i % shareCount ==
// shareIndex are searched, each on all of this process's cores, and a share with nothing to
// search returns nothing instead of failing (the caller decides over all shares).
std::vector<SourceMatch> searchSources(const Series& query, const std::vector<SearchSource>& sources,
                                       const Params& params, const RunOptions& options,
                                       const SeriesSearch& search = {},
                                       std::vector<std::size_t>* skipped = nullptr);

// The best k of `all` (matches that already carry their source) by the order above: merging
// the top-k lists of several shares of the sources gives the top-k of all of them.
std::vector<SourceMatch> mergeSourceMatches(std::vector<SourceMatch> all, std::size_t k);

// The merge alone: perSource[i] is source i's list (any order); returns the best k by the
// order above, with startS/endS from rates[i] (rates may be empty).
std::vector<SourceMatch> mergeTopK(const std::vector<std::vector<Match>>& perSource, std::size_t k,
                                   const std::vector<double>& rates = {});

}  // namespace warplab::compute
