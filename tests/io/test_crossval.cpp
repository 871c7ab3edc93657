// Leave-one-out cross-validation of the detector (compute/detect/crossval.h): on a synthetic
// study with planted seizures, and on Bonn segments laid end to end (tests/data/bonn: recording
// i = Z00i, S00i, F00i: 70.8 s with the 23.6 s seizure segment in the middle). The held-out
// recording never reaches training: a fold's detector is bit for bit the same whatever the
// held-out recording holds, while the other folds' detectors change with it.
#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "compute/detect/crossval.h"
#include "compute/patterns/synthetic_channel.h"
#include "tests/io/bonn_study.h"
#include "tests/io/synthetic_study.h"

using namespace warplab::compute;

namespace {

RunOptions cpu() {
    RunOptions o;
    o.backend = Backend::Cpu;
    return o;
}

using warplab::testing::addRecording;
using warplab::testing::finish;
using warplab::testing::syntheticStudy;
using Study = warplab::testing::SyntheticStudy;

bool sameDetector(const Detector& a, const Detector& b) {
    if (a.patterns.size() != b.patterns.size()) return false;
    for (std::size_t i = 0; i < a.patterns.size(); ++i)
        if (a.patterns[i].samples != b.patterns[i].samples || a.patterns[i].threshold != b.patterns[i].threshold)
            return false;
    return true;
}

void report(const CrossvalResult& r, const char* what) {
    for (const auto& f : r.folds)
        qInfo("%s: fold %s (%.1f s, %zu seizure(s)): event tp %lld fp %lld, sample sens %.3f prec %.3f, latency %s", what,
              f.recording.c_str(), f.durationS, f.seizures, f.event.tp, f.event.fp, f.sample.sensitivity,
              f.sample.precision,
              f.outcomes.empty() || !f.outcomes[0].detected ? "n/a" : QByteArray::number(f.outcomes[0].latencyS).constData());
    qInfo("%s pooled: %zu folds, %.1f of %.1f s scored; event sensitivity %.3f precision %.3f f1 %.3f fp/day %.1f; "
          "sample sensitivity %.3f precision %.3f f1 %.3f",
          what, r.folds.size(), r.testedS, r.totalS, r.event.sensitivity, r.event.precision, r.event.f1, r.event.fpPerDay,
          r.sample.sensitivity, r.sample.precision, r.sample.f1);
}

}  // namespace

class TestCrossval : public QObject {
    Q_OBJECT
private slots:
    void heldOutRecordingNeverTrains() {
        CrossvalOptions o;
        o.build.top = 3;
        o.build.rule.votes = 2;
        o.keepDetectors = true;
        const Study a = syntheticStudy(101), b = syntheticStudy(999);  // only r1.edf differs
        const auto ra = crossValidate({a.request}, o, cpu());
        const auto rb = crossValidate({b.request}, o, cpu());
        QCOMPARE(ra.folds.size(), std::size_t(4));  // quiet.edf has no seizure: it only trains
        for (const auto& f : ra.folds) {
            QCOMPARE(f.training.size(), std::size_t(4));
            QVERIFY(std::find(f.training.begin(), f.training.end(), f.recording) == f.training.end());
            for (const auto& p : f.detector.patterns) QVERIFY(p.recording != f.recording);
        }
        QCOMPARE(ra.folds[1].recording, std::string("r1.edf"));
        QVERIFY(sameDetector(ra.folds[1].detector, rb.folds[1].detector));  // r1 changed, its fold did not
        int changed = 0;
        for (std::size_t k : {0u, 2u, 3u}) changed += sameDetector(ra.folds[k].detector, rb.folds[k].detector) ? 0 : 1;
        QVERIFY(changed > 0);  // r1 trains the other folds, so the check can see a leak
        // And the fold's detector is the one built from a study that never held r1 at all.
        const auto without = withoutRecording({a.request}, 1);
        BuildOptions bo = o.build;
        const Detector direct = buildDetector(without, findPatterns(without, cpu()), bo, cpu());
        QVERIFY(sameDetector(direct, ra.folds[1].detector));
        report(ra, "synthetic");
        QCOMPARE(ra.event.tp, 4LL);  // every planted seizure is found in its unseen recording
        QCOMPARE(ra.testedS, 4 * 240.0);
        QCOMPARE(ra.totalS, 5 * 240.0);
    }

