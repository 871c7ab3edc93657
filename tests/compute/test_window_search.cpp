// Window search: the pruned CPU path must return exactly what brute force returns,
// and brute force must agree with an independent full-matrix implementation written here.
// io/recording.h has a member named signals(): read the EEG before Qt's keywords exist.
#include "io/recording.h"
namespace {
std::vector<float> eegChannel(int sig, std::size_t maxLen) {
    auto rec = warplab::io::Recording::open(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
    const auto len = std::min<long long>(rec->signals()[std::size_t(sig)].samples, (long long)maxLen);
    return rec->read(sig, 0, len);
}
}  // namespace

#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <algorithm>
#include <mutex>
#include <random>

#include "compute/core/error.h"
#include "compute/cpu/dtw_lanes.h"
#include "compute/cpu/window_bounds.h"
#include "compute/cpu/window_dtw_lanes.h"
#include "compute/cpu/window_search.h"
#include "compute/engine/engine.h"
#include "compute_test_util.h"

using namespace warplab::compute;

namespace {

// Independent of window_search.cpp: full matrix, METRICS.md band rule, repeated argmin with
// the exclusion zone (the text of docs/SEARCH.md, written out naively).
double naiveBandDtw(const std::vector<double>& a, const std::vector<double>& b, long w) {
    const long n = long(a.size());
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> D(std::size_t(n * n), inf);
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < n; ++j) {
            if (std::labs(i - j) > w) continue;
            const double c = (a[i] - b[j]) * (a[i] - b[j]);
            if (i == 0 && j == 0) { D[0] = c; continue; }
            double best = inf;
            if (i > 0) best = std::min(best, D[(i - 1) * n + j]);
            if (j > 0) best = std::min(best, D[i * n + j - 1]);
            if (i > 0 && j > 0) best = std::min(best, D[(i - 1) * n + j - 1]);
            D[i * n + j] = c + best;
        }
    return D[n * n - 1];
}

std::vector<double> naiveZ(const float* x, std::size_t m) {
    double mean = 0;
    for (std::size_t i = 0; i < m; ++i) mean += x[i];
    mean /= double(m);
    double var = 0;
    for (std::size_t i = 0; i < m; ++i) var += (x[i] - mean) * (x[i] - mean);
    const double sd = std::sqrt(var / double(m));
    std::vector<double> z(m, 0.0);
    if (sd > 1e-12 * std::max(1.0, std::fabs(mean)))
        for (std::size_t i = 0; i < m; ++i) z[i] = (x[i] - mean) / sd;
    return z;
}

std::vector<Match> naiveSearch(const Series& q, const Series& y, long w, int k) {
    const std::size_t m = q.length;
    const auto qz = naiveZ(q.values.data(), m);
    std::vector<double> cost(y.length - m + 1);
    for (std::size_t s = 0; s < cost.size(); ++s) cost[s] = naiveBandDtw(qz, naiveZ(y.values.data() + s, m), w);
    std::vector<Match> out;
    const double inf = std::numeric_limits<double>::infinity();
    for (int r = 0; r < k; ++r) {
        std::size_t best = cost.size();
        for (std::size_t s = 0; s < cost.size(); ++s)
            if (cost[s] < inf && (best == cost.size() || cost[s] < cost[best])) best = s;
        if (best == cost.size()) break;
        out.push_back({cost[best], best, best + m - 1});
        for (std::size_t s = best >= m / 2 ? best - m / 2 : 0; s <= best + m / 2 && s < cost.size(); ++s) cost[s] = inf;
    }
    return out;
}

// The scalar abandoning band DTW of lane l of interleaved sequences (the rule of
// window_dtw_lanes.h written out on a full matrix): +inf after the first row whose least cell
// plus tail[4 * (i + 1) + l] exceeds limit.
double scalarAbandoning(const std::vector<double>& a4, const std::vector<double>& b4, std::size_t l, std::size_t m,
                        long w, const std::vector<double>& tail, double limit) {
    std::vector<double> a(m), b(m);
    for (std::size_t i = 0; i < m; ++i) {
        a[i] = a4[4 * i + l];
        b[i] = b4[4 * i + l];
    }
    const long n = long(m);
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> D(std::size_t(n * n), inf);
    for (long i = 0; i < n; ++i) {
        double rowMin = inf;
        for (long j = 0; j < n; ++j) {
            if (std::labs(i - j) > w) continue;
            const double c = (a[i] - b[j]) * (a[i] - b[j]);
            double v = c;
            if (i > 0 || j > 0) {
                const double up = i > 0 ? D[(i - 1) * n + j] : inf, left = j > 0 ? D[i * n + j - 1] : inf;
                const double diag = i > 0 && j > 0 ? D[(i - 1) * n + j - 1] : inf;
                v = c + std::min(std::min(up, left), diag);
            }
            D[i * n + j] = v;
            rowMin = std::min(rowMin, v);
        }
        if (rowMin + tail[4 * std::size_t(i + 1) + l] > limit) return inf;
    }
    return D[n * n - 1];
}

Params windowParams(long band, int k) {
    Params p;
    p.metric = Metric::Cdtw;
    p.band = int(band);
    p.topk = k;
    return p;
}

RunOptions kernel(const char* name) {
    RunOptions o;
    o.kernel = name;
    return o;
}

// Exactly equal: the same windows, the same double costs.
bool sameMatches(const std::vector<Match>& a, const std::vector<Match>& b, QString* why) {
    if (a.size() != b.size()) { *why = QString("%1 vs %2 matches").arg(a.size()).arg(b.size()); return false; }
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].cost != b[i].cost || a[i].start != b[i].start || a[i].end != b[i].end) {
            *why = QString("rank %1: %2 @%3 vs %4 @%5").arg(i + 1).arg(a[i].cost, 0, 'g', 17).arg(a[i].start)
                       .arg(b[i].cost, 0, 'g', 17).arg(b[i].start);
            return false;
        }
    return true;
}

