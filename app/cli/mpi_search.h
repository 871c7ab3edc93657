// `mpirun -n K warplab-cli search ...` (docs/SCALING.md): the reference is cut into K equal
// stretches of end columns, one per rank, each swept on the rank's cores (compute/cpu/sdtw_parallel.h);
// the exact DP column at each stretch boundary is then handed from rank to rank, each rank
// correcting the start of its stretch until it agrees with its first pass. The top-k rule of
// METRICS.md runs over all stretches together: each round every rank offers its best end
// column, the smallest (cost, then column) wins and every rank excludes its neighbourhood. The
// matches are those of the single-process CPU search, bit for bit.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "compute/core/params.h"
#include "compute/core/results.h"
#include "compute/core/series.h"
#include "compute/cpu/window_search.h"
#include "compute/engine/multi_search.h"
#include "app/cli/search_modes.h"

namespace warplab::cli {

class ReferenceParts;

// Every rank calls it with the same inputs (raw; checked and z-normalised here as
// Engine::search does) and reads only its stretch of the reference (reference_parts.h), or the
// whole of it with --znorm (the reference's mean and std). Every rank returns the matches.
// scope.excluded: ends never reported (self-exclusion); half2 and stretches are not split here.
// `options`: threads, cancel, and progress (drawn by rank 0 alone, the mean over the ranks).
std::vector<compute::Match> searchMpi(const compute::Series& query, const ReferenceParts& reference,
                                      const compute::Params& params, const compute::RunOptions& options,
                                      const compute::SearchScope& scope = {});

// The same search on the ranks' GPUs (a GPU named, or --backend auto with one on every rank):
// every rank reads the whole reference (the device z-normalises it, as one process does), sweeps
// an equal run of its stretches on its devices, and the ranks hand the exact column at each
// boundary on (gpu::SdtwOptions::processes). The matches are the single-process GPU search's,
// bit for bit (fp32); rank 0 returns them, the others nothing.
std::vector<compute::Match> searchMpiGpu(const compute::Series& query, const ReferenceParts& reference,
                                         const compute::Params& params, const compute::RunOptions& options,
                                         const compute::SearchScope& scope = {});

// `--mode window` under mpirun: the starts cut into K equal stretches, one per rank (on its
// GPU where `options` name one, else on all of its cores), reading only the samples its windows
// cover; each rank's candidates (Engine::windowCandidates) go to rank 0, which selects the top-k
// once: the single-process matches, bit for bit (CPU and GPU give the same). `scope.excluded` holds the
// excluded starts; `params` is the window search's (cdtw, band, k, sqrt). Rank 0 returns the
// matches and, in `stats`, every rank's pruning counts summed; the other ranks return nothing.
std::vector<compute::Match> windowSearchMpi(const compute::Series& query, const ReferenceParts& reference,
                                            const compute::Params& params, const compute::RunOptions& options,
                                            const compute::SearchScope& scope, compute::WindowSearchStats* stats);

// A search over many references (a study, several files, every channel) under mpirun: rank r
// searches the sources r, r + K, r + 2K, ... with `search` on its cores; every rank's top-k
// (with the sources' global indices), the indices of its sources shorter than the query and
// its `log` (stderr notes, pruning counts) go to rank 0, which merges the lists with
// compute::mergeSourceMatches (the single-process order, so the same list). Rank 0 returns the
// merged list, the short sources ascending, and in `log` every rank's notes in rank order, the
// summed counts and the longest search time; the other ranks return nothing. Fails on every
// rank when every source is shorter than the query.
struct MultiSearchMpiResult {
    std::vector<compute::SourceMatch> matches;
    std::vector<std::size_t> tooShort;
};
MultiSearchMpiResult searchSourcesMpi(const compute::Series& query, const std::vector<compute::SearchSource>& sources,
                                      const compute::Params& params, const compute::RunOptions& options,
                                      const compute::SeriesSearch& search, SearchLog& log);

}  // namespace warplab::cli