    void heldOutSeizureSamplesNeverTrain() {
        // Only the samples of r1's seizure change: r1's fold (one matrix of the whole study, r1's
        // rows and columns in it) keeps its detector and every training distance, while its
        // held-out sweep sees the change and the folds r1 trains change with it.
        CrossvalOptions o;
        o.build.top = 3;
        o.build.rule.votes = 2;
        const Study a = syntheticStudy();
        Study b = a;
        finish(b, 256);  // b's segments view b's own samples
        const auto& sz = b.request.segments[1].seizures.front();
        for (long long k = std::llround(sz.start * 256); k < std::llround(sz.end * 256); ++k)
            b.samples[1][std::size_t(k)] = 3 * b.samples[1][std::size_t(k)] + 5;
        const auto ca = crossValidateCached({a.request}, o, cpu()), cb = crossValidateCached({b.request}, o, cpu());
        QCOMPARE(ca.folds[1].recording, std::string("r1.edf"));
        auto sameTraining = [](const CachedFold& x, const CachedFold& y) {
            if (!sameDetector(x.detector, y.detector) || x.rocs.size() != y.rocs.size()) return false;
            for (std::size_t p = 0; p < x.rocs.size(); ++p)
                if (x.rocs[p].distances != y.rocs[p].distances || x.rocs[p].ictal != y.rocs[p].ictal) return false;
            return true;
        };
        QVERIFY(sameTraining(ca.folds[1], cb.folds[1]));
        QVERIFY(ca.folds[1].detection.distances != cb.folds[1].detection.distances);
        int changed = 0;
        for (std::size_t k : {0u, 2u, 3u}) changed += sameTraining(ca.folds[k], cb.folds[k]) ? 0 : 1;
        QCOMPARE(changed, 3);
    }

    void leaveOneRecordingOutHoldsOutSeizureFreeRecordings() {
        CrossvalOptions o;
        o.folds = CrossvalFolds::Recording;
        o.build.top = 3;
        o.build.rule.votes = 2;
        o.keepDetectors = true;
        const Study a = syntheticStudy(101, 200), b = syntheticStudy(101, 777);  // only quiet.edf differs
        const auto ca = crossValidateCached({a.request}, o, cpu()), cb = crossValidateCached({b.request}, o, cpu());
        const auto ra = rescore(ca), rb = rescore(cb);  // what crossValidate returns
        QCOMPARE(ra.folds.size(), std::size_t(5));  // every recording, the seizure-free one too
        QCOMPARE(ra.folds[4].recording, std::string("quiet.edf"));
        for (const auto& f : ra.folds) {
            QCOMPARE(f.training.size(), std::size_t(4));
            QVERIFY(std::find(f.training.begin(), f.training.end(), f.recording) == f.training.end());
            for (const auto& p : f.detector.patterns) QVERIFY(p.recording != f.recording);
        }
        // No sample of quiet.edf reaches its own fold: changing it changes nothing of that fold,
        // not even one training distance...
        auto sameTraining = [](const CachedFold& x, const CachedFold& y) {
            if (!sameDetector(x.detector, y.detector) || x.rocs.size() != y.rocs.size()) return false;
            for (std::size_t p = 0; p < x.rocs.size(); ++p)
                if (x.rocs[p].distances != y.rocs[p].distances || x.rocs[p].ictal != y.rocs[p].ictal) return false;
            return true;
        };
        QVERIFY(sameTraining(ca.folds[4], cb.folds[4]));
        QVERIFY(sameDetector(ra.folds[4].detector, rb.folds[4].detector));
        int changed = 0;
        for (std::size_t k : {0u, 1u, 2u, 3u}) changed += sameTraining(ca.folds[k], cb.folds[k]) ? 0 : 1;
        QCOMPARE(changed, 4);  // ...while it trains (and so changes) every other fold, so a leak would show
        // ...and its fold is the detector built from a study that never held it.
        const auto without = withoutRecording({a.request}, 4);
        QVERIFY(sameDetector(buildDetector(without, findPatterns(without, cpu()), o.build, cpu()), ra.folds[4].detector));
        // A seizure-free fold has nothing to find: only false alarms count, and the pool adds them.
        QCOMPARE(ra.folds[4].event.reference, 0LL);
        QVERIFY(std::isnan(ra.folds[4].event.sensitivity));
        long long fp = 0;
        for (const auto& f : ra.folds) fp += f.event.fp;
        QCOMPARE(ra.event.fp, fp);
        QCOMPARE(ra.testedS, ra.totalS);
        report(ra, "synthetic, leave-one-recording-out");
    }