void checkFastEqualsBrute(const Series& q, const Series& y, long band, int k, const SearchScope& scope = {}) {
    const Params p = windowParams(band, k);
    WindowSearchStats st;
    const auto brute = Engine::windowSearch(q, y, p, kernel("cpu.reference"), scope);
    const auto fast = Engine::windowSearch(q, y, p, RunOptions{}, scope, &st);
    QString why;
    QVERIFY2(sameMatches(fast, brute, &why),
             qPrintable(QString("m=%1 N=%2 w=%3 k=%4: %5").arg(q.length).arg(y.length).arg(band).arg(k).arg(why)));
    QVERIFY(st.windows > 0);
    QCOMPARE(st.prunedKim + st.prunedKeoghQuery + st.prunedKeoghWindow + st.abandonedDtw + st.fullDtw, st.windows);
    // Fewer matches only when the reference runs out of non-excluded starts.
    if (int(brute.size()) < k) QVERIFY(y.length < q.length * std::size_t(2 * k) + q.length || !scope.excluded.empty());
}

}  // namespace

class TestWindowSearch : public QObject {
    Q_OBJECT
private slots:
    // Brute force against the naive text of the definition (independent code, same double
    // arithmetic except the order of the min, which is exact).
    void bruteForceMatchesDefinition() {
        std::mt19937 rng(7);
        for (std::size_t m : {2, 3, 4, 17, 64}) {
            for (long band : {0L, 1L, long(m / 20), long(m)}) {
                Series y = testutil::randomWalk(600, rng), q = testutil::randomWalk(m, rng);
                const auto brute = Engine::windowSearch(q, y, windowParams(band, 5), kernel("cpu.reference"));
                const auto naive = naiveSearch(q, y, band, 5);
                QCOMPARE(brute.size(), naive.size());
                for (std::size_t i = 0; i < naive.size(); ++i) {
                    QCOMPARE(brute[i].start, naive[i].start);
                    QCOMPARE(brute[i].end, naive[i].end);
                    QVERIFY(std::fabs(brute[i].cost - naive[i].cost) <= 1e-12 * (1 + naive[i].cost));
                }
            }
        }
    }

