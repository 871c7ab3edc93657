// The detector (compute/detect/detector.h, io/detector_file.h): thresholds at the operating
// point by hand; trained on two synthetic recordings with planted seizures and applied to a
// third it never saw, it finds that recording's seizure (SzCORE-scored); the file round-trips,
// and a damaged file, another channel or another rate is refused by name.
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

#include <numeric>

#include <random>

#include <cmath>

#include "compute/detect/detector.h"
#include "compute/patterns/synthetic_channel.h"
#include "compute/scoring/scoring.h"
#include "compute/spectral/band_filter.h"
#include "compute/spectral/frequency_band.h"
#include "io/detector_file.h"
#include "io/recording.h"
#include "io_test_util.h"

using namespace warplab;
using namespace warplab::compute;
using iotest::errorOf;

namespace {

struct Planted {
    std::vector<float> samples;
    std::vector<SecondsSpan> seizures;
};

// 300 s at 256 Hz with one 40 s seizure (a 3 Hz spike-and-wave over background rhythms).
Planted planted(std::uint64_t seed) {
    SyntheticChannel c;
    c.samples = 300 * 256;
    c.seizureSamples = 40 * 256;
    c.seizureCount = 1;
    c.seed = seed;
    return {syntheticSamples(c), syntheticSeizures(c)};
}

RunOptions cpu() {
    RunOptions o;
    o.backend = Backend::Cpu;
    return o;
}

}  // namespace

class TestDetector : public QObject {
    Q_OBJECT
private slots:
    void thresholds() {
        // Ictal epochs at distances 1, 2, 6; interictal at 3, 4, 5, 7, 8.
        const std::vector<double> d{1, 3, 2, 4, 6, 5, 7, 8};
        const std::vector<unsigned char> ictal{1, 0, 1, 0, 1, 0, 0, 0};
        const RocPoint y = thresholdAt(d, ictal, {});
        QCOMPARE(y.threshold, 2.0);  // TPR 2/3, FPR 0: J = 0.667 (6 gives 1 - 3/5 = 0.4)
        QCOMPARE(y.fpr, 0.0);
        const RocPoint f = thresholdAt(d, ictal, {OperatingPoint::Kind::FalsePositiveRate, 0.4});
        QCOMPARE(f.threshold, 4.0);  // 3 and 4 are 2/5 of the interictal epochs
        QCOMPARE(f.tpr, 2.0 / 3.0);
        const RocPoint none = thresholdAt(std::vector<double>{1, 2}, std::vector<unsigned char>{0, 1},
                                          {OperatingPoint::Kind::FalsePositiveRate, 0});
        QCOMPARE(none.threshold, -1.0);  // no threshold keeps FPR at 0: the pattern never votes
        QCOMPARE(parseOperatingPoint("fpr:0.05")->target, 0.05);
        QVERIFY(!parseOperatingPoint("fpr:2") && !parseOperatingPoint("best"));
    }

