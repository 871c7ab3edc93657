// Window search on the CPU: brute force and the pruned UCR-Suite cascade (window_search.h
// states the definition and why the pruned result is exact).
#include "compute/cpu/window_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "compute/core/error.h"
#include "compute/cpu/dtw_lanes.h"
#include "compute/cpu/window_bounds.h"
#include "compute/cpu/window_dtw_lanes.h"
#include "compute/core/job.h"

namespace warplab::compute {

bool windowbounds::available() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool windowbounds::available512() { return available() && lanes::bestIsa() == lanes::Isa::Avx512; }

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The one DTW cell order both paths share. With cbTail (size m+1, cbTail[m] = 0: a lower bound
// of what rows i+1.. must still add), the computation stops as soon as the smallest value of
// row i plus cbTail[i+1] exceeds `limit` and returns +inf; otherwise the cells are the same
// operations as without it, so the result is bit-identical to the full computation.
// rows/cols: caller's buffers of m doubles.
template <bool Abandon>
double dtwRows(const double* a, const double* b, std::size_t m, long w, const double* cbTail, double limit,
               double* prev, double* cur) {
    const long n = long(m);
    if (w > n) w = n;
    std::fill(prev, prev + m, kInf);
    std::fill(cur, cur + m, kInf);
    // The cell rule is v = c + min(min(up, left), diag) with +inf outside the band and the matrix
    // (and v = c at (0, 0)). A +inf argument of min leaves the other one unchanged, so row 0 is
    // v = c + left and column 0 is v = c + up: the same values, without a test per cell. The left
    // neighbour stays in a register; up and diag come from the previous row, whose cells beyond
    // its own band were never written (+inf from the fill).
    for (long i = 0; i < n; ++i) {
        const long lo = std::max(0L, i - w), hi = std::min(n - 1, i + w);
        const double ai = a[i];
        double left, rowMin;
        long j = lo;
        if (i == 0) {
            const double d = ai - b[0];
            left = d * d;
            j = 1;
        } else if (lo == 0) {
            const double d = ai - b[0];
            left = d * d + prev[0];
            j = 1;
        } else {
            left = kInf;
        }
        if (j == 1) cur[0] = left;
        rowMin = left;
        for (; j <= hi; ++j) {
            const double d = ai - b[j];
            const double v = d * d + std::min(std::min(prev[j], left), prev[j - 1]);
            cur[j] = v;
            left = v;
            if constexpr (Abandon) rowMin = std::min(rowMin, v);
        }
        if constexpr (Abandon) {
            if (rowMin + cbTail[i + 1] > limit) return kInf;
        }
        std::swap(prev, cur);
    }
    return prev[m - 1];
}

// Sliding min and max of x[t-w .. t+w] clipped to [0, len), Lemire's streaming algorithm
// (monotone queues of indices, here in two caller-provided arrays of len entries), O(len)
// whatever w.
void envelope(const double* x, std::size_t len, long w, double* upper, double* lower, long* qu, long* ql) {
    const long n = long(len);
    long uh = 0, ut = 0, lh = 0, lt = 0;  // queue heads and tails
    long next = 0;
    for (long t = 0; t < n; ++t) {
        const long hiIdx = std::min(n - 1, t + w);
        for (; next <= hiIdx; ++next) {
            while (ut > uh && x[qu[ut - 1]] <= x[next]) --ut;
            qu[ut++] = next;
            while (lt > lh && x[ql[lt - 1]] >= x[next]) --lt;
            ql[lt++] = next;
        }
        const long loIdx = t - w;
        while (qu[uh] < loIdx) ++uh;
        while (ql[lh] < loIdx) ++lh;
        upper[t] = x[qu[uh]];
        lower[t] = x[ql[lh]];
    }
}

// The same envelope for a narrow band by shifts: for each offset d in [-w, w], one pass of
// max/min over all t, which the compiler vectorises; for 2w + 1 up to kShiftEnvelope that beats
// the queues, whose "pop or not" branches mispredict on noisy data. Same values exactly (max
// and min of the same elements).
constexpr long kShiftEnvelope = 33;
void envelopeByShifts(const double* x, std::size_t len, long w, double* upper, double* lower) {
    const long n = long(len);
    std::copy(x, x + n, upper);
    std::copy(x, x + n, lower);
    for (long d = 1; d <= w && d < n; ++d) {
        // t + d and t - d, each where it lies inside [0, n)
        for (long t = 0; t + d < n; ++t) {
            upper[t] = std::max(upper[t], x[t + d]);
            lower[t] = std::min(lower[t], x[t + d]);
        }
        for (long t = d; t < n; ++t) {
            upper[t] = std::max(upper[t], x[t - d]);
            lower[t] = std::min(lower[t], x[t - d]);
        }
    }
}

// The envelope of the reference itself: upper[k] and lower[k] are the max and min of
// y[b+k-w .. b+k+w] clipped to [0, n), for k in [0, len). Max and min are exact, so the values
// are samples of y. A window's envelope clipped to the window lies inside this one (fewer
// samples), so the bound it gives is never larger: still a lower bound of the DTW.
template <class T>
void referenceEnvelope(const T* y, std::size_t n, std::size_t b, std::size_t len, long w, T* upper, T* lower) {
    std::copy(y + b, y + b + len, upper);
    std::copy(y + b, y + b + len, lower);
    for (std::size_t d = 1; d <= std::size_t(w); ++d) {
        // k + b + d < n
        const std::size_t hiEnd = b + d < n ? std::min(len, n - b - d) : 0;
        const T* ahead = y + b + d;
        for (std::size_t k = 0; k < hiEnd; ++k) {
            upper[k] = std::max(upper[k], ahead[k]);
            lower[k] = std::min(lower[k], ahead[k]);
        }
        // k + b >= d
        const std::size_t loBegin = std::min(len, d > b ? d - b : 0);
        const T* behind = y + b - d;  // indexed only from loBegin, where b + k - d >= 0
        for (std::size_t k = loBegin; k < len; ++k) {
            upper[k] = std::max(upper[k], behind[k]);
            lower[k] = std::min(lower[k], behind[k]);
        }
    }
}

// Atomic min on a double (costs are >= 0, but compare_exchange on the value keeps it general).
void atomicMin(std::atomic<double>& a, double v) {
    double old = a.load(std::memory_order_relaxed);
    while (v < old && !a.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
    }
}

// Rounding slack of the bounds. They use z-values from running sums (anchored, restarted every
// kRestart starts, and replaced by the exact two-pass statistics whenever the sums are
// ill-conditioned or the window is near-constant), whose relative error stays below ~1e-8; the
// error of a bound sum_j (e_j)^2 is then below 2e-8 * sqrt(LB * m) <= 1e-8 * (LB + m). 1e-6 *
// (B + m) leaves a factor of 100 over that and costs almost no pruning.
double slack(double bound, std::size_t m) { return 1e-6 * (bound + double(m)); }

constexpr std::size_t kRestart = 1024;     // restart of the running sums against drift
constexpr double kIllConditioned = 1e4;    // mean square about the anchor / variance above this: exact stats

template <class T>
struct ThreadState {
    std::vector<double> z, cbA, cbB, cbTail, rowA, rowB, wU, wL;
    std::vector<T> refU, refL;  // the reference's envelope over the current slots (referenceEnvelope)
    std::vector<char> envDone;  // its pieces computed
    std::vector<double> cb4B, cb4D;  // the window-envelope bound's terms of 4 + 4 windows (window_bounds.h)
    // Windows that passed every bound, waiting to run their DTW four at a time
    // (window_dtw_lanes.h): start, orientation, cumulative bound in lane l of cbTail4.
    std::size_t pending = 0, pendingStart[4] = {};
    bool pendingUseA[4] = {};
    double pendingMean[4] = {}, pendingInv[4] = {};  // the bounds' statistics of each (mean, 1 / sd)
    std::vector<double> cbTail4, terms4, a4, b4, rows4;
    std::vector<long> qa, qb;
    // Minimum cost of each finished slot, by slot parity, as max-heaps of at most k values.
    std::priority_queue<double> heap[2];
    double best = kInf;  // k == 1: the best cost seen
    std::vector<WindowCandidate> candidates;
    WindowSearchStats stats;
};

bool inExcluded(const std::vector<std::pair<std::size_t, std::size_t>>& ex, std::size_t s) {
    // ex is sorted by first; few ranges, so a linear scan is fine.
    for (const auto& r : ex)
        if (s >= r.first && s <= r.second) return true;
    return false;
}

}  // namespace

namespace {

// The definition's two-pass statistics; a float window is read as the doubles it converts to
// exactly, so both element types give the same z.
template <class T>
void znormOf(const T* x, std::size_t m, double* out) {
    double sum = 0;
    for (std::size_t i = 0; i < m; ++i) sum += x[i];
    const double mean = sum / double(m);
    double ss = 0;
    for (std::size_t i = 0; i < m; ++i) {
        const double e = double(x[i]) - mean;
        ss += e * e;
    }
    const double sd = std::sqrt(ss / double(m));
    if (sd <= 1e-12 * std::max(1.0, std::fabs(mean))) {
        std::fill(out, out + m, 0.0);
        return;
    }
    for (std::size_t i = 0; i < m; ++i) out[i] = (double(x[i]) - mean) / sd;
}

}  // namespace

void znormWindow(const double* x, std::size_t m, double* out) { znormOf(x, m, out); }

double bandDtwSquared(const double* a, const double* b, std::size_t m, long w) {
    std::vector<double> r1(m), r2(m);
    return dtwRows<false>(a, b, m, w, nullptr, kInf, r1.data(), r2.data());
}

std::vector<Match> selectWindowTopK(std::vector<WindowCandidate> c, std::size_t m, int k) {
    std::sort(c.begin(), c.end(), [](const WindowCandidate& x, const WindowCandidate& y) {
        return x.cost < y.cost || (x.cost == y.cost && x.start < y.start);
    });
    const std::size_t h = m / 2;
    std::vector<Match> out;
    for (const WindowCandidate& w : c) {
        if (int(out.size()) >= k) break;
        bool excluded = false;
        for (const Match& p : out)
            if ((w.start >= p.start ? w.start - p.start : p.start - w.start) <= h) excluded = true;
        if (!excluded) out.push_back(Match{w.cost, w.start, w.start + m - 1});
    }
    return out;
}

namespace {

template <class T>
std::vector<WindowCandidate> candidatesOf(const T* y, std::size_t N, const double* q, std::size_t m,
                                          const WindowSearchParams& p, WindowSearchStats* statsOut,
                                          const CancelToken* cancel, const ProgressFn& progressFn) {
    using K = EngineError::Kind;
    if (m == 0) throw EngineError(K::BadInput, "query", "empty query");
    if (p.topk < 1) throw EngineError(K::BadParameter, "topk", "must be >= 1");
    if (p.band < 0) throw EngineError(K::BadParameter, "band", "must be >= 0");
    std::vector<WindowCandidate> result;
    if (N < m) return result;
    const std::size_t begin = p.begin, end = std::min(p.end, N - m + 1);
    if (begin >= end) return result;
    ProgressCounter progress(progressFn, end - begin);
    auto ex = p.excludedStarts;
    std::sort(ex.begin(), ex.end());
    const long w = std::min<long>(p.band, long(m));
    const int k = p.topk;

    if (p.bruteForce) {
        WindowSearchStats st;
        std::vector<double> z(m), r1(m), r2(m);
        std::size_t told = begin;  // the starts before it are in the progress
        for (std::size_t s = begin; s < end; ++s) {
            if ((s & 1023) == 0) {
                progress.add(s - told);
                told = s;
            }
            if (inExcluded(ex, s)) { ++st.excluded; continue; }
            if (cancel && (s & 1023) == 0 && cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");
            ++st.windows;
            ++st.fullDtw;
            znormOf(y + s, m, z.data());
            result.push_back({dtwRows<false>(q, z.data(), m, w, nullptr, kInf, r1.data(), r2.data()), s});
        }
        progress.add(end - told);
        if (statsOut) *statsOut = st;
        return result;
    }

    // Query envelope (for LB_Keogh of the query envelope against the window) and the order of
    // query positions by |z| descending: the largest terms first make the bounds abandon early.
    std::vector<double> qU(m), qL(m);
    {
        std::vector<long> a(m), b(m);
        envelope(q, m, w, qU.data(), qL.data(), a.data(), b.data());
    }
    std::vector<std::size_t> order(m);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return std::fabs(q[a]) > std::fabs(q[b]); });
    const std::size_t W = 2 * (m / 2) + 1;  // slot width: windows two slots apart are > 2*floor(m/2) apart
    const std::size_t slot0 = begin / W, slot1 = (end - 1) / W + 1;
    std::atomic<double> global{kInf};
    tbb::enumerable_thread_specific<ThreadState<T>> tls([&] {
        ThreadState<T> t;
        t.z.resize(m);
        t.cbA.resize(m);
        t.cbB.resize(m);
        t.cbTail.resize(m + 1);
        t.rowA.resize(m);
        t.rowB.resize(m);
        t.wU.resize(m);
        t.wL.resize(m);
        t.qa.resize(m);
        t.qb.resize(m);
        t.cb4B.resize(4 * m);
        t.cb4D.resize(4 * m);
        t.cbTail4.resize(4 * (m + 1));
        t.terms4.resize(4 * m);
        t.a4.resize(4 * m);
        t.b4.resize(4 * m);
        t.rows4.resize(8 * m);
        return t;
    });

