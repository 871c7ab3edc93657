// The query's own place (compute/core/overlap_exclusion.h): no reported match overlaps the
// query's span by more than the tolerance, in both search modes, on every CPU path, checked
// against an oracle written here (full matrix, backtracking from every end column, overlapping
// ends removed, then METRICS.md's greedy) and on the bundled EEG, where the query lies inside
// the reference.
// io/recording.h has a member named signals(): read the EEG before Qt's keywords exist.
#include "io/recording.h"
namespace {
std::vector<float> sampleChannel(const char* name, double& rate) {
    auto rec = warplab::io::Recording::open(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
    const int sig = rec->findSignal(name);
    rate = rec->signals()[std::size_t(sig)].rateHz;
    return rec->read(sig, 0, rec->signals()[std::size_t(sig)].samples);
}
}  // namespace

#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

#include "compute/core/overlap_exclusion.h"
#include "compute/cpu/reference.h"
#include "compute/cpu/sdtw_parallel.h"
#include "compute/engine/engine.h"
#include "compute_test_util.h"

using namespace warplab::compute;

namespace {

// The oracle: D by the full matrix, each end column's start by backtracking from it, the ends
// whose match overlaps the span beyond the tolerance removed, then the greedy top-k.
std::vector<Match> oracle(const Series& q, const Series& r, int k, const ExcludedSpan& span) {
    const std::size_t n = q.length, m = r.length, half = n / 2;
    const auto D = reference::sdtwMatrix(q, r, false);
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> cost(m);
    std::vector<std::size_t> start(m);
    for (std::size_t j = 0; j < m; ++j) {
        cost[j] = D[(n - 1) * m + j];
        start[j] = reference::sdtwBacktrack(D, n, m, j).front().second;
        const std::size_t lo = std::max(start[j], span.first), hi = std::min(j, span.last);
        if (lo <= hi && hi - lo + 1 > span.tolerance) cost[j] = inf;
    }
    std::vector<Match> out;
    for (int round = 0; round < k; ++round) {
        std::size_t best = m;
        for (std::size_t j = 0; j < m; ++j)
            if (cost[j] < inf && (best == m || cost[j] < cost[best])) best = j;
        if (best == m) break;
        out.push_back(Match{cost[best], start[best], best});
        for (std::size_t j = best >= half ? best - half : 0; j <= std::min(m - 1, best + half); ++j) cost[j] = inf;
    }
    return out;
}

void compareMatches(const std::vector<Match>& got, const std::vector<Match>& want, const char* what) {
    QVERIFY2(got.size() == want.size(), what);
    for (std::size_t i = 0; i < got.size(); ++i) {
        QVERIFY2(got[i].start == want[i].start && got[i].end == want[i].end, what);
        QCOMPARE(got[i].cost, want[i].cost);
    }
}

Series cut(const Series& s, std::size_t first, std::size_t len) {
    return Series(std::vector<float>(s.values.begin() + std::ptrdiff_t(first),
                                     s.values.begin() + std::ptrdiff_t(first + len)));
}

}  // namespace

class TestOverlapExclusion : public QObject {
    Q_OBJECT
private slots:
    void overlapArithmetic() {
        const ExcludedSpan s{100, 199, 0};
        QVERIFY(!overlapsBeyond(0, 99, s));
        QVERIFY(overlapsBeyond(0, 100, s));
        QVERIFY(overlapsBeyond(199, 300, s));
        QVERIFY(!overlapsBeyond(200, 300, s));
        QVERIFY(overlapsBeyond(120, 130, s));
        const ExcludedSpan t{100, 199, 10};
        QVERIFY(!overlapsBeyond(0, 109, t));  // 10 shared samples: allowed
        QVERIFY(overlapsBeyond(0, 110, t));
        QVERIFY(!overlapsBeyond(190, 400, t));
        QVERIFY(overlapsBeyond(189, 400, t));
        // Window starts: [s, s + 49] overlaps [100, 199] by more than 10 for s in 61..189.
        const auto st = spanExcludedStarts(t, 50);
        QVERIFY(st.has_value());
        QCOMPARE(st->first, std::size_t(61));
        QCOMPARE(st->second, std::size_t(189));
        QVERIFY(!overlapsBeyond(60, 109, t) && overlapsBeyond(61, 110, t));
        QVERIFY(overlapsBeyond(189, 238, t) && !overlapsBeyond(190, 239, t));
        QVERIFY(!spanExcludedStarts(ExcludedSpan{100, 105, 6}, 50).has_value());  // span shorter than t
    }

