// The scalar reference of every metric (METRICS.md), in double from float inputs. Every fast
// path (CPU SIMD, CUDA, HIP) is tested against these functions. Inputs are already checked and
// preprocessed (z-normalised when asked); results are raw accumulated costs, before --sqrt.
//
// Multivariate samples: the local cost is the squared Euclidean distance over the channels
// (cost sq) or the sum of |a_c - b_c| over the channels (cost abs, an L1 choice: METRICS.md
// only fixes the squared case). TWED uses the p-norm over the channels (Params::degree).
#pragma once
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "compute/core/overlap_exclusion.h"
#include "compute/core/params.h"
#include "compute/core/results.h"
#include "compute/core/series.h"

namespace warplab::compute::reference {

using Path = std::vector<std::pair<std::size_t, std::size_t>>;

// Called after each finished row of a full-matrix recurrence with (rows done, rows in all), so
// that a long alignment reports progress and can stop: it may throw (EngineError Cancelled),
// which abandons the matrix. Empty: nothing is called.
using RowHook = std::function<void(std::size_t done, std::size_t rows)>;

// sum_i c(x_i, y_i); lengths must be equal (checked by the caller).
double euclidean(const Series& x, const Series& y, bool absCost);

// DTW (band < 0) or Sakoe-Chiba band DTW (band >= 0, METRICS.md's rule for unequal lengths),
// in two rows of memory.
double dtw(const Series& x, const Series& y, bool absCost, long band);
// The full accumulated-cost matrix, n x m row-major, +inf outside the band.
std::vector<double> dtwMatrix(const Series& x, const Series& y, bool absCost, long band,
                              const RowHook& onRow = {});

// Backtracking of METRICS.md from (n-1, m-1) to (0, 0) on an accumulated matrix: diagonal
// first, then (i-1, j), then (i, j-1) on ties. Returned in order from (0, 0).
Path backtrack(const std::vector<double>& acc, std::size_t n, std::size_t m);

// Subsequence DTW of query x (n) in reference y (m): the top-k matches (fewer when the
// exclusion zones use up the reference), each with cost D(n-1, end) and the start column
// found by backtracking (propagated forwards with the same tie order, so memory is linear).
std::vector<Match> sdtwTopK(const Series& x, const Series& y, bool absCost, int k);
// The same with end columns never reported: each inclusive [first, last] of `excludedEnds` is
// masked before the greedy selection (self-exclusion of a query cut from the reference).
std::vector<Match> sdtwTopK(const Series& x, const Series& y, bool absCost, int k,
                            const std::vector<std::pair<std::size_t, std::size_t>>& excludedEnds);
// The same with, besides, every end column whose match (from its backtracked start to it)
// overlaps one of `spans` beyond its tolerance masked (overlap_exclusion.h).
std::vector<Match> sdtwTopK(const Series& x, const Series& y, bool absCost, int k,
                            const std::vector<std::pair<std::size_t, std::size_t>>& excludedEnds,
                            const std::vector<ExcludedSpan>& spans);
// Best match cost only.
double sdtw(const Series& x, const Series& y, bool absCost);
// Full matrix D (n x m) and the path of the best match (from its start in row 0 to its end).
std::vector<double> sdtwMatrix(const Series& x, const Series& y, bool absCost, const RowHook& onRow = {});
Path sdtwBacktrack(const std::vector<double>& acc, std::size_t n, std::size_t m, std::size_t end);

// Soft-DTW value R(n-1, m-1) in two rows. band >= 0: the cells outside METRICS.md's
// Sakoe-Chiba band (the cdtw rule) are +inf, which is what the banded soft-DTW design
// (cuda.softdtw.banded) computes; METRICS.md's soft-DTW itself has no band (band < 0).
double softDtw(const Series& x, const Series& y, bool absCost, double gamma, long band = -1);
// The full R matrix, n x m.
std::vector<double> softDtwMatrix(const Series& x, const Series& y, bool absCost, double gamma,
                                  const RowHook& onRow = {});
// Gradient of softDtw with respect to x (n * dims values, sample-major), by Cuturi & Blondel's
// backward recursion for the expected alignment E and the chain rule through c(x_i, y_j).
std::vector<double> softDtwGradient(const Series& x, const Series& y, bool absCost, double gamma);

// TWED (Marteau; cuTWED reference convention). Timestamps t_i = i (rate == 0) or i / rate.
double twed(const Series& x, const Series& y, double nu, double lambda, double degree, double rate);
// DP over the real cells: element (i, j) is METRICS.md's DP(i+1, j+1), n x m.
std::vector<double> twedMatrix(const Series& x, const Series& y, double nu, double lambda,
                               double degree, double rate, const RowHook& onRow = {});
// The edit path through twedMatrix's DP, from (0,0) to (n-1,m-1): a match moves diagonally,
// a deletion in x down, in y right (ties: match, delete in x, delete in y).
Path twedBacktrack(const Series& x, const Series& y, const std::vector<double>& acc, double nu,
                   double lambda, double degree, double rate);

// The metric of `p` for one pair, raw (no --sqrt). sdtw: x is the query, y the reference.
double rawDistance(const Series& x, const Series& y, const Params& p);

// One pair with its warping path and, when asked, the accumulated matrix (raw, no --sqrt).
// `onRow` sees every row of the accumulated matrix (euclidean: every sample).
Alignment align(const Series& x, const Series& y, const Params& p, bool withMatrix,
                const RowHook& onRow = {});

}  // namespace warplab::compute::reference
