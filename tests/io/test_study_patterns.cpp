// Pattern discovery over a generated study: the ranking, matrix, pattern places and
// nearest epochs equal what this test computes itself from each recording's own patterns and
// epochs (read with Recording, not through the study) with a naive band DTW and pairwise AUC;
// cpu.reference and the default CPU kernel both; a one-segment study equals the
// single-recording request; bad segment input is named.
#include <QtTest>
#undef signals

#include <cmath>

#include "../compute/patterns_reference.h"
#include "compute/patterns/pattern_discovery.h"
#include "io/recording.h"
#include "io/study.h"
#include "io_test_util.h"
#include "study_fixture.h"

using namespace warplab;
namespace fx = study_fixture;
namespace ref = patterns_reference;

namespace {

constexpr int kE = 64, kS = 32, kW = 4;

struct Expected {
    std::vector<std::vector<double>> dm;           // patterns x epochs
    std::vector<unsigned char> ictal;
    std::vector<std::string> patternFile;          // per pattern
    std::vector<long long> patternSample;          // start in its file
    std::vector<std::string> epochFile;
    std::vector<long long> epochSample;
    std::vector<double> quality;
    std::vector<std::size_t> order;                // best first, ties by index
};

// Straight from METRICS.md, per recording, from the files themselves.
Expected expected(const std::string& folder, const std::string& channel) {
    std::vector<std::vector<float>> pats, epochs;
    Expected x;
    for (const auto& spec : fx::files()) {
        auto rec = io::Recording::open(folder + "/" + spec.name);
        const int sig = rec->findSignal(channel);
        if (sig < 0) continue;  // the recording lacks the channel: skipped
        const auto v = rec->read(sig, 0, rec->signals()[std::size_t(sig)].samples);
        const long long n = (long long)v.size();
        const long long sb = std::llround(spec.seizureStart * fx::kRate), se = std::llround(spec.seizureEnd * fx::kRate);
        for (long long q = 0; se > sb && q + kE <= se - sb; q += kS) {
            pats.emplace_back(v.begin() + sb + q, v.begin() + sb + q + kE);
            x.patternFile.push_back(spec.name);
            x.patternSample.push_back(sb + q);
        }
        for (long long b = 0; b + kE <= n; b += kS) {
            epochs.emplace_back(v.begin() + b, v.begin() + b + kE);
            const long long overlap = std::max(0LL, std::min(b + kE, se) - std::max(b, sb));
            x.ictal.push_back(2 * overlap >= kE ? 1 : 0);
            x.epochFile.push_back(spec.name);
            x.epochSample.push_back(b);
        }
    }
    for (const auto& p : pats) {
        std::vector<double> row;
        for (const auto& e : epochs) row.push_back(ref::cdtw(p.data(), e.data(), kE, kW));
        x.quality.push_back(ref::auc(row, x.ictal));
        x.dm.push_back(std::move(row));
    }
    for (std::size_t i = 0; i < pats.size(); ++i) x.order.push_back(i);
    std::stable_sort(x.order.begin(), x.order.end(), [&](std::size_t a, std::size_t b) { return x.quality[a] > x.quality[b]; });
    return x;
}

compute::PatternRanking run(compute::PatternRequest r, const std::string& kernel, std::size_t epochBlock = 0) {
    r.epoch = kE;
    r.stride = kS;
    r.band = kW;
    r.keepMatrix = true;
    r.epochBlock = epochBlock;
    compute::RunOptions o;
    o.backend = compute::Backend::Cpu;
    o.kernel = kernel;
    return compute::findPatterns(r, o);
}

}  // namespace

class TestStudyPatterns : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string folder_;

