// Subsequence DTW over reference stretches (sdtw_stretch.h).
#include "compute/cpu/sdtw_stretch.h"

#include <algorithm>
#include <limits>

#include "compute/core/error.h"
#include "compute/core/recurrences.h"

namespace warplab::compute::reference {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Column j of D from column j-1 (`prev`), the cell rule of sdtw_reference.cpp's lastRow; y
// holds the columns from `origin` on.
void step(const Series& x, const Series& y, bool absCost, std::size_t j, const SdtwColumn& prev, SdtwColumn& cur,
          std::size_t origin = 0) {
    const std::size_t n = x.length;
    const int d = int(x.dims);
    const float* yj = y.sample(j - origin);
    cur.cost[0] = cell::localCostN<double>(x.sample(0), yj, d, absCost);
    cur.start[0] = j;
    for (std::size_t i = 1; i < n; ++i) {
        const double c = cell::localCostN<double>(x.sample(i), yj, d, absCost);
        const double diag = prev.cost[i - 1], up = cur.cost[i - 1], left = prev.cost[i];
        if (diag <= up && diag <= left) { cur.cost[i] = c + diag; cur.start[i] = prev.start[i - 1]; }
        else if (up <= left) { cur.cost[i] = c + up; cur.start[i] = cur.start[i - 1]; }
        else { cur.cost[i] = c + left; cur.start[i] = prev.start[i]; }
    }
}

SdtwColumn infColumn(std::size_t n) { return {std::vector<double>(n, kInf), std::vector<std::size_t>(n, 0)}; }

bool sameColumn(const SdtwColumn& a, const SdtwColumn& b) { return a.cost == b.cost && a.start == b.start; }
}  // namespace

SdtwStretch sdtwStretch(const Series& x, const Series& y, bool absCost, std::size_t a, std::size_t b,
                        const CancelToken* cancel, ProgressCounter* progress) {
    SdtwStretch s;
    s.begin = a;
    s.end = b;
    s.lastCost.resize(b - a);
    s.lastStart.resize(b - a);
    SdtwColumn prev = infColumn(x.length), cur = infColumn(x.length);
    for (std::size_t j = a; j < b; ++j) {
        if ((j - a) % 4096 == 0) {
            if (cancel && cancel->cancelled()) throw EngineError(EngineError::Kind::Cancelled, "", "cancelled");
            if (progress && j > a) progress->add(4096);
        }
        step(x, y, absCost, j, prev, cur);
        s.lastCost[j - a] = cur.cost.back();
        s.lastStart[j - a] = cur.start.back();
        std::swap(prev, cur);
    }
    if (progress && b > a) progress->add((b - a - 1) % 4096 + 1);  // the columns since the last add
    s.endColumn = std::move(prev);  // +inf for an empty stretch
    return s;
}

std::size_t sdtwReseed(const Series& x, const Series& y, bool absCost, const SdtwColumn& before, SdtwStretch& s,
                       std::size_t origin) {
    if (before.cost.empty()) return 0;  // column 0 has nothing before it
    if (s.begin == s.end) {             // an empty stretch passes the column on
        s.endColumn = before;
        return 0;
    }
    const std::size_t n = x.length;
    SdtwColumn exactPrev = before, exactCur = infColumn(n), localPrev = infColumn(n), localCur = infColumn(n);
    for (std::size_t j = s.begin; j < s.end; ++j) {
        step(x, y, absCost, j, exactPrev, exactCur, origin);
        step(x, y, absCost, j, localPrev, localCur, origin);
        s.lastCost[j - s.begin] = exactCur.cost.back();
        s.lastStart[j - s.begin] = exactCur.start.back();
        if (sameColumn(exactCur, localCur)) return j - s.begin + 1;  // from here on the first pass is exact
        std::swap(exactPrev, exactCur);
        std::swap(localPrev, localCur);
    }
    s.endColumn = std::move(exactPrev);
    return s.end - s.begin;
}

void sdtwStretchShift(SdtwStretch& s, std::size_t offset) {
    s.begin += offset;
    s.end += offset;
    for (std::size_t k = 0; k < s.lastCost.size(); ++k)
        if (s.lastCost[k] < kInf) s.lastStart[k] += offset;
    for (std::size_t i = 0; i < s.endColumn.cost.size(); ++i)
        if (s.endColumn.cost[i] < kInf) s.endColumn.start[i] += offset;
}

Match sdtwStretchBest(const SdtwStretch& s) {
    std::size_t best = s.lastCost.size();
    for (std::size_t k = 0; k < s.lastCost.size(); ++k)  // strict < keeps the smallest column on ties
        if (s.lastCost[k] < kInf && (best == s.lastCost.size() || s.lastCost[k] < s.lastCost[best])) best = k;
    if (best == s.lastCost.size()) return Match{kInf, 0, 0};
    return Match{s.lastCost[best], s.lastStart[best], s.begin + best};
}

void sdtwStretchExclude(SdtwStretch& s, std::size_t lo, std::size_t hi) {
    const std::size_t from = std::max(lo, s.begin), to = std::min(hi + 1, s.end);
    for (std::size_t j = from; j < to; ++j) s.lastCost[j - s.begin] = kInf;
}

void sdtwStretchExcludeOverlapping(SdtwStretch& s, const ExcludedSpan& span) {
    for (std::size_t k = 0; k < s.lastCost.size(); ++k)
        if (overlapsBeyond(s.lastStart[k], s.begin + k, span)) s.lastCost[k] = kInf;
}

}  // namespace warplab::compute::reference
