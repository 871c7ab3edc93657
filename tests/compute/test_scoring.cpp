// SzCORE scoring (compute/scoring/scoring.h) against the reference implementation: the
// figures timescoring gives on 175 hand-made and random reference/hypothesis pairs
// (tests/data/scoring/timescoring_cases.json, made by scripts/scoring/timescoring-cases.py;
// WARPLAB_SCORING_CASES names another such file, e.g. one made live from the peer source).
// Counts must be equal and ratios equal to the last bit; plus latencies and refusals by hand.
#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "compute/core/error.h"
#include "compute/scoring/scoring.h"

using namespace warplab::compute;
using nlohmann::json;

namespace {

std::vector<TimedEvent> eventsOf(const json& list) {
    std::vector<TimedEvent> out;
    for (const auto& e : list) out.push_back({e.at(0).get<double>(), e.at(1).get<double>()});
    return out;
}

// Largest difference seen over every ratio of every case (reported, and must be 0).
double g_maxDifference = 0;

bool same(double got, const json& want, const QString& what) {
    if (want.is_null()) {
        if (std::isnan(got)) return true;
        qWarning("%s: expected NaN, got %.17g", qPrintable(what), got);
        return false;
    }
    const double w = want.get<double>();
    g_maxDifference = std::max(g_maxDifference, std::abs(got - w));
    if (got == w) return true;
    qWarning("%s: expected %.17g, got %.17g", qPrintable(what), w, got);
    return false;
}

bool matches(const DetectionScores& s, const json& want, const QString& what) {
    bool ok = true;
    auto count = [&](long long got, const char* key) {
        if (got == want.at(key).get<long long>()) return;
        qWarning("%s %s: expected %lld, got %lld", qPrintable(what), key, want.at(key).get<long long>(), got);
        ok = false;
    };
    count(s.tp, "tp");
    count(s.fp, "fp");
    count(s.reference, "reference_events");
    ok = same(s.sensitivity, want.at("sensitivity"), what + " sensitivity") && ok;
    ok = same(s.precision, want.at("precision"), what + " precision") && ok;
    ok = same(s.f1, want.at("f1"), what + " f1") && ok;
    ok = same(s.fpPerDay, want.at("fp_per_day"), what + " fp_per_day") && ok;
    return ok;
}

}  // namespace

class TestScoring : public QObject {
    Q_OBJECT
private slots:
    void agreesWithTimescoring() {
        const char* env = std::getenv("WARPLAB_SCORING_CASES");
        const std::string path = env && *env ? env : WARPLAB_TEST_DATA "/scoring/timescoring_cases.json";
        std::ifstream in(path);
        QVERIFY2(in.good(), path.c_str());
        const json doc = json::parse(in);
        const auto& cases = doc.at("cases");
        QVERIFY(cases.size() >= 100);
        int failed = 0, hits = 0, falseAlarms = 0;
        for (const auto& c : cases) {
            const QString name = QString::fromStdString(c.at("name").get<std::string>());
            const json o = c.value("options", json::object());
            EventScoringOptions eo;
            eo.toleranceBeforeS = o.value("tolerance_before", 30.0);
            eo.toleranceAfterS = o.value("tolerance_after", 60.0);
            eo.minOverlap = o.value("min_overlap", 0.0);
            eo.maxEventS = o.value("max_event", 300.0);
            eo.mergeGapS = o.value("merge_gap", 90.0);
            SampleScoringOptions so;
            so.sampleHz = o.value("sample_hz", 1.0);
            const auto ref = eventsOf(c.at("reference")), hyp = eventsOf(c.at("hypothesis"));
            const double dur = c.at("duration").get<double>();
            const auto ev = scoreEvents(ref, hyp, dur, eo);
            const auto sa = scoreSamples(ref, hyp, dur, so);
            if (!matches(ev.scores, c.at("expected").at("event"), name + " (event)")) ++failed;
            if (!matches(sa, c.at("expected").at("sample"), name + " (sample)")) ++failed;
            hits += int(ev.scores.tp);
            falseAlarms += int(ev.scores.fp);
        }
        qInfo("%d cases from %s, %d event hits, %d false alarms, largest difference %g", int(cases.size()),
              path.c_str(), hits, falseAlarms, g_maxDifference);
        QCOMPARE(failed, 0);
        QCOMPARE(g_maxDifference, 0.0);
        QVERIFY(hits > 50 && falseAlarms > 50);  // the cases exercise both outcomes
    }