    auto localBound = [k](const ThreadState<T>& t) {
        if (k == 1) return t.best;
        double b = kInf;
        for (const auto& h : t.heap)
            if (int(h.size()) >= k) b = std::min(b, h.top());
        return b;
    };

    // The AVX2 bounds for four consecutive windows where the CPU has them (window_bounds.h).
    const bool simd = p.simd && windowbounds::available();
    // And eight at a time in AVX-512 where the CPU has it (WARPLAB_SIMD=avx2 keeps four).
    const bool simd8 = simd && windowbounds::available512();
    auto body = [&](const tbb::blocked_range<std::size_t>& slots) {
        if (cancel && cancel->cancelled()) return;
        ThreadState<T>& t = tls.local();
        WindowSearchStats& st = t.stats;
        double* z = t.z.data();
        // The reference's envelope over the samples the windows of these slots read, computed
        // a piece of kEnvPiece samples at a time where a window first needs it (a random walk
        // needs it for a few windows in a thousand, EEG for about half).
        constexpr std::size_t kEnvPiece = 256;
        const std::size_t envBegin = std::max(begin, slots.begin() * W);
        const std::size_t envLen = std::min(N, std::min(end, slots.end() * W) + m - 1) - envBegin;
        if (t.refU.size() < envLen) {
            t.refU.resize(envLen);
            t.refL.resize(envLen);
        }
        t.envDone.assign((envLen + kEnvPiece - 1) / kEnvPiece, 0);
        // Ready for the samples [from, to) (global indices inside the block's span).
        auto ensureEnvelope = [&](std::size_t from, std::size_t to) {
            for (std::size_t c = (from - envBegin) / kEnvPiece, last = (to - 1 - envBegin) / kEnvPiece; c <= last; ++c) {
                if (t.envDone[c]) continue;
                const std::size_t b = c * kEnvPiece, len = std::min(kEnvPiece, envLen - b);
                referenceEnvelope(y, N, envBegin + b, len, w, t.refU.data() + b, t.refL.data() + b);
                t.envDone[c] = 1;
            }
        };
        // Running sums about an anchor, restarted every kRestart starts; advanced once per
        // start, in start order, across the slots of this range (their starts follow each
        // other: a restart at every slot summed m samples for every m + 1 starts).
        double anchor = 0, s1sum = 0, s2sum = 0;
        std::size_t since = kRestart;
        // The bounds' lanes (two Quads of four), set up once: their initialisation per group
        // (a `rep stos` of each) took a fifth of the loop around the bounds.
        double a8[8], s18[8], s28[8], mean8[8], sd8[8];
        windowbounds::Quad<T> lo{a8, s18, s28, mean8, sd8}, hi{a8 + 4, s18 + 4, s28 + 4, mean8 + 4, sd8 + 4};
        // The query-envelope bound's terms are not kept (cbQuery null): storing them for every
        // group took a fifth of that bound's instructions, and a window needs them only when it
        // reaches the DTW (a few in a thousand on a random walk), where prepare4 computes them again.
        lo.cbWindow = t.cb4B.data();
        hi.cbWindow = t.cb4D.data();
        for (std::size_t slot = slots.begin(); slot != slots.end();) {
            // With k = 1 the best cost is kept as it comes, so the range's slots are one stretch
            // of starts (groups of windows run on across their boundaries: a slot of m + 1
            // starts left one window to the scalar cascade); with k > 1 each slot's minimum
            // goes into the heaps.
            const std::size_t next = k == 1 ? slots.end() : slot + 1;
            const std::size_t s0 = std::max(begin, slot * W), s1 = std::min(end, next * W);
            double slotMin = kInf;
            struct Stats {
                double mean = 0, sd = 0;
                bool exact = false;
            };
            struct Sums {
                double anchor, s1, s2;
            };
            auto advance = [&](std::size_t s) {
                if (since >= kRestart) {
                    anchor = y[s];
                    s1sum = s2sum = 0;
                    for (std::size_t i = 0; i < m; ++i) {
                        const double e = y[s + i] - anchor;
                        s1sum += e;
                        s2sum += e * e;
                    }
                    since = 0;
                } else {
                    const double eo = y[s - 1] - anchor, en = y[s + m - 1] - anchor;
                    s1sum += en - eo;
                    s2sum += en * en - eo * eo;
                }
                ++since;
                return Sums{anchor, s1sum, s2sum};
            };
            // window_bounds.h computes the same for four windows, operation for operation.
            auto statsOf = [&](const Sums& u) {
                Stats st1;
                const double mu1 = u.s1 / double(m);
                const double ms = u.s2 / double(m);
                const double var = ms - mu1 * mu1;
                st1.mean = u.anchor + mu1;
                st1.sd = var > 0 ? std::sqrt(var) : 0.0;
                // Near-constant or ill-conditioned sums: the exact statistics decide (and a
                // constant window, whose z are all 0, gets them too).
                st1.exact = !(st1.sd > 1e-6 * std::max(1.0, std::fabs(st1.mean))) || ms > kIllConditioned * var;
                return st1;
            };
            auto currentLimit = [&] {
                const double B = std::min(localBound(t), global.load(std::memory_order_relaxed));
                return B + slack(B, m);
            };
            // A window's DTW result: a candidate, or abandoned (+inf).
            auto record = [&](std::size_t s, double cost) {
                if (cost == kInf) { ++st.abandonedDtw; return; }
                ++st.fullDtw;
                t.candidates.push_back({cost, s});
                if (k == 1) {
                    if (cost < t.best) { t.best = cost; atomicMin(global, cost); }
                } else {
                    slotMin = std::min(slotMin, cost);
                }
            };
            // The last stage: the exact DTW of the window's exact z (in t.z) against the query,
            // abandoned early with the cumulative bound of the larger lower bound: rows i+1.. of
            // the DTW (query rows for cbB, window rows for cbA) still add at least cbTail[i+1].
            // cb: the bound's terms by position, `stride` apart.
            auto dtwStage = [&](std::size_t s, bool useA, const double* cb, std::size_t stride, double limit) {
                t.cbTail[m] = 0;
                for (std::size_t i = m; i-- > 0;) t.cbTail[i] = t.cbTail[i + 1] + cb[i * stride];
                // DTW(q, z) == DTW(z, q) cell for cell (symmetric cost, symmetric band), so
                // the window may be the row sequence when its bound is the stronger one.
                const double cost = useA ? dtwRows<true>(z, q, m, w, t.cbTail.data(), limit, t.rowA.data(), t.rowB.data())
                                         : dtwRows<true>(q, z, m, w, t.cbTail.data(), limit, t.rowA.data(), t.rowB.data());
                record(s, cost);
            };
            // The same for the windows waiting in t.pending, four at a time in lanes (unused
            // lanes repeat the first window; their results are dropped). The lanes run on the z
            // of the bounds' statistics (z = (x - mean) * (1 / sd), the running sums' mean and
            // sd), not the exact ones: on EEG 15 % of the windows reach this stage and nearly all
            // are abandoned, and the exact two-pass statistics and a division per sample took
            // as long as their DTW. A lane is abandoned there under a limit raised by
            // (1 + sqrt(m) / 16) times the bounds' slack: the z error, below 1e-8 * (|z| + 1)
            // with |z| <= sqrt(m), moves the cost c of a path of at most 2m cells by at most
            // 2 sqrt(2 m c) * 1e-8 * (sqrt(m) + 1) <= 3e-8 * m * sqrt(c), under a quarter of that
            // extra slack (>= 1.25e-7 * m * sqrt(c) near the limit) for any m and cost. A lane
            // that finishes is computed again by the exact path (the scalar code's two-pass z
            // and DTW), so every recorded cost is the definition's, bit for bit.
            auto flushPending = [&] {
                if (t.pending == 0) return;
                const T* xs[4];
                double mean4[4], inv4[4];
                for (std::size_t l = 0; l < 4; ++l) {
                    const std::size_t from = l < t.pending ? l : 0;
                    xs[l] = y + t.pendingStart[from];
                    mean4[l] = t.pendingMean[from];
                    inv4[l] = t.pendingInv[from];
                }
                unsigned rowsWindow = 0;
                for (std::size_t l = 0; l < 4; ++l) rowsWindow |= unsigned(t.pendingUseA[l < t.pending ? l : 0]) << l;
                if (t.pending < 4)  // the unused lanes' terms: the first window's
                    for (std::size_t i = 0; i < m; ++i)
                        for (std::size_t l = t.pending; l < 4; ++l) t.terms4[4 * i + l] = t.terms4[4 * i];
                windowlanes::prepare4(xs, m, mean4, inv4, rowsWindow, q, qU.data(), qL.data(), t.terms4.data(),
                                      t.a4.data(), t.b4.data(), t.cbTail4.data());
                const double limit = currentLimit(), loose = limit + slack(limit, m) * (1.0 + std::sqrt(double(m)) / 16);
                const double limit4[4] = {loose, loose, loose, loose};
                double cost[4];
                windowlanes::dtw4(t.a4.data(), t.b4.data(), m, w, t.cbTail4.data(), limit4, t.rows4.data(), cost);
                for (std::size_t l = 0; l < t.pending; ++l) {
                    if (cost[l] == kInf) {
                        record(t.pendingStart[l], kInf);
                        continue;
                    }
                    // The exact z and DTW (abandoned under the same limit as the scalar path).
                    znormOf(xs[l], m, z);
                    for (std::size_t i = 0; i <= m; ++i) t.cbTail[i] = t.cbTail4[4 * i + l];
                    const double exact =
                        t.pendingUseA[l] ? dtwRows<true>(z, q, m, w, t.cbTail.data(), limit, t.rowA.data(), t.rowB.data())
                                         : dtwRows<true>(q, z, m, w, t.cbTail.data(), limit, t.rowA.data(), t.rowB.data());
                    record(t.pendingStart[l], exact);
                }
                t.pending = 0;
            };
            // One window through the scalar cascade; kimPassed: LB_Kim was already applied.
            auto scalarWindow = [&](std::size_t s, const Stats& ws, bool kimPassed) {
                const double limit = currentLimit();
                const T* x = y + s;
                const bool exact = ws.exact;
                bool zReady = false;
                if (exact) {
                    ++st.exactStats;
                    znormOf(x, m, z);
                    zReady = true;
                }
                // Bounds only: a multiplication by 1/sd instead of the division (the slack covers it).
                const double mean = ws.mean, inv = exact ? 0.0 : 1.0 / ws.sd;
                auto zAt = [&](std::size_t i) { return exact ? z[i] : (x[i] - mean) * inv; };

                // LB_Kim: the first and the last cells lie on every path.
                if (!kimPassed) {
                    const double d0 = q[0] - zAt(0);
                    double lb = d0 * d0;
                    if (m > 1) {
                        const double d1 = q[m - 1] - zAt(m - 1);
                        lb += d1 * d1;
                    }
                    if (lb > limit) { ++st.prunedKim; return; }
                }
                // LB_Keogh, query envelope against the window: column j's cells all cost at
                // least the distance of z_j to [qL_j, qU_j].
                double lbA = 0;
                for (std::size_t idx = 0; idx < m; ++idx) {
                    const std::size_t j = order[idx];
                    const double v = zAt(j);
                    double d = 0;
                    if (v > qU[j]) d = v - qU[j];
                    else if (v < qL[j]) d = qL[j] - v;
                    t.cbA[j] = d * d;
                    lbA += d * d;
                    if (lbA > limit) { ++st.prunedKeoghQuery; return; }
                }
                // LB_Keogh, window envelope against the query: row i's cells all cost at least
                // the distance of q_i to the envelope of the window's z over [i-w, i+w] (clipped
                // to the window). With the running statistics, the reference's envelope over
                // [i-w, i+w] (referenceEnvelope, computed where first needed) stands for the
                // window's, z-normalised by the same mean and 1/sd as the bounds above (the same
                // rounding slack); with the exact statistics (rare), the window's own envelope
                // of its exact z.
                const T* rU = t.refU.data() + (s - envBegin);
                const T* rL = t.refL.data() + (s - envBegin);
                if (!exact) ensureEnvelope(s, s + m);
                if (exact) {
                    if (2 * w + 1 <= kShiftEnvelope) envelopeByShifts(z, m, w, t.wU.data(), t.wL.data());
                    else envelope(z, m, w, t.wU.data(), t.wL.data(), t.qa.data(), t.qb.data());
                }
                double lbB = 0;
                for (std::size_t idx = 0; idx < m; ++idx) {
                    const std::size_t i = order[idx];
                    const double u = exact ? t.wU[i] : (rU[i] - mean) * inv, l = exact ? t.wL[i] : (rL[i] - mean) * inv;
                    double d = 0;
                    if (q[i] > u) d = q[i] - u;
                    else if (q[i] < l) d = l - q[i];
                    t.cbB[i] = d * d;
                    lbB += d * d;
                    if (lbB > limit) { ++st.prunedKeoghWindow; return; }
                }
                if (!zReady) znormOf(x, m, z);
                dtwStage(s, lbA > lbB, lbA > lbB ? t.cbA.data() : t.cbB.data(), 1, limit);
            };
            // A group of four windows after its bounds (`pass`: the lanes that passed them): the
            // stages' counts, the scalar cascade for those needing exact statistics, and the
            // survivors' cumulative bounds into the DTW lanes.
            auto finishQuad = [&](std::size_t s, windowbounds::Quad<T>& lanes, unsigned pass, const bool* excluded) {
                if (pass == 0 && lanes.active == 0xF && lanes.exact == 0) {
                    // The common group: four windows, all pruned by the bounds.
                    // (A table: std::popcount is a library call on baseline x86-64.)
                    static constexpr unsigned char kBits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
                    st.windows += 4;
                    st.prunedKim += kBits[lanes.kim & 0xF];
                    st.prunedKeoghQuery += kBits[lanes.keoghQuery & 0xF];
                    st.prunedKeoghWindow += kBits[lanes.keoghWindow & 0xF];
                    return;
                }
                for (unsigned l = 0; l < 4; ++l) {
                    if (excluded[l]) { ++st.excluded; continue; }
                    ++st.windows;
                    Stats wl;
                    wl.mean = lanes.mean[l];
                    wl.sd = lanes.sd[l];
                    wl.exact = (lanes.exact >> l) & 1u;
                    if (wl.exact) scalarWindow(s + l, wl, false);
                    else if ((lanes.kim >> l) & 1u) ++st.prunedKim;
                    else if ((lanes.keoghQuery >> l) & 1u) ++st.prunedKeoghQuery;
                    else if (!((pass >> l) & 1u)) ++st.prunedKeoghWindow;
                    else {
                        // Its DTW waits for three more (the bound's terms are kept now: the next
                        // group overwrites them).
                        const bool useA = lanes.lbQuery[l] > lanes.lbWindow[l];
                        const std::size_t lane = t.pending;
                        if (!useA)  // the window envelope's terms (the query envelope's are computed again there)
                            for (std::size_t i = 0; i < m; ++i) t.terms4[4 * i + lane] = lanes.cbWindow[4 * i + l];
                        t.pendingStart[lane] = s + l;
                        t.pendingUseA[lane] = useA;
                        t.pendingMean[lane] = lanes.mean[l];
                        t.pendingInv[lane] = 1.0 / lanes.sd[l];
                        if (++t.pending == 4) flushPending();
                    }
                }
            };
            // The running sums of the n (4 or 8) windows from start s into the lanes (a8, s18,
            // s28): at once where no restart falls among them, else start by start.
            auto groupSums = [&](std::size_t s, unsigned n) {
                if (since >= 1 && since + n <= kRestart) {
                    if (n == 8) windowbounds::sums8(y + s, m, anchor, s1sum, s2sum, s18, s28);
                    else windowbounds::sums4(y + s, m, anchor, s1sum, s2sum, s18, s28);
                    s1sum = s18[n - 1];
                    s2sum = s28[n - 1];
                    since += n;
                    for (unsigned l = 0; l < n; ++l) a8[l] = anchor;
                    return;
                }
                for (unsigned l = 0; l < n; ++l) {
                    const Sums u = advance(s + l);
                    a8[l] = u.anchor;
                    s18[l] = u.s1;
                    s28[l] = u.s2;
                }
            };
            // The lanes of those n windows that are searched (bit l), each excluded one marked.
            auto activeOf = [&](std::size_t s, unsigned n, bool* excluded) {
                unsigned active = (1u << n) - 1;
                if (!ex.empty())
                    for (unsigned l = 0; l < n; ++l)
                        if (inExcluded(ex, s + l)) {
                            excluded[l] = true;
                            active &= ~(1u << l);
                        }
                return active;
            };
            for (std::size_t s = s0; s < s1;) {
                if (simd8 && s + 8 <= s1 && s + 7 + m <= N) {
                    // Eight consecutive windows, as four below but in AVX-512: two Quads, one
                    // limit for both.
                    lo.upper = t.refU.data() + (s - envBegin);
                    lo.lower = t.refL.data() + (s - envBegin);
                    hi.upper = lo.upper + 4;
                    hi.lower = lo.lower + 4;
                    groupSums(s, 8);
                    bool excluded[8] = {};
                    const unsigned act = activeOf(s, 8, excluded);
                    lo.active = act & 0xFu;
                    hi.active = act >> 4;
                    const double limit = currentLimit();
                    unsigned pass = windowbounds::oct(y + s, m, q, qU.data(), qL.data(), order.data(), limit, lo, hi);
                    if (pass) {
                        ensureEnvelope(s, s + 7 + m);
                        pass = windowbounds::octWindow(m, q, order.data(), limit, lo, hi, pass);
                    }
                    finishQuad(s, lo, pass & 0xFu, excluded);
                    finishQuad(s + 4, hi, pass >> 4, excluded + 4);
                    s += 8;
                    continue;
                }
                if (simd && s + 4 <= s1 && s + 3 + m <= N) {
                    // Four consecutive windows: statistics in start order, then every bound at
                    // once; the few survivors go on to their exact z and the DTW, and windows
                    // needing exact statistics through the scalar cascade.
                    windowbounds::Quad<T>& lanes = lo;
                    lanes.upper = t.refU.data() + (s - envBegin);
                    lanes.lower = t.refL.data() + (s - envBegin);
                    groupSums(s, 4);
                    bool excluded[4] = {};
                    lanes.active = activeOf(s, 4, excluded);
                    const double limit = currentLimit();
                    unsigned pass = windowbounds::quad(y + s, m, q, qU.data(), qL.data(), order.data(), limit, lanes);
                    if (pass) {
                        ensureEnvelope(s, s + 3 + m);
                        pass = windowbounds::quadWindow(m, q, order.data(), limit, lanes, pass);
                    }
                    finishQuad(s, lanes, pass, excluded);
                    s += 4;
                    continue;
                }
                const Stats w1 = statsOf(advance(s));
                if (!ex.empty() && inExcluded(ex, s)) {
                    ++st.excluded;
                } else {
                    ++st.windows;
                    scalarWindow(s, w1, false);
                }
                ++s;
            }
            flushPending();  // before the slot's minimum is taken
            if (k > 1 && slotMin < kInf) {
                auto& h = t.heap[slot & 1];
                h.push(slotMin);
                if (int(h.size()) > k) h.pop();
                atomicMin(global, localBound(t));
            }
            slot = next;
        }
        // The starts of these slots.
        progress.add(std::min(end, slots.end() * W) - std::max(begin, slots.begin() * W));
    };
    const std::size_t grain = std::max<std::size_t>(1, 8192 / W);
    if (p.threads > 0) {
        tbb::task_arena arena(p.threads);
        arena.execute([&] { tbb::parallel_for(tbb::blocked_range<std::size_t>(slot0, slot1, grain), body); });
    } else {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(slot0, slot1, grain), body);
    }
    if (cancel && cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");

    // Keep what may still be selected: cost <= the final bound (ties included).
    double B = global.load();
    for (const ThreadState<T>& t : tls) B = std::min(B, localBound(t));
    WindowSearchStats total;
    for (ThreadState<T>& t : tls) {
        for (const WindowCandidate& c : t.candidates)
            if (c.cost <= B) result.push_back(c);
        total += t.stats;
    }
    if (statsOut) *statsOut = total;
    return result;
}

}  // namespace

std::vector<WindowCandidate> windowSearchCandidates(const double* y, std::size_t N, const double* q, std::size_t m,
                                                    const WindowSearchParams& p, WindowSearchStats* stats,
                                                    const CancelToken* cancel, const ProgressFn& progress) {
    return candidatesOf(y, N, q, m, p, stats, cancel, progress);
}

std::vector<WindowCandidate> windowSearchCandidates(const float* y, std::size_t N, const double* q, std::size_t m,
                                                    const WindowSearchParams& p, WindowSearchStats* stats,
                                                    const CancelToken* cancel, const ProgressFn& progress) {
    return candidatesOf(y, N, q, m, p, stats, cancel, progress);
}

}  // namespace warplab::compute