    void rescoreEqualsAFreshRunWithoutDistances() {
        // Re-deciding at another operating point from the cache equals building the detector at
        // that point from the start, and computes no distance.
        CrossvalOptions o;
        o.build.top = 3;
        o.build.rule.votes = 1;
        const Study s = syntheticStudy();
        // One progress bar over all folds, only forward, ending at 1.
        std::vector<double> progress;
        std::mutex m;
        RunOptions run = cpu();
        run.progress = [&](double f) {
            std::lock_guard<std::mutex> lock(m);
            progress.push_back(f);
        };
        const auto cache = crossValidateCached({s.request}, o, run);
        QVERIFY(progress.size() > 4);
        QVERIFY(std::is_sorted(progress.begin(), progress.end()));
        QCOMPARE(progress.back(), 1.0);
        QVERIFY(progress.front() < 0.25);
        const std::pair<OperatingPoint, int> settings[] = {{{OperatingPoint::Kind::FalsePositiveRate, 0.001}, 1},
                                                           {{OperatingPoint::Kind::FalsePositiveRate, 0.2}, 2},
                                                           {{}, 3}};
        for (const auto& [op, votes] : settings) {
            {
                const long long before = epochDistanceCalls();
                const CrossvalResult r = rescore(cache, op, {votes, 1, 0}, o.event, o.sample);
                QCOMPARE(epochDistanceCalls(), before);
                CrossvalOptions fresh = o;
                fresh.build.operatingPoint = op;
                fresh.build.rule.votes = votes;
                const CrossvalResult f = crossValidate({s.request}, fresh, cpu());
                QCOMPARE(r.folds.size(), f.folds.size());
                for (std::size_t k = 0; k < r.folds.size(); ++k) {
                    QCOMPARE(r.folds[k].event.tp, f.folds[k].event.tp);
                    QCOMPARE(r.folds[k].event.fp, f.folds[k].event.fp);
                    QCOMPARE(r.folds[k].sample.tp, f.folds[k].sample.tp);
                    QCOMPARE(r.folds[k].detections.size(), f.folds[k].detections.size());
                }
            }
        }
    }

    void bonnSegmentsEndToEnd() {
        // WARPLAB_BONN names a folder with all of sets Z, S and F (e.g. the full archive) for a
        // larger run; the default is the 5 of each in tests/data.
        const char* env = std::getenv("WARPLAB_BONN");
        const std::string root = env && *env ? env : WARPLAB_TEST_DATA "/bonn";
        int count = 5;
        if (env && *env) count = std::atoi(std::getenv("WARPLAB_BONN_COUNT") ? std::getenv("WARPLAB_BONN_COUNT") : "20");
        const Study s = warplab::testing::bonnStudy(root, count);
        QCOMPARE(s.request.segments.size(), std::size_t(count));
        CrossvalOptions o;
        o.build.top = 5;
        o.build.rule.votes = 3;
        const auto r = crossValidate({s.request}, o, cpu());
        report(r, "bonn");
        QCOMPARE(r.folds.size(), std::size_t(count));
        // Sample-based sensitivity: how much of the unseen seizure segments was flagged.
        QVERIFY(r.sample.sensitivity > 0.5);
    }
};

QTEST_GUILESS_MAIN(TestCrossval)
#include "test_crossval.moc"
