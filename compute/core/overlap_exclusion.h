// The exclusion of a query's own place from a search of the series it was cut from: no
// reported match may overlap the query's span [first, last] (reference samples, inclusive) by
// more than `tolerance` samples. Tolerance 0: no shared sample at all. One rule for every
// search (the GUI's, the CLI's one-series, study-wide and MPI searches): docs/SEARCH.md.
//
// The excluded matches are removed BEFORE the greedy top-k selection of METRICS.md, so they
// leave no exclusion zone behind and the k reported matches are the greedy top-k of the
// matches that do not overlap the query. Subsequence DTW: the match ending at column j starts
// where backtracking from j reaches (its start column), so every end column whose match
// overlaps is masked. Window search: a window's span is [s, s + m - 1], so the masked starts
// form one interval (spanExcludedStarts).
#pragma once
#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

namespace warplab::compute {

struct ExcludedSpan {
    std::size_t first = 0, last = 0;  // inclusive, reference samples
    std::size_t tolerance = 0;        // samples of overlap still allowed
};

// Samples shared by [start, end] and the span (0 when disjoint).
inline std::size_t overlapSamples(std::size_t start, std::size_t end, const ExcludedSpan& s) {
    const std::size_t lo = std::max(start, s.first), hi = std::min(end, s.last);
    return lo <= hi ? hi - lo + 1 : 0;
}

// Whether the match [start, end] is excluded by the span.
inline bool overlapsBeyond(std::size_t start, std::size_t end, const ExcludedSpan& s) {
    return overlapSamples(start, end, s) > s.tolerance;
}

// Window search: the starts s whose window [s, s + m - 1] overlaps the span by more than the
// tolerance, as one inclusive interval, or none.
inline std::optional<std::pair<std::size_t, std::size_t>> spanExcludedStarts(const ExcludedSpan& s, std::size_t m) {
    const std::size_t spanLen = s.last - s.first + 1;
    if (m == 0 || std::min(m, spanLen) <= s.tolerance) return std::nullopt;
    // overlap > t  <=>  s + m - 1 >= first + t  and  s <= last - t
    const std::size_t need = s.first + s.tolerance + 1;  // s + m >= need
    const std::size_t lo = need > m ? need - m : 0;
    const std::size_t hi = s.last - s.tolerance;
    if (lo > hi) return std::nullopt;
    return std::make_pair(lo, hi);
}

}  // namespace warplab::compute