    // Random walks, the query cut from the reference (plus noise): every CPU path equals the
    // oracle, and nothing returned overlaps the span beyond the tolerance.
    void subsequenceMatchesOracle() {
        std::mt19937 rng(37);
        std::normal_distribution<float> noise(0.0f, 0.2f);
        for (int trial = 0; trial < 24; ++trial) {
            const std::size_t m = 250 + std::size_t(rng() % 300), n = 12 + std::size_t(rng() % 40);
            const Series ref = testutil::randomWalk(m, rng);
            const std::size_t first = std::size_t(rng() % (m - n));
            Series q = cut(ref, first, n);
            if (trial % 2)
                for (float& v : q.values) v += noise(rng);
            const ExcludedSpan span{first, first + n - 1, trial % 3 == 0 ? std::size_t(rng() % (n / 2)) : 0};
            const int k = 1 + int(rng() % 6);
            Params p;
            p.metric = Metric::Sdtw;
            p.topk = k;
            SearchScope scope;
            scope.spans = {span};
            const auto want = oracle(q, ref, k, span);
            QVERIFY(!want.empty());
            RunOptions ro;
            ro.backend = Backend::Cpu;
            const auto fast = Engine::search(q, ref, p, ro, scope);
            ro.kernel = "cpu.reference";
            const auto slow = Engine::search(q, ref, p, ro, scope);
            compareMatches(fast, want, "parallel CPU search vs oracle");
            compareMatches(slow, want, "cpu.reference vs oracle");
            for (const Match& mt : fast) QVERIFY(!overlapsBeyond(mt.start, mt.end, span));
            // The old rule (ends within floor(n/2) of the query's end) is not the new one: the
            // exclusion removes matches, not a zone of ends.
            const auto stretch = reference::sdtwTopKParallel(q, ref, false, k, {}, 2, nullptr, {}, {span});
            compareMatches(stretch, want, "sdtwTopKParallel vs oracle");
        }
    }

    // Window mode: the brute force and the pruned path agree, and no window overlaps.
    void windowModeExcludesOverlaps() {
        std::mt19937 rng(41);
        for (int trial = 0; trial < 10; ++trial) {
            const std::size_t m = 600 + std::size_t(rng() % 400), n = 32 + std::size_t(rng() % 32);
            const Series ref = testutil::randomWalk(m, rng);
            const std::size_t first = std::size_t(rng() % (m - n));
            const Series q = cut(ref, first, n);
            const ExcludedSpan span{first, first + n - 1, std::size_t(trial % 2 ? 5 : 0)};
            Params p;
            p.metric = Metric::Cdtw;
            p.band = 3;
            p.topk = 4;
            SearchScope scope;
            scope.spans = {span};
            RunOptions ro;
            ro.backend = Backend::Cpu;
            const auto fast = Engine::windowSearch(q, ref, p, ro, scope);
            ro.kernel = "cpu.reference";
            const auto slow = Engine::windowSearch(q, ref, p, ro, scope);
            compareMatches(fast, slow, "window pruned vs brute force");
            QVERIFY(!fast.empty());
            for (const Match& mt : fast) QVERIFY(!overlapsBeyond(mt.start, mt.end, span));
            // Without the span the query finds itself at cost 0.
            const auto self = Engine::windowSearch(q, ref, p, ro);
            QCOMPARE(self.front().start, first);
        }
    }

    // The bundled sample, F7-T7, query 47.98-51.93 s: the search once returned 47.977-49.770 s
    // (the query mapped onto its own first half). No match may overlap 47.98-51.93 s now.
    void sampleQueryInsideReference() {
        double rate = 0;
        const std::vector<float> all = sampleChannel("F7-T7", rate);
        QVERIFY(rate > 0);
        const Series ref{std::vector<float>(all)};
        const std::size_t first = std::size_t(std::floor(47.98 * rate));
        const std::size_t last = std::size_t(std::floor(51.93 * rate)) - 1;
        const Series q = cut(ref, first, last - first + 1);
        Params p;
        p.metric = Metric::Sdtw;
        p.topk = 10;
        RunOptions ro;
        ro.backend = Backend::Cpu;
        // Without any exclusion the query finds itself; with the old end zone alone a match
        // overlapping it was rank 1 (the reason for the rule).
        SearchScope oldZone;
        oldZone.excluded = {exclusionZone(last, q.length)};
        const auto old = Engine::search(q, ref, p, ro, oldZone);
        QVERIFY(overlapsBeyond(old.front().start, old.front().end, ExcludedSpan{first, last, 0}));
        SearchScope scope;
        scope.spans = {ExcludedSpan{first, last, 0}};
        const auto got = Engine::search(q, ref, p, ro, scope);
        QCOMPARE(got.size(), std::size_t(10));
        for (const Match& mt : got) {
            const double s = double(mt.start) / rate, e = double(mt.end + 1) / rate;
            QVERIFY2(e <= 47.98 || s >= 51.93, qPrintable(QString("%1-%2 s").arg(s).arg(e)));
        }
        // Equal to the single-core reference with the same span.
        ro.kernel = "cpu.reference";
        compareMatches(Engine::search(q, ref, p, ro, scope), got, "sample: reference vs parallel");
    }
};

QTEST_GUILESS_MAIN(TestOverlapExclusion)
#include "test_overlap_exclusion.moc"