private slots:
    void initTestCase() {
        folder_ = dir_.path().toStdString();
        fx::writeFiles(folder_);
        fx::writeSummary(folder_ + "/study-summary.txt", false);
    }

    void rankingEqualsPerRecordingComputation_data() {
        QTest::addColumn<QString>("channel");
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<int>("epochBlock");
        QTest::newRow("CZ (absent from s_b), reference") << "CZ" << "cpu.reference" << 0;
        QTest::newRow("CZ, reference, blocks across files") << "CZ" << "cpu.reference" << 50;
        QTest::newRow("FP1-F7, default CPU kernel, small blocks") << "FP1-F7" << "" << 7;
    }
    void rankingEqualsPerRecordingComputation() {
        QFETCH(QString, channel);
        QFETCH(QString, kernel);
        QFETCH(int, epochBlock);
        auto st = io::Study::open(folder_ + "/study-summary.txt");
        const int c = st->findChannel(channel.toStdString());
        const Expected x = expected(folder_, channel.toStdString());
        const auto got = run(io::studyPatternRequest(*st, c), kernel.toStdString(), std::size_t(epochBlock));
        QCOMPARE(got.patternCount, x.dm.size());
        QCOMPARE(got.epochCount, x.ictal.size());
        QCOMPARE(got.epochIctal, x.ictal);
        QCOMPARE(got.ictalCount, std::size_t(std::count(x.ictal.begin(), x.ictal.end(), 1)));
        QCOMPARE(got.segments.size(), std::size_t(channel == "CZ" ? 3 : 4));
        const double tol = kernel.isEmpty() ? 1e-4 : 1e-9;  // fast kernels accumulate in float
        for (std::size_t i = 0; i < x.dm.size(); ++i)
            for (std::size_t j = 0; j < x.ictal.size(); ++j)
                QVERIFY2(std::fabs(got.matrix.values[i * got.epochCount + j] - x.dm[i][j]) <= tol * std::max(1.0, x.dm[i][j]),
                         qPrintable(QString("DM[%1][%2]").arg(i).arg(j)));
        for (std::size_t k = 0; k < x.order.size(); ++k) {
            const auto& p = got.ranked[k];
            QCOMPARE(p.index, x.order[k]);
            QCOMPARE(p.quality, x.quality[x.order[k]]);
            const auto& seg = got.segments[p.segment];
            QCOMPARE(seg.recording, x.patternFile[p.index]);
            QCOMPARE(p.recordingSample, x.patternSample[p.index]);
            QCOMPARE(p.startS, double(p.recordingSample) / fx::kRate);
            QCOMPARE(p.clockS, st->recordings()[std::size_t(seg.recordingIndex)].offsetS + p.startS);
            // The nearest epoch: the smallest distance of the row, named by file and place.
            const auto& row = x.dm[p.index];
            const auto best = std::min_element(row.begin(), row.end()) - row.begin();
            const auto& ne = p.nearest.front();
            QVERIFY(std::fabs(ne.distance - row[std::size_t(best)]) <= tol * std::max(1.0, row[std::size_t(best)]));
            QCOMPARE(got.segments[ne.segment].recording, x.epochFile[ne.epoch]);
            QCOMPARE(ne.startS, double(x.epochSample[ne.epoch]) / fx::kRate);
            QCOMPARE(ne.ictal, x.ictal[ne.epoch] != 0);
        }
    }

    // One recording as a one-segment study gives the single-recording result, field by field.
    void oneSegmentEqualsSingleRecording() {
        auto rec = io::Recording::open(folder_ + "/s_a.edf");
        const int sig = rec->findSignal("FP1-F7");
        const auto v = rec->read(sig, 0, rec->signals()[std::size_t(sig)].samples);
        compute::PatternRequest single;
        single.samples = v;
        single.rateHz = fx::kRate;
        single.seizures = {{20, 35}};
        compute::PatternRequest study;
        study.rateHz = fx::kRate;
        compute::PatternSegment seg;
        seg.reader = [&](long long s, long long n, float* out) { std::copy(v.begin() + s, v.begin() + s + n, out); };
        seg.sampleCount = (long long)v.size();
        seg.seizures = {{20, 35}};
        study.segments.push_back(seg);
        const auto a = run(single, "cpu.reference"), b = run(study, "cpu.reference", 13);
        QCOMPARE(a.matrix.values, b.matrix.values);
        QCOMPARE(a.ranked.size(), b.ranked.size());
        for (std::size_t k = 0; k < a.ranked.size(); ++k) {
            QCOMPARE(a.ranked[k].index, b.ranked[k].index);
            QCOMPARE(a.ranked[k].quality, b.ranked[k].quality);
            QCOMPARE(a.ranked[k].startS, b.ranked[k].startS);
            QCOMPARE(a.ranked[k].nearest.front().epoch, b.ranked[k].nearest.front().epoch);
        }
        QCOMPARE(a.seizures.size(), std::size_t(1));
        QCOMPARE(b.segments.front().seizures.size(), std::size_t(1));
    }

    void badSegments() {
        auto st = io::Study::open(folder_ + "/study-summary.txt");
        auto r = io::studyPatternRequest(*st, 0);
        auto mixed = r;
        mixed.seizures = {{1, 2}};
        QVERIFY(iotest::errorOf([&] { compute::validatePatternRequest(mixed); }).find("segments") != std::string::npos);
        auto outside = r;
        outside.segments[1].seizures = {{40, 50}};  // s_b is 45 s long
        const std::string err = iotest::errorOf([&] { compute::validatePatternRequest(outside); });
        QVERIFY2(err.find("segments[1].seizures[0]") != std::string::npos && err.find("s_b.edf") != std::string::npos, err.c_str());
        auto none = r;
        for (auto& s : none.segments) s.seizures.clear();
        QVERIFY(iotest::errorOf([&] { compute::validatePatternRequest(none); }).find("no seizure") != std::string::npos);
        auto tooLong = r;
        tooLong.epoch = 64 * 61;
        QVERIFY(iotest::errorOf([&] { compute::validatePatternRequest(tooLong); }).find("every recording") != std::string::npos);
        // NaN samples name the recording.
        auto nan = r;
        nan.segments[2].reader = [](long long, long long n, float* out) {
            std::fill(out, out + n, 1.0f);
            out[0] = std::nanf("");
        };
        nan.epoch = kE;
        nan.stride = kS;
        nan.band = kW;
        compute::RunOptions o;
        o.backend = compute::Backend::Cpu;
        const std::string e2 = iotest::errorOf([&] { compute::findPatterns(nan, o); });
        QVERIFY2(e2.find("s_c.edf") != std::string::npos && e2.find("not a finite") != std::string::npos, e2.c_str());
    }
};

QTEST_GUILESS_MAIN(TestStudyPatterns)
#include "test_study_patterns.moc"