    void randomWalksAllBands() {
        std::mt19937 rng(11);
        // m = 2..4097 sampled; bands 0, 1, 5 %, 100 %; k from 1 to 50.
        struct Case { std::size_t m, n; int k; };
        const Case cases[] = {{2, 3000, 1}, {3, 3000, 7}, {4, 3000, 50}, {8, 5000, 3}, {33, 20000, 1},
                              {128, 12000, 10}, {128, 12000, 50}, {300, 3000, 2}, {1000, 2500, 3},
                              {4097, 4400, 1}};
        for (const Case& c : cases)
            for (long band : {0L, 1L, long(std::floor(0.05 * double(c.m))), long(c.m)}) {
                // 100 % at m >= 1000: brute force too slow for a unit test (the 5 % band runs).
                if (c.m >= 1000 && band > long(c.m / 10)) continue;
                Series y = testutil::randomWalk(c.n, rng), q = testutil::randomWalk(c.m, rng);
                checkFastEqualsBrute(q, y, band, c.k);
            }
    }

    // The query planted at the first and last start: found there with cost 0 (z of a window
    // and of the query are the same doubles), and the fast path agrees at the reference ends.
    void endsOfReference() {
        std::mt19937 rng(3);
        Series y = testutil::randomWalk(5000, rng);
        const std::size_t m = 100;
        for (std::size_t at : {std::size_t(0), y.length - m}) {
            Series q(std::vector<float>(y.values.begin() + long(at), y.values.begin() + long(at + m)));
            const auto fast = Engine::windowSearch(q, y, windowParams(5, 3), RunOptions{});
            QCOMPARE(fast.front().start, at);
            QCOMPARE(fast.front().end, at + m - 1);
            QCOMPARE(fast.front().cost, 0.0);
            checkFastEqualsBrute(q, y, 5, 3);
        }
        // A reference exactly as long as the query: one window.
        Series q = testutil::randomWalk(50, rng), y1 = testutil::randomWalk(50, rng);
        QCOMPARE(Engine::windowSearch(q, y1, windowParams(2, 5), RunOptions{}).size(), std::size_t(1));
        // Shorter: no window at all.
        Series y0 = testutil::randomWalk(49, rng);
        QVERIFY(Engine::windowSearch(q, y0, windowParams(2, 5), RunOptions{}).empty());
    }

    // Flat stretches give windows of std 0 (z all zeros), also at a large offset where running
    // sums lose digits; the exact two-pass statistics decide in both paths.
    void constantStretches() {
        std::mt19937 rng(5);
        Series y = testutil::randomWalk(20000, rng);
        for (std::size_t i = 3000; i < 3600; ++i) y.values[i] = 0.0f;
        for (std::size_t i = 9000; i < 9500; ++i) y.values[i] = 12345.0f;
        for (std::size_t i = 15000; i < 17000; ++i) y.values[i] += 1.0e5f;  // big offset, normal std
        Series q = testutil::randomWalk(64, rng);
        for (int k : {1, 4, 20}) checkFastEqualsBrute(q, y, 3, k);
        // A constant query against flat windows: cost 0 there, and the smallest start wins the tie.
        Series flat(std::vector<float>(64, 2.0f));
        const auto m = Engine::windowSearch(flat, y, windowParams(3, 2), RunOptions{});
        QCOMPARE(m.front().cost, 0.0);
        QCOMPARE(m.front().start, std::size_t(3000));
        checkFastEqualsBrute(flat, y, 3, 5);
    }

    void bundledEeg() {
        for (int sig : {0, 5}) {
            Series y(eegChannel(sig, 40000));
            Series q(std::vector<float>(y.values.begin() + 10000, y.values.begin() + 10256));
            checkFastEqualsBrute(q, y, 12, 1);
            checkFastEqualsBrute(q, y, 12, 10);
            SearchScope self;
            self.excluded = {{10000 - 128, 10000 + 128}};
            checkFastEqualsBrute(q, y, 12, 10, self);
            const auto withSelf = Engine::windowSearch(q, y, windowParams(12, 1), RunOptions{});
            QCOMPARE(withSelf.front().start, std::size_t(10000));
            QCOMPARE(withSelf.front().cost, 0.0);
            const auto noSelf = Engine::windowSearch(q, y, windowParams(12, 10), RunOptions{}, self);
            for (const Match& mt : noSelf) QVERIFY(mt.start < 10000 - 128 || mt.start > 10000 + 128);
        }
    }

