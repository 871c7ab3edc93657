// compute::searchSources / mergeTopK: the merged list over several
// references equals the k best of every source's own top-k list, on random walks; ties go to
// the earlier source, then the smaller start; a reference shorter than the query is skipped and
// reported; all too short, no source, and cancel are errors; progress covers all sources.
#include <QtTest>

#include <random>

#include "compute/engine/engine.h"
#include "compute/engine/multi_search.h"
#include "compute_test_util.h"

using namespace warplab::compute;

namespace {

SearchSource source(const Series& s, const std::string& name, double rate = 100) {
    SearchSource src;
    src.recording = name;
    src.channel = "c";
    src.rateHz = rate;
    src.load = [s] { return s; };
    return src;
}

RunOptions reference() {
    RunOptions o;
    o.backend = Backend::Cpu;
    o.kernel = "cpu.reference";
    return o;
}

}  // namespace

class TestMultiSearch : public QObject {
    Q_OBJECT

private slots:
    void mergedEqualsEachSourceMerged_data() {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("seed");
        for (int k : {1, 3, 10})
            for (int seed : {1, 2}) QTest::newRow(qPrintable(QString("k=%1 seed=%2").arg(k).arg(seed))) << k << seed;
    }
    void mergedEqualsEachSourceMerged() {
        QFETCH(int, k);
        QFETCH(int, seed);
        std::mt19937 rng{unsigned(seed)};
        const Series q = testutil::randomWalk(24, rng);
        std::vector<Series> refs;
        std::vector<SearchSource> sources;
        for (int i = 0; i < 4; ++i) {
            refs.push_back(testutil::randomWalk(200 + 50 * std::size_t(i), rng));
            sources.push_back(source(refs.back(), "r" + std::to_string(i), 50.0 * (i + 1)));
        }
        Params p;
        p.metric = Metric::Sdtw;
        p.topk = k;
        p.znorm = true;
        const auto got = searchSources(q, sources, p, reference());
        // Every source on its own, then all matches sorted by (cost, source, start).
        struct M { double cost; std::size_t src, start, end; };
        std::vector<M> all;
        for (std::size_t i = 0; i < refs.size(); ++i)
            for (const auto& m : Engine::search(q, refs[i], p, reference())) all.push_back({m.cost, i, m.start, m.end});
        std::sort(all.begin(), all.end(), [](const M& a, const M& b) {
            return a.cost != b.cost ? a.cost < b.cost : a.src != b.src ? a.src < b.src : a.start < b.start;
        });
        QCOMPARE(got.size(), std::min<std::size_t>(std::size_t(k), all.size()));
        for (std::size_t r = 0; r < got.size(); ++r) {
            QCOMPARE(got[r].source, all[r].src);
            QCOMPARE(got[r].match.cost, all[r].cost);
            QCOMPARE(got[r].match.start, all[r].start);
            QCOMPARE(got[r].match.end, all[r].end);
            const double rate = sources[got[r].source].rateHz;
            QCOMPARE(got[r].startS, double(all[r].start) / rate);
            QCOMPARE(got[r].endS, double(all[r].end + 1) / rate);
        }
        // A custom per-series search is called once per source, with that source.
        std::vector<std::string> seen;
        searchSources(q, sources, p, reference(), [&](const Series& qq, const Series& rr, const SearchSource& s, const Params& pp,
                                                      const RunOptions& oo) {
            seen.push_back(s.recording);
            return Engine::search(qq, rr, pp, oo);
        });
        QCOMPARE(seen, (std::vector<std::string>{"r0", "r1", "r2", "r3"}));
    }

    void tiesGoToTheEarlierSourceThenStart() {
        const std::vector<std::vector<Match>> lists = {{{2.0, 50, 60}, {1.0, 30, 40}}, {{1.0, 10, 20}, {0.5, 70, 80}}, {{1.0, 5, 9}}};
        const auto m = mergeTopK(lists, 4);
        QCOMPARE(m.size(), std::size_t(4));
        QCOMPARE(m[0].source, std::size_t(1));  // 0.5
        QCOMPARE(m[1].source, std::size_t(0));  // 1.0, source 0
        QCOMPARE(m[2].source, std::size_t(1));  // 1.0, source 1
        QCOMPARE(m[3].source, std::size_t(2));  // 1.0, source 2
        QCOMPARE(m[0].startS, 0.0);             // no rates given
        const std::vector<std::vector<Match>> same = {{{1.0, 40, 41}, {1.0, 10, 11}}};
        QCOMPARE(mergeTopK(same, 2)[0].match.start, std::size_t(10));
    }

    void shortReferencesAndErrors() {
        std::mt19937 rng(7);
        const Series q = testutil::randomWalk(30, rng);
        Params p;
        p.metric = Metric::Sdtw;
        p.topk = 2;
        std::vector<std::size_t> skipped;
        std::vector<double> progress;
        RunOptions o = reference();
        o.progress = [&](double f) { progress.push_back(f); };
        const auto got = searchSources(q, {source(testutil::randomWalk(10, rng), "short"), source(testutil::randomWalk(100, rng), "long")},
                                       p, o, {}, &skipped);
        QCOMPARE(skipped, std::vector<std::size_t>{0});
        QCOMPARE(got.size(), std::size_t(2));
        QCOMPARE(got[0].source, std::size_t(1));
        QVERIFY(!progress.empty());
        QCOMPARE(progress.back(), 1.0);
        for (std::size_t i = 1; i < progress.size(); ++i) QVERIFY(progress[i] >= progress[i - 1] - 1e-12);
        bool threw = false;
        try {
            searchSources(q, {source(testutil::randomWalk(10, rng), "short")}, p, reference());
        } catch (const EngineError& e) {
            threw = e.isBadInput() && std::string(e.what()).find("shorter") != std::string::npos;
        }
        QVERIFY(threw);
        threw = false;
        try {
            searchSources(q, {}, p, reference());
        } catch (const EngineError& e) {
            threw = e.isBadInput();
        }
        QVERIFY(threw);
        CancelToken cancel;
        cancel.cancel();
        RunOptions c = reference();
        c.cancel = &cancel;
        threw = false;
        try {
            searchSources(q, {source(testutil::randomWalk(100, rng), "x")}, p, c);
        } catch (const EngineError& e) {
            threw = e.kind() == EngineError::Kind::Cancelled;
        }
        QVERIFY(threw);
    }
};

QTEST_GUILESS_MAIN(TestMultiSearch)
#include "test_multi_search.moc"
