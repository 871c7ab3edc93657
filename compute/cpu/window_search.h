// Exact z-normalised window search under band DTW (the UCR Suite's problem; Rakthanmanon et
// al., KDD 2012), on the CPU: a brute-force reference and a pruned, parallel path that must
// return the same matches, bit for bit.
//
// Definition (docs/SEARCH.md holds the same text):
//   q = the query (length m) z-normalised; for every start s of the searched stretch, the
//   window y[s .. s+m-1] is z-normalised on its own: mean and population std computed in
//   double by two passes (sum, then sum of squared deviations, in sample order), a constant
//   window (std <= 1e-12 * max(1, |mean|)) becomes all zeros; z = (y - mean) / std in double.
//   cost(s) = band DTW of q against the window: squared local cost, Sakoe-Chiba half-width w
//   (|i - j| <= w), accumulated in double exactly as METRICS.md's DTW, no square root.
//   Top-k: take the window with the smallest cost (the smallest start on a tie), exclude every
//   start within +-floor(m/2) of it, repeat k times (fewer when the starts run out).
//   Matches are (cost, start, end = start + m - 1).
//
// Exactness: both paths compute the final cost of a window with the same two-pass statistics
// and the same DTW cell arithmetic, so a window that is not pruned has the identical double
// cost. (The pruned path's early-abandoning DTW decides on the z of its running statistics,
// under a limit raised to cover their error; a window it does not abandon is computed again
// from its exact z: window_search.cpp.) Pruning is done against a bound B that is provably >= the k-th selected cost (k
// windows pairwise at least 2*floor(m/2)+1 apart, each with cost <= B: every greedy exclusion
// interval holds at most one of them, so each of the first k picks has cost <= B). A window
// is dropped only when a lower bound exceeds B + tol, where tol covers the rounding of the
// running mean/std used by the bounds (see window_search.cpp), so nothing that could be
// picked (cost <= B, ties included) is ever dropped.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/overlap_exclusion.h"
#include "compute/core/results.h"

namespace warplab::compute {


struct WindowSearchParams {
    long band = 0;       // Sakoe-Chiba half-width w >= 0 (>= m-1 means unconstrained)
    int topk = 1;        // k >= 1
    // The stretch of starts searched, in global reference indices: starts s with
    // begin <= s < end and s + m <= reference length (end is clipped to that). A rank of a
    // distributed search passes its own stretch; the window itself may read up to m-1 samples
    // past `end`.
    std::size_t begin = 0, end = SIZE_MAX;
    // Starts never evaluated nor reported, inclusive [first, last] (self-exclusion).
    std::vector<std::pair<std::size_t, std::size_t>> excludedStarts;
    bool bruteForce = false;  // every window by the full two-pass z-norm and full DTW
    int threads = 0;          // 0 = all cores (ignored by bruteForce, which is one thread)
    bool simd = true;         // AVX-512 or AVX2 bounds where the CPU has them (false: scalar; tests compare)
};

// How many windows each stage removed (--stats). windows = evaluated starts.
struct WindowSearchStats {
    std::uint64_t windows = 0, excluded = 0, exactStats = 0, prunedKim = 0, prunedKeoghQuery = 0,
                  prunedKeoghWindow = 0, abandonedDtw = 0, fullDtw = 0;
    // Another part's counts (a thread, a stretch, a source, a rank) added to these.
    WindowSearchStats& operator+=(const WindowSearchStats& s) {
        windows += s.windows;
        excluded += s.excluded;
        exactStats += s.exactStats;
        prunedKim += s.prunedKim;
        prunedKeoghQuery += s.prunedKeoghQuery;
        prunedKeoghWindow += s.prunedKeoghWindow;
        abandonedDtw += s.abandonedDtw;
        fullDtw += s.fullDtw;
        return *this;
    }
};

// What an Engine search covers besides its Params (engine.h windowSearch / search).
enum class SearchPrecision { Fp32, Half2 };
struct SearchScope {
    std::size_t begin = 0, end = SIZE_MAX;  // window mode: stretch of starts, global indices
    // Inclusive [first, last] ranges never reported: starts (window mode) or ends (subsequence).
    std::vector<std::pair<std::size_t, std::size_t>> excluded;
    // Spans no reported match may overlap (beyond each one's tolerance): the query's own place
    // (overlap_exclusion.h). Masked before the top-k selection, like `excluded`.
    std::vector<ExcludedSpan> spans;
    SearchPrecision precision = SearchPrecision::Fp32;  // subsequence on a GPU only
};

// The places METRICS.md's exclusion zone removes around `at` (a start in window mode, an end in
// subsequence mode) for a query of length m: [at - floor(m/2), at + floor(m/2)], clipped at 0.
// A query's own place is excluded with it, as if it had been reported first.
inline std::pair<std::size_t, std::size_t> exclusionZone(std::size_t at, std::size_t m) {
    const std::size_t h = m / 2;
    return {at >= h ? at - h : 0, at + h};
}

// A window whose cost was computed in full (a candidate of the greedy top-k selection).
struct WindowCandidate {
    double cost;
    std::size_t start;
};

// All candidates of the stretch that may be among the top-k of ANY superset of the stretch:
// every evaluated window with cost <= the final bound B (see above). Merging stretches of one
// reference exactly: concatenate the candidate lists of all stretches and call
// selectWindowTopK on the union (a stretch's B bounds the global k-th cost too). `progress`
// (may be empty) is told the fraction of the stretch's starts searched as they are.
std::vector<WindowCandidate> windowSearchCandidates(const double* reference, std::size_t referenceLength,
                                                    const double* query, std::size_t m,
                                                    const WindowSearchParams& p, WindowSearchStats* stats,
                                                    const CancelToken* cancel, const ProgressFn& progress = {});
// The same on float samples, read as the doubles they convert to (identical results, no
// double copy of a long reference).
std::vector<WindowCandidate> windowSearchCandidates(const float* reference, std::size_t referenceLength,
                                                    const double* query, std::size_t m,
                                                    const WindowSearchParams& p, WindowSearchStats* stats,
                                                    const CancelToken* cancel, const ProgressFn& progress = {});

// Greedy top-k with the +-floor(m/2) exclusion zone, ties to the smallest start. Raw costs.
std::vector<Match> selectWindowTopK(std::vector<WindowCandidate> candidates, std::size_t m, int k);

// The exact two-pass z-normalisation of one window (the definition above), into out[0..m).
void znormWindow(const double* x, std::size_t m, double* out);

// Band DTW (squared cost) of two length-m sequences, full computation (the reference cell order).
double bandDtwSquared(const double* a, const double* b, std::size_t m, long w);

}  // namespace warplab::compute