    // The tie and exclusion rule of docs/SEARCH.md on hand-made candidates.
    void exclusionRule() {
        const std::size_t m = 10;  // h = 5
        std::vector<WindowCandidate> c = {{1.0, 20}, {1.0, 14}, {0.5, 100}, {2.0, 26}, {2.0, 25}, {3.0, 94}, {3.0, 106}};
        const auto top = selectWindowTopK(c, m, 7);
        // 100 first; then the tie at 1.0: 14 (smaller start) first, 20 stays (|20-14| = 6 > 5).
        QCOMPARE(top.size(), std::size_t(6));
        QCOMPARE(top[0].start, std::size_t(100));
        QCOMPARE(top[1].start, std::size_t(14));
        QCOMPARE(top[2].start, std::size_t(20));
        // The tie at 2.0 is taken in start order: 25 is exactly 5 from 20 (the zone is
        // inclusive), 26 is 6 away and is reported; 94 and 106 are 6 away from 100.
        QCOMPARE(top[3].start, std::size_t(26));
        QCOMPARE(top[4].start, std::size_t(94));
        QCOMPARE(top[5].start, std::size_t(106));
        QCOMPARE(top[5].end, std::size_t(115));
        // Exactly h away is excluded.
        const auto t2 = selectWindowTopK({{1.0, 10}, {1.5, 15}, {2.0, 16}}, m, 3);
        QCOMPARE(t2.size(), std::size_t(2));
        QCOMPARE(t2[1].start, std::size_t(16));
    }

    void nanRefused() {
        std::mt19937 rng(1);
        Series y = testutil::randomWalk(1000, rng), q = testutil::randomWalk(20, rng);
        y.values[500] = std::numeric_limits<float>::quiet_NaN();
        try {
            Engine::windowSearch(q, y, windowParams(2, 1), RunOptions{});
            QFAIL("NaN accepted");
        } catch (const EngineError& e) {
            QCOMPARE(e.kind(), EngineError::Kind::BadInput);
            QVERIFY(QString(e.what()).contains("reference"));
        }
        // A NaN in the query is refused by name too (it would make every window's cost NaN).
        Series qn = testutil::randomWalk(20, rng);
        qn.values[7] = std::numeric_limits<float>::quiet_NaN();
        try {
            Engine::windowSearch(qn, testutil::randomWalk(1000, rng), windowParams(2, 1), RunOptions{});
            QFAIL("NaN in the query accepted");
        } catch (const EngineError& e) {
            QCOMPARE(e.kind(), EngineError::Kind::BadInput);
            QVERIFY2(QString(e.what()).contains("query"), e.what());
        }
        Params abs = windowParams(2, 1);
        abs.cost = Cost::Absolute;
        QVERIFY_THROWS_EXCEPTION(EngineError, Engine::windowSearch(q, testutil::randomWalk(100, rng), abs, RunOptions{}));
    }

    // Stretches [begin, end) merge exactly: the union of their candidates, selected once, is the
    // whole search (what a distributed search does); and one thread equals all threads.
    void stretchesAndThreads() {
        std::mt19937 rng(9);
        Series y = testutil::randomWalk(40000, rng), q = testutil::randomWalk(128, rng);
        std::vector<double> yd(y.values.begin(), y.values.end()), qd(q.values.begin(), q.values.end()), qz(128);
        znormWindow(qd.data(), 128, qz.data());
        for (int k : {1, 5, 30}) {
            WindowSearchParams p;
            p.band = 6;
            p.topk = k;
            auto whole = selectWindowTopK(windowSearchCandidates(yd.data(), yd.size(), qz.data(), 128, p, nullptr, nullptr), 128, k);
            // Float samples read as their doubles: the same matches, bit for bit.
            auto fromFloat = selectWindowTopK(
                windowSearchCandidates(y.values.data(), y.values.size(), qz.data(), 128, p, nullptr, nullptr), 128, k);
            {
                QString why;
                QVERIFY2(sameMatches(fromFloat, whole, &why), qPrintable(why));
            }
            std::vector<WindowCandidate> all;
            for (std::size_t b : {0, 9999, 10050, 25000}) {
                WindowSearchParams part = p;
                part.begin = b;
                part.end = b == 0 ? 9999 : b == 9999 ? 10050 : b == 10050 ? 25000 : SIZE_MAX;
                part.threads = 1;
                auto c = windowSearchCandidates(yd.data(), yd.size(), qz.data(), 128, part, nullptr, nullptr);
                for (const auto& x : c) QVERIFY(x.start >= part.begin && x.start < part.end);
                all.insert(all.end(), c.begin(), c.end());
            }
            QString why;
            QVERIFY2(sameMatches(selectWindowTopK(all, 128, k), whole, &why), qPrintable(why));
            Params pp = windowParams(6, k);
            RunOptions one;
            one.threads = 1;
            QVERIFY2(sameMatches(Engine::windowSearch(q, y, pp, one), whole, &why), qPrintable(why));
            QVERIFY2(sameMatches(Engine::windowSearch(q, y, pp, kernel("cpu.reference")), whole, &why), qPrintable(why));
        }
    }