    void thresholdsEqualAPlainScan() {
        // The kept ROC's thresholds (Youden found once, a target rate by binary search) against
        // the rule read plainly: scan the distances in order, every tie group at once.
        std::mt19937 rng(5);
        for (int trial = 0; trial < 300; ++trial) {
            const std::size_t n = 2 + rng() % 60;
            std::vector<double> d(n);
            std::vector<unsigned char> ictal(n);
            for (std::size_t i = 0; i < n; ++i) {
                d[i] = double(rng() % (trial % 3 == 0 ? 5 : 1000));  // many ties in a third of the trials
                ictal[i] = (rng() % 4) == 0;
            }
            ictal[0] = 1;
            ictal[1] = 0;
            std::vector<std::size_t> order(n);
            std::iota(order.begin(), order.end(), 0);
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return d[a] < d[b]; });
            const long long nI = std::count(ictal.begin(), ictal.end(), 1), nN = (long long)n - nI;
            const TrainingRoc roc = trainingRoc(d, ictal);
            for (double target : {-1.0, 0.0, 0.01, 0.1, 0.25, 1.0 / 3.0, 0.5, 0.9, 1.0}) {
                RocPoint want{-1, 0, 0};
                long long tp = 0, fp = 0, bestJ = 0;
                for (std::size_t i = 0; i < n;) {
                    const double t = d[order[i]];
                    for (; i < n && d[order[i]] == t; ++i) (ictal[order[i]] ? tp : fp) += 1;
                    if (target < 0) {  // the Youden point
                        if (tp * nN - fp * nI > bestJ) {
                            bestJ = tp * nN - fp * nI;
                            want = {t, double(tp) / double(nI), double(fp) / double(nN)};
                        }
                    } else if (double(fp) / double(nN) <= target) {
                        want = {t, double(tp) / double(nI), double(fp) / double(nN)};
                    } else {
                        break;
                    }
                }
                const OperatingPoint op = target < 0 ? OperatingPoint{} : OperatingPoint{OperatingPoint::Kind::FalsePositiveRate, target};
                const RocPoint got = thresholdAt(roc, op);
                QCOMPARE(got.threshold, want.threshold);
                QCOMPARE(got.tpr, want.tpr);
                QCOMPARE(got.fpr, want.fpr);
            }
        }
    }

    void findsTheSeizureOfAnUnseenRecording() {
        const Planted a = planted(11), b = planted(12), test = planted(13);
        PatternRequest r;
        r.rateHz = 256;
        r.channel = "FP1-F7";
        for (const Planted* p : {&a, &b}) {
            PatternSegment s;
            s.samples = p->samples;
            s.sampleCount = static_cast<long long>(p->samples.size());
            s.seizures = p->seizures;
            s.recording = p == &a ? "a.edf" : "b.edf";
            r.segments.push_back(s);
        }
        const std::vector<PatternRequest> requests{r};
        const auto rankings = findPatterns(requests, cpu());
        BuildOptions bo;
        bo.top = 3;
        bo.rule.votes = 2;
        const Detector d = buildDetector(requests, rankings, bo, cpu());
        QCOMPARE(d.patterns.size(), std::size_t(3));
        for (const auto& p : d.patterns) {
            QCOMPARE(p.samples.size(), std::size_t(1024));
            QVERIFY(p.threshold > 0);
            QVERIFY(p.trainingTpr > p.trainingFpr);
        }
        // Patterns are the training recordings' own samples.
        const auto& best = rankings[0].ranked[0];
        const auto& src = best.segment == 0 ? a.samples : b.samples;
        QCOMPARE(d.patterns[0].samples[17], src[std::size_t(best.recordingSample) + 17]);

        const Detection det = applyDetector(d, [&](const std::string&) { return test.samples; }, 256, cpu());
        QCOMPARE(det.votes.size(), std::size_t((300 * 256 - 1024) / 256 + 1));
        std::vector<TimedEvent> hyp, ref{{test.seizures[0].start, test.seizures[0].end}};
        for (const auto& e : det.events) hyp.push_back({e.startS, e.endS});
        const auto s = scoreEvents(ref, hyp, 300);
        qInfo("unseen recording: %zu events, tp %lld, fp %lld, latency %.1f s", det.events.size(), s.scores.tp,
              s.scores.fp, s.seizures[0].latencyS);
        QCOMPARE(s.scores.tp, 1LL);
        QCOMPARE(s.scores.fp, 0LL);
        QVERIFY(std::abs(s.seizures[0].latencyS) < 10);

        // Re-deciding from the cached distances with a stricter rule gives fewer votes, no DTW.
        Detection again = det;
        Detector strict = d;
        strict.rule.votes = 3;
        decide(strict, again);
        for (std::size_t j = 0; j < again.votes.size(); ++j) QCOMPARE(again.votes[j], det.votes[j]);
        QVERIFY(again.events.size() <= det.events.size());

        // The file round-trips bit for bit.
        QTemporaryDir dir;
        const std::string path = dir.filePath("fp1.detector.json").toStdString();
        io::saveDetector(path, d);
        const Detector back = io::loadDetector(path);
        QCOMPARE(back.patterns.size(), d.patterns.size());
        QCOMPARE(back.patterns[2].samples, d.patterns[2].samples);
        QCOMPARE(back.patterns[2].threshold, d.patterns[2].threshold);
        QCOMPARE(back.rule.votes, 2);
        QCOMPARE(back.patterns[0].channel, std::string("FP1-F7"));
        QCOMPARE(operatingPointName(back.operatingPoint), std::string("youden"));
    }

    void refusals() {
        Detector d;
        d.rateHz = 256;
        d.epoch = 4;
        d.stride = 2;
        d.band = 1;
        d.patterns.push_back({"FP1-F7", {1, 2, 3, 4}, 10.0, 0.9, 0.8, 0.1, "a.edf", 3});
        QTemporaryDir dir;
        const std::string good = dir.filePath("d.json").toStdString();
        io::saveDetector(good, d);
        const std::string text = iotest::readFile(good);
        auto damaged = [&](const std::string& name, std::string bytes) {
            const std::string p = iotest::writeIn(dir, name, bytes);
            return errorOf([&] { io::loadDetector(p); }).substr(p.size());
        };
        QCOMPARE(damaged("cut.json", text.substr(0, text.size() / 2)).substr(0, 31), std::string(": not a detector file (not JSON"));
        QCOMPARE(damaged("other.json", "{\"format\": \"session\"}"),
                 std::string(": format: not a detector file (no \"format\": \"warplab-detector\")"));
        std::string v2 = text;
        v2.replace(v2.find("\"version\":1"), 11, "\"version\":2");
        QCOMPARE(damaged("v2.json", v2), std::string(": version: version 2 is not one this WarpLab reads (1..1)"));
        std::string shortPattern = text;
        shortPattern.replace(shortPattern.find("[1.0,2.0,3.0,4.0]"), 17, "[1.0,2.0,3.0]");
        QCOMPARE(damaged("short.json", shortPattern), std::string(": patterns[0].samples: has 3 samples, the epoch 4"));
        std::string noThreshold = text;
        noThreshold.replace(noThreshold.find("\"threshold\""), 11, "\"thresh\"");
        QCOMPARE(damaged("nothr.json", noThreshold), std::string(": patterns[0].threshold: missing"));
        std::string badType = text;
        badType.replace(badType.find("\"epoch\":4"), 9, "\"epoch\":\"4\"");
        QCOMPARE(damaged("type.json", badType), std::string(": epoch: has the wrong type (string)"));

        // Another channel, another rate: the CHB-MIT crop (23 channels at 256 Hz).
        const auto rec = io::Recording::open(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
        Detector other = d;
        other.patterns[0].channel = "C3-A1";
        QCOMPARE(errorOf([&] { io::detectInRecording(other, *rec, cpu()); }),
                 rec->path() + ": channel: has no channel 'C3-A1', which the detector was built on");
        Detector fast = d;
        fast.rateHz = 512;
        QCOMPARE(errorOf([&] { io::detectInRecording(fast, *rec, cpu()); }),
                 rec->path() + ": rate: channel 'FP1-F7' is sampled at 256 Hz, the detector at 512 Hz: resample the recording first");
        const auto det = io::detectInRecording(d, *rec, cpu());  // the right channel and rate: it runs
        QCOMPARE(det.votes.size(), std::size_t((41 * 256 - 4) / 2 + 1));
    }

    void sweepsInTheDetectorsBand() {
        // A detector trained in a band sweeps the channel filtered to it: the same distances as
        // the band-free detector on the channel filtered beforehand.
        Detector d;
        d.rateHz = 256;
        d.epoch = 64;
        d.stride = 32;
        d.band = 4;
        std::vector<float> pattern(64);
        for (std::size_t k = 0; k < pattern.size(); ++k) pattern[k] = float(20 * std::sin(0.3 * double(k)));
        d.patterns.push_back({"FP1-F7", pattern, 5e4, 0.9, 0.8, 0.1, "a.edf", 3});
        const auto rec = io::Recording::open(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
        Detector alpha = d;
        alpha.filter = "alpha=8-13";
        const Detection filtered = io::detectInRecording(alpha, *rec, cpu());
        const int s = rec->findSignal("FP1-F7");
        const auto x = spectral::bandFilter(rec->read(s, 0, 41 * 256), 256, spectral::parseFrequencyBand("8-13"));
        const Detection byHand = applyDetector(d, [&](const std::string&) { return x; }, 256, cpu());
        QCOMPARE(filtered.distances, byHand.distances);
        QVERIFY(filtered.distances != io::detectInRecording(d, *rec, cpu()).distances);
        // The band survives the file, and a band that is none is refused by name.
        QTemporaryDir dir;
        const std::string path = dir.filePath("alpha.json").toStdString();
        io::saveDetector(path, alpha);
        QCOMPARE(io::loadDetector(path).filter, std::string("alpha=8-13"));
        std::string text = iotest::readFile(path);
        text.replace(text.find("alpha=8-13"), 10, "zeta");
        const std::string bad = iotest::writeIn(dir, "zeta.json", text);
        QVERIFY2(errorOf([&] { io::loadDetector(bad); }).rfind(bad + ": filter: not a frequency band", 0) == 0,
                 errorOf([&] { io::loadDetector(bad); }).c_str());
    }
};

QTEST_GUILESS_MAIN(TestDetector)
#include "test_detector.moc"