    void latencies() {
        // Seizure 1 found 20 s late, seizure 2 found 10 s early (within the 30 s tolerance),
        // seizure 3 (900 s: split in three) found in its last piece, seizure 4 missed.
        const std::vector<TimedEvent> ref{{100, 160}, {1000, 1050}, {2000, 2900}, {5000, 5030}};
        const std::vector<TimedEvent> hyp{{120, 125}, {990, 995}, {2800, 2810}, {6000, 6001}};
        const auto r = scoreEvents(ref, hyp, 7200);
        QCOMPARE(r.reference.size(), std::size_t(6));
        QCOMPARE(r.seizures.size(), std::size_t(4));
        QVERIFY(r.seizures[0].detected);
        QCOMPARE(r.seizures[0].latencyS, 20.0);
        QVERIFY(r.seizures[1].detected);
        QCOMPARE(r.seizures[1].latencyS, -10.0);
        QVERIFY(r.seizures[2].detected);
        QCOMPARE(r.seizures[2].latencyS, 800.0);
        QVERIFY(!r.seizures[3].detected);
        QCOMPARE(r.scores.tp, 3LL);  // seizures 1, 2 and the piece of 3 that holds 2800 s
        QCOMPARE(r.scores.fp, 1LL);
        QCOMPARE(r.hypothesisFalse, (std::vector<unsigned char>{0, 0, 0, 1}));
    }

    void unsortedAndOverlappingEventsAreJoined() {
        const auto a = scoreEvents({{500, 600}, {100, 200}}, {{550, 560}, {150, 170}, {160, 180}}, 3600);
        const auto b = scoreEvents({{100, 200}, {500, 600}}, {{150, 180}, {550, 560}}, 3600);
        QCOMPARE(a.scores.tp, b.scores.tp);
        QCOMPARE(a.scores.fp, b.scores.fp);
        QCOMPARE(a.hypothesis.size(), b.hypothesis.size());
    }

    void pooled() {
        const auto a = scoreEvents({{100, 160}}, {{120, 130}, {2000, 2001}}, 3600).scores;
        const auto b = scoreEvents({{100, 160}}, {}, 3600 * 23).scores;
        const auto p = pooledScores({a, b});
        QCOMPARE(p.tp, 1LL);
        QCOMPARE(p.fp, 1LL);
        QCOMPARE(p.reference, 2LL);
        QCOMPARE(p.sensitivity, 0.5);
        QCOMPARE(p.fpPerDay, 1.0);
        QCOMPARE(p.durationS, 86400.0);
    }

    void refusals() {
        auto field = [](auto&& f) {
            try {
                f();
            } catch (const EngineError& e) {
                return e.field();
            }
            return std::string("(nothing thrown)");
        };
        QCOMPARE(field([] { scoreEvents({{10, 5}}, {}, 100); }), std::string("reference[0]"));
        QCOMPARE(field([] { scoreEvents({}, {{1, 2}, {-1, 2}}, 100); }), std::string("hypothesis[1]"));
        QCOMPARE(field([] { scoreEvents({{NAN, 2}}, {}, 100); }), std::string("reference[0]"));
        QCOMPARE(field([] { scoreEvents({}, {}, 0); }), std::string("duration"));
        QCOMPARE(field([] { scoreSamples({}, {}, -5); }), std::string("duration"));
        QCOMPARE(field([] { scoreSamples({}, {}, 100, {0}); }), std::string("rate"));
        EventScoringOptions o;
        o.toleranceAfterS = -1;
        QCOMPARE(field([&] { scoreEvents({}, {}, 100, o); }), std::string("tolerance-after"));
        o = {};
        o.minOverlap = 1;
        QCOMPARE(field([&] { scoreEvents({}, {}, 100, o); }), std::string("min-overlap"));
    }
};

QTEST_GUILESS_MAIN(TestScoring)
#include "test_scoring.moc"
