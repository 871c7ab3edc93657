// How the Search options bar's choice becomes the engine's search: the query's own place
// excluded (overlap_exclusion.h) unless "include the query itself" is ticked, half2 precision
// for the subsequence pass, and for a window search cdtw with squared cost and a band that is
// the chosen share of the query's length. The one-channel search and the per-band search both
// take it from here, so that they search alike.
#pragma once
#include <cstddef>

#include "compute/core/params.h"
#include "compute/cpu/window_search.h"
#include "widgets/search_options_bar.h"

namespace warplab::app {

// `p` arrives as the sdtw parameters of the search and leaves as what the engine is given;
// `firstSample` is the query's first sample (floor of its start times the rate, as
// Document::segment cuts it) and `m` its length in samples.
compute::SearchScope applySearchChoice(const widgets::SearchChoice& choice, std::size_t firstSample, std::size_t m,
                                       double rate, compute::Params& p);

}  // namespace warplab::app
