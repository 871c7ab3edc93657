// Subsequence DTW on all cores (sdtw_parallel.h).
#include "compute/cpu/sdtw_parallel.h"

#include <algorithm>
#include <limits>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "compute/core/error.h"
#include "compute/cpu/sdtw_lanes.h"

namespace warplab::compute::reference {

// Defined here, compiled for any x86-64, so that asking never runs an AVX instruction.
bool lanes::available() { return __builtin_cpu_supports("avx2"); }

SdtwStretch sdtwStretchParallel(const Series& x, const Series& y, bool absCost, std::size_t a, std::size_t b,
                                int threads, const CancelToken* cancel, std::size_t minPiece, bool simd,
                                const ProgressFn& progressFn) {
    const std::size_t cores = std::size_t(threads > 0 ? threads : tbb::this_task_arena::max_concurrency());
    const std::size_t len = b > a ? b - a : 0;
    ProgressCounter counter(progressFn, len);  // told by every piece's first pass
    ProgressCounter* progress = &counter;
    const std::size_t minPart = std::max<std::size_t>(1, minPiece ? minPiece : 16 * x.length);
    // The pieces: with AVX2, `groups` x 4 of equal length (one group a task, four lanes) and the
    // few columns left over as a last piece; else up to one piece a core.
    std::vector<std::size_t> bound{a};
    std::size_t groups = 0;
    if (simd && x.dims == 1 && y.dims == 1 && lanes::available()) groups = std::min(cores, len / (4 * minPart));
    if (groups > 0) {
        const std::size_t L = len / (4 * groups);
        for (std::size_t p = 1; p <= 4 * groups; ++p) bound.push_back(a + p * L);
        if (bound.back() < b) bound.push_back(b);
    } else {
        const std::size_t parts = std::max<std::size_t>(1, std::min(cores, len / minPart));
        if (parts == 1) return sdtwStretch(x, y, absCost, a, b, cancel, progress);
        for (std::size_t p = 1; p <= parts; ++p) bound.push_back(a + len * p / parts);
    }
    const std::size_t parts = bound.size() - 1;
    std::vector<SdtwStretch> piece(parts);
    // More tasks than cores is fine; more threads than the machine has is not asked of TBB.
    const std::size_t machine = std::size_t(std::max(1, tbb::this_task_arena::max_concurrency()));
    const std::size_t tasks = groups + (parts - 4 * groups);
    tbb::task_arena arena(int(std::min({cores, tasks, machine})));
    // 1. Every piece swept as if nothing came before it.
    arena.execute([&] {
        tbb::parallel_for(std::size_t(0), tasks, [&](std::size_t t) {
            if (t < groups) {
                lanes::sweep4(x, y, absCost, &bound[4 * t], bound[4 * t + 1] - bound[4 * t], &piece[4 * t], cancel,
                              progress);
            } else {
                const std::size_t p = 4 * groups + (t - groups);
                piece[p] = sdtwStretch(x, y, absCost, bound[p], bound[p + 1], cancel, progress);
            }
        });
    });
    // 2. Every piece corrected from the first-pass end column of the piece before, all at once.
    // That column is exact when the piece before agreed with its own correction somewhere
    // (then its end is its first pass), which is what happens a query length or so in.
    std::vector<SdtwColumn> firstEnd(parts);
    for (std::size_t p = 0; p < parts; ++p) firstEnd[p] = piece[p].endColumn;
    arena.execute([&] {
        tbb::parallel_for(std::size_t(1), parts,
                          [&](std::size_t p) { sdtwReseed(x, y, absCost, firstEnd[p - 1], piece[p]); });
    });
    // 3. Where a piece never agreed (its end changed), the next one was corrected from a wrong
    // column: sweep it again and correct it from the exact one, in order.
    for (std::size_t p = 1; p < parts; ++p) {
        if (cancel && cancel->cancelled()) throw EngineError(EngineError::Kind::Cancelled, "", "cancelled");
        const SdtwColumn& exact = piece[p - 1].endColumn;
        if (exact.cost == firstEnd[p - 1].cost && exact.start == firstEnd[p - 1].start) continue;
        piece[p] = sdtwStretch(x, y, absCost, bound[p], bound[p + 1], cancel);
        firstEnd[p] = piece[p].endColumn;
        sdtwReseed(x, y, absCost, exact, piece[p]);
    }
    SdtwStretch s;
    s.begin = a;
    s.end = b;
    s.lastCost.reserve(len);
    s.lastStart.reserve(len);
    for (std::size_t p = 0; p < parts; ++p) {
        s.lastCost.insert(s.lastCost.end(), piece[p].lastCost.begin(), piece[p].lastCost.end());
        s.lastStart.insert(s.lastStart.end(), piece[p].lastStart.begin(), piece[p].lastStart.end());
        piece[p].lastCost = {};
        piece[p].lastStart = {};
    }
    s.endColumn = std::move(piece.back().endColumn);
    return s;
}

std::vector<Match> sdtwTopKParallel(const Series& x, const Series& y, bool absCost, int k,
                                    const std::vector<std::pair<std::size_t, std::size_t>>& excludedEnds, int threads,
                                    const CancelToken* cancel, const ProgressFn& progress,
                                    const std::vector<ExcludedSpan>& spans) {
    SdtwStretch s = sdtwStretchParallel(x, y, absCost, 0, y.length, threads, cancel, 0, true, progress);
    const std::size_t m = y.length, half = x.length / 2;
    for (const auto& [lo, hi] : excludedEnds) sdtwStretchExclude(s, lo, hi);
    for (const ExcludedSpan& span : spans) sdtwStretchExcludeOverlapping(s, span);
    // METRICS.md's greedy top-k, as sdtwTopK: the best end (smallest column on ties), then its
    // neighbourhood +-floor(n/2) out of the later rounds.
    std::vector<Match> out;
    for (int r = 0; r < k; ++r) {
        const Match best = sdtwStretchBest(s);
        if (!(best.cost < std::numeric_limits<double>::infinity())) break;
        out.push_back(best);
        sdtwStretchExclude(s, best.end >= half ? best.end - half : 0, std::min(m - 1, best.end + half));
    }
    return out;
}

}  // namespace warplab::compute::reference
