// `warplab-cli search` over many references: --reference-study
// FOLDER|SUMMARY, several --reference files, or --reference-channel all. Every (recording,
// channel) is searched with the per-series search as it is (Engine::search, or what cmd_search
// passes, e.g. the window search) and the top-k lists are merged into one exact ranked list
// (compute/engine/multi_search.h: cost, then source order, then start).
#pragma once
#include <string>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/params.h"
#include "compute/core/series.h"
#include "compute/engine/multi_search.h"
#include "app/cli/search_modes.h"

namespace warplab::cli {

struct MultiSearchFlags {
    std::vector<std::string> references;  // --reference (one or more)
    std::string referenceStudy;           // --reference-study
    std::string referenceChannel;         // NAME, "all", or "" (then `fallbackChannel`)
    std::string fallbackChannel;          // --channel
    std::string referenceWindow;          // must be empty here (refused: a window of which file?)
    bool skipMissing = false;
};

// True when the search is over more than one (recording, channel): a study, several
// references, or --reference-channel all.
bool isMultiSearch(const MultiSearchFlags& f);

// Runs it and prints CSV `rank,cost,start,end,recording,channel,start_seconds,end_seconds,
// start_clock,end_clock` (start/end: samples of that recording, end inclusive; seconds from the
// recording start, end_seconds exclusive = (end + 1) / rate; clock times of the study).
// Throws EngineError (BadParameter "reference-channel", "reference-window"; BadInput
// "reference") naming files and channels. `log` collects what perSeries says (printed on
// stderr before the list, with the pruning counts when `printStats`). Under mpirun the sources
// are shared among the ranks (mpi_search.h) and rank 0 alone prints. With `bandKey` (a frequency
// band's key: perSeries searches that band) every row starts with it under a `band` column;
// `header` false leaves the header out (the second band's list and after).
void runMultiSearch(const compute::Series& query, const MultiSearchFlags& f, const compute::Params& params,
                    const compute::RunOptions& options, const compute::SeriesSearch& perSeries, SearchLog& log,
                    bool printStats, const std::string& bandKey = {}, bool header = true);

}  // namespace warplab::cli