    // Progress as the starts are searched: many calls during the search, every start told
    // once (the last fraction is exactly 1, pruned or not), for a stretch too, and the same
    // matches as without progress; brute force tells it every 1,024 starts.
    void progressAsItGoes() {
        std::mt19937 rng(31);
        Series y = testutil::randomWalk(200000, rng), q = testutil::randomWalk(128, rng);
        std::vector<double> qd(q.values.begin(), q.values.end()), qz(128);
        znormWindow(qd.data(), 128, qz.data());
        WindowSearchParams p;
        p.band = 6;
        p.topk = 3;
        const auto whole = selectWindowTopK(windowSearchCandidates(y.values.data(), y.values.size(), qz.data(), 128, p,
                                                                   nullptr, nullptr), 128, 3);
        for (std::size_t begin : {std::size_t(0), std::size_t(70001)}) {
            WindowSearchParams part = p;
            part.begin = begin;
            std::mutex mu;
            std::vector<double> seen;
            const ProgressFn tell = [&](double f) { std::lock_guard l(mu); seen.push_back(f); };
            auto c = windowSearchCandidates(y.values.data(), y.values.size(), qz.data(), 128, part, nullptr, nullptr, tell);
            QVERIFY2(seen.size() >= 10, qPrintable(QString("%1 progress calls").arg(seen.size())));
            QCOMPARE(*std::max_element(seen.begin(), seen.end()), 1.0);
            QVERIFY(*std::min_element(seen.begin(), seen.end()) < 0.5);
            if (begin == 0) {
                QString why;
                QVERIFY2(sameMatches(selectWindowTopK(c, 128, 3), whole, &why), qPrintable(why));
            }
        }
        std::vector<double> fractions;
        std::mutex mu;
        RunOptions o = kernel("cpu.reference");
        o.progress = [&](double f) { std::lock_guard l(mu); fractions.push_back(f); };
        const Series shortRef(std::vector<float>(y.values.begin(), y.values.begin() + 20000));
        Engine::windowSearch(q, shortRef, windowParams(6, 3), o);
        QVERIFY(fractions.size() >= 10);
        QCOMPARE(fractions.back(), 1.0);
    }

