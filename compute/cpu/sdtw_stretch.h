// Subsequence DTW (METRICS.md sdtw) over a stretch of reference columns, so that a search can
// be split over processes (an MPI rank per stretch) and still give exactly the single-process
// matches. The DP is swept column by column: column j of D needs only column j-1. A stretch
// [a, b) is first computed as if nothing came before it (column a-1 = +inf: only matches that
// start inside the stretch); once the exact column a-1 arrives from the stretch before, the
// columns are recomputed from it until they agree with the first pass (the same costs and
// starts in every row, after which every later column agrees too, the recurrence being the
// same), which for a long stretch is a few query lengths. Same arithmetic and tie order
// (diagonal, up, left) as reference::sdtwTopK, so the costs are bit for bit the same.
#pragma once
#include <cstddef>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/overlap_exclusion.h"
#include "compute/core/results.h"
#include "compute/core/series.h"

namespace warplab::compute::reference {

// One DP column: D(i, j) and the start column backtracking reaches, for i = 0..n-1.
struct SdtwColumn {
    std::vector<double> cost;
    std::vector<std::size_t> start;
};

struct SdtwStretch {
    std::size_t begin = 0, end = 0;     // reference columns [begin, end)
    std::vector<double> lastCost;       // D(n-1, j), j in [begin, end)
    std::vector<std::size_t> lastStart;
    SdtwColumn endColumn;               // column end-1 (or the column before, for an empty stretch)
};

// First pass over [a, b) from a +inf column a-1 (x: query, y: the reference). `cancel` (may
// be null) is checked every 4,096 columns (EngineError Cancelled), when `progress` (may be
// null) is told the columns swept.
SdtwStretch sdtwStretch(const Series& x, const Series& y, bool absCost, std::size_t a, std::size_t b,
                        const CancelToken* cancel = nullptr, ProgressCounter* progress = nullptr);

// Second pass: `before` is the exact column a-1 (empty for a = 0: the first pass was exact).
// Patches `s` (last row and, if they never agree, its end column) so that it is exact.
// Returns the number of columns recomputed. `origin`: y holds only the reference's columns
// [origin, origin + y.length) (a rank that read its stretch alone), s.begin >= origin.
std::size_t sdtwReseed(const Series& x, const Series& y, bool absCost, const SdtwColumn& before, SdtwStretch& s,
                       std::size_t origin = 0);

// A stretch swept over a part of the reference (columns counted from the part's first) moved
// to the reference's columns, the part beginning at column `offset`: its columns and the
// starts of its finite cells (a +inf cell's start is the +inf column's 0, as a sweep of the
// whole reference leaves it), so that it equals the stretch swept over the whole reference.
void sdtwStretchShift(SdtwStretch& s, std::size_t offset);

// The best unexcluded end column of the stretch (smallest cost, then smallest column), or
// none (cost +inf) — one round of the top-k rule of METRICS.md.
Match sdtwStretchBest(const SdtwStretch& s);
// Excludes columns [lo, hi] (inclusive, global indices) of the stretch from later rounds.
void sdtwStretchExclude(SdtwStretch& s, std::size_t lo, std::size_t hi);
// Excludes the end columns whose match overlaps `span` beyond its tolerance (overlap_exclusion.h),
// judged by each column's start (the stretch must be exact: after sdtwReseed).
void sdtwStretchExcludeOverlapping(SdtwStretch& s, const ExcludedSpan& span);

}  // namespace warplab::compute::reference