    // The SIMD bounds (eight consecutive windows at once in AVX-512 where the CPU has it, four
    // in AVX2 otherwise and under WARPLAB_SIMD=avx2; window_bounds.h) against the scalar bounds
    // and brute force: the same matches, bit for bit, on random walks (float and double
    // samples), the bundled-EEG-like constant stretches (exact statistics inside a group) and
    // excluded starts inside a group; the bounds may prune a window differently only by
    // rounding (and the limit they see), so the stage counts are compared loosely. Both SIMD
    // widths run where the CPU has AVX-512. Skips on a CPU without AVX2.
    void simdBoundsEqualScalar() {
        if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) QSKIP("this CPU has no AVX2 + FMA");
        const char* env = std::getenv("WARPLAB_SIMD");
        const std::string saved = env ? env : "";
        qunsetenv("WARPLAB_SIMD");
        const bool wide = lanes::supported(lanes::Isa::Avx512);
        QCOMPARE(windowbounds::available512(), wide);  // the eight-window path is the one taken
        std::mt19937 rng(21);
        for (std::size_t m : {2, 3, 5, 64, 128, 300}) {
            Series y = testutil::randomWalk(12000, rng), q = testutil::randomWalk(m, rng);
            for (std::size_t i = 7001; i < 7400; ++i) y.values[i] = 3.5f;  // constant stretch
            std::vector<double> yd(y.values.begin(), y.values.end()), qd(q.values.begin(), q.values.end()), qz(m);
            znormWindow(qd.data(), m, qz.data());
            for (long band : {0L, 1L, long(m / 20), long(m)})
                for (int k : {1, 9}) {
                    if (m >= 128 && band == long(m)) continue;  // brute force too slow for a unit test
                    WindowSearchParams p;
                    p.band = band;
                    p.topk = k;
                    p.excludedStarts = {{5001, 5002}, {9345, 9345 + m}};
                    WindowSearchParams scalar = p, brute = p;
                    scalar.simd = false;
                    brute.bruteForce = true;
                    WindowSearchStats sv, ss;
                    const auto vec = selectWindowTopK(windowSearchCandidates(y.values.data(), y.values.size(), qz.data(), m, p, &sv, nullptr), m, k);
                    const auto vecD = selectWindowTopK(windowSearchCandidates(yd.data(), yd.size(), qz.data(), m, p, nullptr, nullptr), m, k);
                    const auto sca = selectWindowTopK(windowSearchCandidates(y.values.data(), y.values.size(), qz.data(), m, scalar, &ss, nullptr), m, k);
                    const auto ref = selectWindowTopK(windowSearchCandidates(yd.data(), yd.size(), qz.data(), m, brute, nullptr, nullptr), m, k);
                    QString why;
                    const QString what = QString("m=%1 w=%2 k=%3: ").arg(m).arg(band).arg(k);
                    QVERIFY2(sameMatches(vec, ref, &why), qPrintable(what + why));
                    QVERIFY2(sameMatches(vecD, ref, &why), qPrintable(what + why));
                    QVERIFY2(sameMatches(sca, ref, &why), qPrintable(what + why));
                    if (wide) {  // and the four-window AVX2 path on the same CPU
                        qputenv("WARPLAB_SIMD", "avx2");
                        QVERIFY(!windowbounds::available512());
                        WindowSearchStats s4;
                        const auto four = selectWindowTopK(windowSearchCandidates(y.values.data(), y.values.size(), qz.data(), m, p, &s4, nullptr), m, k);
                        const auto fourD = selectWindowTopK(windowSearchCandidates(yd.data(), yd.size(), qz.data(), m, p, nullptr, nullptr), m, k);
                        qunsetenv("WARPLAB_SIMD");
                        QVERIFY2(sameMatches(four, ref, &why), qPrintable(what + "AVX2: " + why));
                        QVERIFY2(sameMatches(fourD, ref, &why), qPrintable(what + "AVX2: " + why));
                        QCOMPARE(s4.windows, sv.windows);
                        QCOMPARE(s4.excluded, sv.excluded);
                        QCOMPARE(s4.exactStats, sv.exactStats);
                    }
                    QCOMPARE(sv.windows, ss.windows);
                    QCOMPARE(sv.excluded, ss.excluded);
                    QCOMPARE(sv.exactStats, ss.exactStats);
                    QCOMPARE(sv.prunedKim + sv.prunedKeoghQuery + sv.prunedKeoghWindow + sv.abandonedDtw + sv.fullDtw, sv.windows);
                    QVERIFY(sv.exactStats > 0);  // the constant stretch went through the exact statistics
                }
        }
        if (!saved.empty()) qputenv("WARPLAB_SIMD", saved.c_str());
    }

    // The lane kernels of the last stage against the scalar definitions, bit for bit (no
    // tolerance), on four windows (random walks, EEG windows, constant windows at a large
    // offset): prepare4 (the lanes' rows, columns and cumulative bounds from the bounds'
    // statistics) against the same written out here, dtw4 without a limit against
    // bandDtwSquared, and dtw4's abandoning against a scalar abandoning DTW written here (same
    // cells, a lane dies after the first row whose least cell plus the tail bound exceeds its
    // limit).
    void laneKernelsEqualScalar() {
        if (!windowbounds::available()) QSKIP("this CPU has no AVX2 + FMA");
        std::mt19937 rng(31);
        const std::vector<float> eeg = eegChannel(3, 30000);
        const double inf = std::numeric_limits<double>::infinity();
        for (std::size_t m : {1, 2, 3, 7, 64, 128, 257}) {
            for (int trial = 0; trial < 6; ++trial) {
                // Four windows: random walks, EEG, and on odd trials a constant one at an offset.
                std::vector<std::vector<float>> win(4);
                for (std::size_t l = 0; l < 4; ++l) {
                    if (l == 1) {
                        const std::size_t at = std::size_t(rng() % (eeg.size() - m));
                        win[l].assign(eeg.begin() + long(at), eeg.begin() + long(at + m));
                    } else if (l == 3 && trial % 2) {
                        win[l].assign(m, 12345.5f);
                    } else {
                        win[l] = testutil::randomWalk(m, rng).values;
                        if (l == 2) for (float& v : win[l]) v += 1.0e4f;  // a large offset
                    }
                }
                const float* xs[4] = {win[0].data(), win[1].data(), win[2].data(), win[3].data()};
                std::vector<std::vector<double>> zs(4, std::vector<double>(m));
                for (std::size_t l = 0; l < 4; ++l) {
                    std::vector<double> xdl(win[l].begin(), win[l].end());
                    znormWindow(xdl.data(), m, zs[l].data());
                }
                std::vector<double> qz(m);
                {
                    const auto qw = testutil::randomWalk(m, rng).values;
                    std::vector<double> qd(qw.begin(), qw.end());
                    znormWindow(qd.data(), m, qz.data());
                }
                {
                    // prepare4: z = (x - mean) * inv; the window as rows in lanes 1 and 2; the
                    // cumulative bound of the query envelope's terms of z in those lanes, of the
                    // given terms in the others, summed from the end.
                    double mean[4], inv[4];
                    for (std::size_t l = 0; l < 4; ++l) {
                        mean[l] = 0.5 * double(win[l][0]) + 0.25 * double(l);
                        inv[l] = 1.0 / (1.0 + double(l) + (win[l].back() - win[l][0]) * 0.001);
                    }
                    std::vector<double> qU(m), qL(m), terms(4 * m), a4(4 * m), b4(4 * m), tail(4 * (m + 1));
                    for (std::size_t i = 0; i < m; ++i) {
                        qU[i] = std::max({qz[i], i ? qz[i - 1] : qz[i], i + 1 < m ? qz[i + 1] : qz[i]});
                        qL[i] = std::min({qz[i], i ? qz[i - 1] : qz[i], i + 1 < m ? qz[i + 1] : qz[i]});
                        for (std::size_t l = 0; l < 4; ++l) terms[4 * i + l] = 0.125 * double((3 * i + l) % 11);
                    }
                    const unsigned rowsWindow = 0x6;
                    windowlanes::prepare4(xs, m, mean, inv, rowsWindow, qz.data(), qU.data(), qL.data(), terms.data(),
                                          a4.data(), b4.data(), tail.data());
                    for (std::size_t l = 0; l < 4; ++l) {
                        const bool rows = (rowsWindow >> l) & 1u;
                        double sum = 0;
                        QCOMPARE(tail[4 * m + l], 0.0);
                        for (std::size_t i = m; i-- > 0;) {
                            const double z = (double(xs[l][i]) - mean[l]) * inv[l];
                            QCOMPARE(rows ? a4[4 * i + l] : b4[4 * i + l], z);
                            QCOMPARE(rows ? b4[4 * i + l] : a4[4 * i + l], qz[i]);
                            const double d = std::max({z - qU[i], qL[i] - z, 0.0});
                            sum += rows ? d * d : terms[4 * i + l];
                            QVERIFY2(tail[4 * i + l] == sum, qPrintable(QString("prepare4 tail m=%1 lane %2 i=%3").arg(m).arg(l).arg(i)));
                        }
                    }
                }
                for (long w : {0L, 1L, long(m / 20), long(m / 3), long(m)}) {
                    // Lanes 0 and 2 with the window as rows, 1 and 3 with the query as rows.
                    std::vector<double> a4(4 * m), b4(4 * m), tail(4 * (m + 1), 0.0), rows(8 * m);
                    for (std::size_t i = 0; i < m; ++i)
                        for (std::size_t l = 0; l < 4; ++l) {
                            a4[4 * i + l] = l % 2 ? qz[i] : zs[l][i];
                            b4[4 * i + l] = l % 2 ? zs[l][i] : qz[i];
                        }
                    double full[4], lim[4] = {inf, inf, inf, inf}, out[4];
                    windowlanes::dtw4(a4.data(), b4.data(), m, w, tail.data(), lim, rows.data(), full);
                    for (std::size_t l = 0; l < 4; ++l) {
                        const double ref = l % 2 ? bandDtwSquared(qz.data(), zs[l].data(), m, w)
                                                 : bandDtwSquared(zs[l].data(), qz.data(), m, w);
                        QVERIFY2(full[l] == ref, qPrintable(QString("dtw4 m=%1 w=%2 lane %3: %4 vs %5")
                                                                .arg(m).arg(w).arg(l).arg(full[l], 0, 'g', 17).arg(ref, 0, 'g', 17)));
                    }
                    // A tail bound (a part of each remaining row's true least cost) and limits
                    // around the cost: each lane either finishes with the same cost or is
                    // abandoned exactly where the scalar rule abandons it.
                    for (std::size_t l = 0; l < 4; ++l)
                        for (std::size_t i = m; i-- > 0;) tail[4 * i + l] = tail[4 * (i + 1) + l] + 0.001 * double(i % 5);
                    for (double f : {0.5, 0.9, 1.0, 1.1}) {
                        for (std::size_t l = 0; l < 4; ++l) lim[l] = f * full[l] * (1.0 + 0.05 * double(l));
                        windowlanes::dtw4(a4.data(), b4.data(), m, w, tail.data(), lim, rows.data(), out);
                        for (std::size_t l = 0; l < 4; ++l) {
                            const double expect = scalarAbandoning(a4, b4, l, m, w, tail, lim[l]);
                            QVERIFY2(out[l] == expect, qPrintable(QString("dtw4 abandon m=%1 w=%2 lane %3 f=%4: %5 vs %6")
                                                                     .arg(m).arg(w).arg(l).arg(f).arg(out[l], 0, 'g', 17)
                                                                     .arg(expect, 0, 'g', 17)));
                        }
                    }
                }
            }
        }
    }

    // Weak pruning, real data: a query from another EEG channel than the searched one (its best
    // match is far, so many windows reach the window-envelope bound and the DTW), on both
    // element types, against brute force; the stage counts show every stage ran.
    void eegOtherChannelEveryStage() {
        Series y(eegChannel(0, 20992));
        const std::vector<float> other = eegChannel(7, 20992);
        for (std::size_t at : {std::size_t(3000), std::size_t(15000)}) {
            Series q(std::vector<float>(other.begin() + long(at), other.begin() + long(at + 128)));
            for (int k : {1, 5}) {
                checkFastEqualsBrute(q, y, 6, k);
                WindowSearchStats st;
                Engine::windowSearch(q, y, windowParams(6, k), RunOptions{}, {}, &st);
                QVERIFY(st.prunedKim > 0);
                QVERIFY(st.prunedKeoghQuery > 0);
                QVERIFY(st.prunedKeoghWindow > 0);
                QVERIFY(st.abandonedDtw > 0);
                QVERIFY(st.fullDtw > 0);
            }
        }
    }

    // Subsequence self-exclusion: masked ends are never reported, the rest is the greedy on
    // the remaining ends (checked against a reference computed with the query's place removed
    // by hand: every reported end outside the zone, and the unmasked search finds the query).
    void subsequenceExcludedEnds() {
        std::mt19937 rng(4);
        Series y = testutil::randomWalk(3000, rng);
        Series q(std::vector<float>(y.values.begin() + 1000, y.values.begin() + 1060));
        Params p;
        p.metric = Metric::Sdtw;
        p.topk = 3;
        const auto plain = Engine::search(q, y, p, RunOptions{});
        QCOMPARE(plain.front().end, std::size_t(1059));
        QCOMPARE(plain.front().cost, 0.0);
        SearchScope s;
        s.excluded = {{1059 - 30, 1059 + 30}};
        const auto ex = Engine::search(q, y, p, RunOptions{}, s);
        QCOMPARE(ex.size(), std::size_t(3));
        for (const Match& m : ex) QVERIFY(m.end < 1029 || m.end > 1089);
        QVERIFY(ex.front().cost > 0);
    }
};

QTEST_GUILESS_MAIN(TestWindowSearch)
#include "test_window_search.moc"
