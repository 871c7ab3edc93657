// Cross-validation from one matrix of the whole study (crossValidateCached) against the
// definition (crossValidatePerFold: each fold discovers, builds and sweeps anew): the same folds,
// detectors, training ROCs, held-out distances, detections and scores, bit for bit, on the Bonn
// segments of tests/data, on synthetic studies with planted seizures (one and two channels, one
// recording read lazily) and on a study whose detectors hold patterns that run from one seizure
// into the next (not rows of the matrix: swept apart), also with a kernel whose distances are
// doubles rather than floats. A ranking made from sorted rows (rankSortedPatternRows) is
// findPatterns' for the same request, score for score; and a matrix's rows sorted once, then read
// without a stretch of columns (SortedMatrix, how each fold gets its sorted rows), are sortRow's of
// the sub-rows, ties and the float or double view included.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "compute/detect/crossval.h"
#include "compute/patterns/sorted_matrix.h"
#include "io/score_json.h"
#include "tests/io/bonn_study.h"
#include "tests/io/synthetic_study.h"

using namespace warplab::compute;
using Study = warplab::testing::SyntheticStudy;

namespace {

RunOptions cpu() {
    RunOptions o;
    o.backend = Backend::Cpu;
    return o;
}

// The first difference between two caches, or "" when they are the same bit for bit.
std::string difference(const CrossvalCache& a, const CrossvalCache& b) {
    std::ostringstream d;
    if (a.folds.size() != b.folds.size() || a.totalS != b.totalS) return "fold count or study time";
    for (std::size_t k = 0; k < a.folds.size(); ++k) {
        const CachedFold &x = a.folds[k], &y = b.folds[k];
        const std::string f = "fold " + std::to_string(k) + " (" + x.recording + "): ";
        if (x.recordingIndex != y.recordingIndex || x.recording != y.recording || x.training != y.training ||
            x.durationS != y.durationS || x.seizures.size() != y.seizures.size())
            return f + "what it holds out or trains on";
        const Detector &p = x.detector, &q = y.detector;
        if (p.rateHz != q.rateHz || p.epoch != q.epoch || p.stride != q.stride || p.band != q.band || p.filter != q.filter ||
            p.patterns.size() != q.patterns.size())
            return f + "detector settings or pattern count";
        for (std::size_t i = 0; i < p.patterns.size(); ++i) {
            const auto &u = p.patterns[i], &v = q.patterns[i];
            if (u.channel != v.channel || u.samples != v.samples || u.recording != v.recording || u.startS != v.startS)
                return f + "pattern " + std::to_string(i) + " is another pattern";
            if (u.threshold != v.threshold || u.quality != v.quality || u.trainingTpr != v.trainingTpr ||
                u.trainingFpr != v.trainingFpr) {
                d << f << "pattern " << i << ": threshold " << u.threshold << " vs " << v.threshold << ", quality "
                  << u.quality << " vs " << v.quality;
                return d.str();
            }
        }
        if (x.rocs.size() != y.rocs.size()) return f + "ROC count";
        for (std::size_t i = 0; i < x.rocs.size(); ++i) {
            const auto &u = x.rocs[i], &v = y.rocs[i];
            if (u.distances != v.distances || u.ictal != v.ictal || u.ictalCount != v.ictalCount ||
                u.interictalAt != v.interictalAt || u.youden.threshold != v.youden.threshold)
                return f + "training ROC of pattern " + std::to_string(i);
        }
        const Detection &s = x.detection, &t = y.detection;
        if (s.distances != t.distances) return f + "held-out distances";
        if (s.votes != t.votes || s.events.size() != t.events.size()) return f + "votes or events";
        for (std::size_t e = 0; e < s.events.size(); ++e)
            if (s.events[e].startS != t.events[e].startS || s.events[e].endS != t.events[e].endS ||
                s.events[e].confidence != t.events[e].confidence)
                return f + "event " + std::to_string(e);
    }
    // And the scores as the CLI writes them (folds, outcomes, pooled).
    nlohmann::ordered_json ja, jb;
    warplab::io::appendCrossvalJson(ja, rescore(a));
    warplab::io::appendCrossvalJson(jb, rescore(b));
    if (ja != jb) return "scores: " + ja.dump() + " vs " + jb.dump();
    return {};
}

// Whether a detector pattern starts inside a marked seizure of its recording and ends past it
// (then discovery's pattern there ran on into the next seizure).
bool spansTwoSeizures(const Study& s, const DetectorPattern& p, int epoch) {
    for (const auto& seg : s.request.segments) {
        if (seg.recording != p.recording) continue;
        const long long a = std::llround(p.startS * s.request.rateHz), b = a + epoch;
        for (const auto& z : seg.seizures) {
            const long long z0 = std::llround(z.start * s.request.rateHz), z1 = std::llround(z.end * s.request.rateHz);
            if (a >= z0 && a < z1) return b > z1;
        }
    }
    return false;
}

// The first difference between two rankings' scores (order, quality, histogram, means, nearest
// epochs), or "".
std::string scoreDifference(const PatternRanking& a, const PatternRanking& b) {
    if (a.ranked.size() != b.ranked.size() || a.epochIctal != b.epochIctal) return "pattern count or labels";
    for (std::size_t k = 0; k < a.ranked.size(); ++k) {
        const PatternScore &x = a.ranked[k], &y = b.ranked[k];
        const std::string at = "rank " + std::to_string(k) + ": ";
        if (x.index != y.index || x.segment != y.segment || x.recordingSample != y.recordingSample) return at + "another pattern";
        if (x.quality != y.quality || x.meanIctal != y.meanIctal || x.meanInterictal != y.meanInterictal)
            return at + "quality or means";
        if (x.histogram.lo != y.histogram.lo || x.histogram.hi != y.histogram.hi || x.histogram.ictal != y.histogram.ictal ||
            x.histogram.interictal != y.histogram.interictal)
            return at + "histogram";
        if (x.nearest.size() != y.nearest.size()) return at + "nearest count";
        for (std::size_t q = 0; q < x.nearest.size(); ++q)
            if (x.nearest[q].epoch != y.nearest[q].epoch || x.nearest[q].distance != y.nearest[q].distance)
                return at + "nearest epoch " + std::to_string(q);
    }
    return {};
}

}  // namespace

class TestCrossvalMatrix : public QObject {
    Q_OBJECT
private slots:
    void syntheticStudyEqualsPerFold() {
        const Study s = warplab::testing::syntheticStudy();
        for (const auto folds : {CrossvalFolds::Seizure, CrossvalFolds::Recording}) {
            CrossvalOptions o;
            o.folds = folds;
            o.build.top = 4;
            o.build.rule.votes = 2;
            const long long before = epochDistanceCalls();
            const CrossvalCache one = crossValidateCached({s.request}, o, cpu());
            // No DTW per fold: every training and held-out distance came from the one matrix.
            QCOMPARE(epochDistanceCalls(), before);
            const CrossvalCache per = crossValidatePerFold({s.request}, o, cpu());
            QCOMPARE(one.folds.size(), folds == CrossvalFolds::Seizure ? std::size_t(4) : std::size_t(5));
            const std::string d = difference(one, per);
            QVERIFY2(d.empty(), d.c_str());
            // Another operating point re-decided from both caches agrees too.
            const CrossvalResult a = rescore(one, {OperatingPoint::Kind::FalsePositiveRate, 0.05}, {1, 1, 0}, o.event, o.sample);
            const CrossvalResult b = rescore(per, {OperatingPoint::Kind::FalsePositiveRate, 0.05}, {1, 1, 0}, o.event, o.sample);
            nlohmann::ordered_json ja, jb;
            warplab::io::appendCrossvalJson(ja, a);
            warplab::io::appendCrossvalJson(jb, b);
            QCOMPARE(ja.dump(), jb.dump());
        }
    }

    void viewsWithoutACountGiveTheirLength() {
        // A study given as views of samples (the count left 0, as the Python package's are)
        // scores each fold over its recording's whole length.
        Study a = warplab::testing::syntheticStudy(101, 200);
        Study views = a;
        for (auto& seg : views.request.segments) seg.sampleCount = 0;
        CrossvalOptions o;
        o.build.top = 3;
        const CrossvalCache withCount = crossValidateCached({a.request}, o, cpu());
        const CrossvalCache without = crossValidateCached({views.request}, o, cpu());
        QVERIFY(withCount.totalS > 0);
        QCOMPARE(without.totalS, withCount.totalS);
        for (std::size_t k = 0; k < without.folds.size(); ++k) {
            QVERIFY(without.folds[k].durationS > 0);
            QCOMPARE(without.folds[k].durationS, withCount.folds[k].durationS);
        }
        const std::string d = difference(without, withCount);
        QVERIFY2(d.empty(), d.c_str());
    }

    void twoChannelsAndALazyRecordingEqualPerFold() {
        // Two channels vote (the second from other seeds), and one recording of the first is
        // read through a reader, as a study on disk is.
        Study a = warplab::testing::syntheticStudy(101, 200), b = warplab::testing::syntheticStudy(301, 400);
        b.request.channel = "EEG2";
        auto& lazy = a.request.segments[2];
        const std::vector<float>* x = &a.samples[2];
        lazy.samples = {};
        lazy.sampleCount = (long long)x->size();
        lazy.reader = [x](long long start, long long count, float* out) {
            std::copy(x->begin() + start, x->begin() + start + count, out);
        };
        CrossvalOptions o;
        o.build.top = 3;
        o.build.rule.votes = 3;
        const CrossvalCache one = crossValidateCached({a.request, b.request}, o, cpu());
        const CrossvalCache per = crossValidatePerFold({a.request, b.request}, o, cpu());
        QCOMPARE(one.folds.front().detector.channels().size(), std::size_t(2));
        const std::string d = difference(one, per);
        QVERIFY2(d.empty(), d.c_str());
    }

    void patternsAcrossTwoSeizuresEqualPerFold() {
        // Each recording has two short seizures (1.5 epochs each): discovery's patterns in
        // between run from the first into the second (their concatenation), which the detector
        // cuts from the recording instead. With every pattern in the detector, some are such.
        Study s;
        for (int i = 0; i < 4; ++i) {
            SyntheticChannel c;
            c.samples = 120 * 256;
            c.seizureSamples = 2 * 1536;
            c.seizureCount = 2;
            c.seed = 500 + std::uint64_t(i);
            warplab::testing::addRecording(s, syntheticSamples(c), syntheticSeizures(c), "two" + std::to_string(i) + ".edf");
        }
        warplab::testing::finish(s, 256);
        CrossvalOptions o;
        o.build.top = 100;
        o.build.rule.votes = 4;
        const CrossvalCache one = crossValidateCached({s.request}, o, cpu());
        const CrossvalCache per = crossValidatePerFold({s.request}, o, cpu());
        int across = 0;
        for (const auto& f : one.folds)
            for (const auto& p : f.detector.patterns) across += spansTwoSeizures(s, p, f.detector.epoch) ? 1 : 0;
        QVERIFY(across > 0);
        const std::string d = difference(one, per);
        QVERIFY2(d.empty(), d.c_str());
    }

    void bonnStudyEqualsPerFold() {
        const Study s = warplab::testing::bonnStudy(WARPLAB_TEST_DATA "/bonn", 5);
        QCOMPARE(s.request.segments.size(), std::size_t(5));
        CrossvalOptions o;
        o.build.top = 5;
        o.build.rule.votes = 3;
        const CrossvalCache one = crossValidateCached({s.request}, o, cpu());
        const CrossvalCache per = crossValidatePerFold({s.request}, o, cpu());
        QCOMPARE(one.folds.size(), std::size_t(5));
        const std::string d = difference(one, per);
        QVERIFY2(d.empty(), d.c_str());
        QVERIFY(rescore(one).sample.sensitivity > 0.5);
    }

    void rankingFromSortedRowsEqualsFindPatterns() {
        // Every score of a ranking made from its matrix's rows sorted once equals findPatterns'
        // over the same request: order, quality, histogram, means, nearest epochs.
        const Study s = warplab::testing::bonnStudy(WARPLAB_TEST_DATA "/bonn", 5);
        for (const int heldOut : {-1, 2}) {
            PatternRequest r = withoutRecording({s.request}, heldOut).front();
            r.keepMatrix = true;
            const PatternRanking direct = findPatterns(r, cpu());
            QCOMPARE(direct.matrix.rows, direct.patternCount);
            const SortedMatrix sorted(direct.matrix, cpu());
            const PatternRanking fromRows = rankSortedPatternRows(
                r, [&](std::size_t i, SortedRow& row) { sorted.sortedWithout(i, 0, 0, row); }, cpu());
            QCOMPARE(fromRows.ranked.size(), direct.ranked.size());
            const std::string d = scoreDifference(fromRows, direct);
            QVERIFY2(d.empty(), d.c_str());
        }
    }

    void doubleDistancesEqualPerFold() {
        // cpu.reference gives doubles that are not floats: every fold row takes the 64-bit view.
        // Short recordings and epochs keep the one-core kernel quick.
        Study s;
        for (int i = 0; i < 4; ++i) {
            SyntheticChannel c;
            c.samples = 30 * 256;
            c.seizureSamples = 6 * 256;
            c.seizureCount = i < 3 ? 1 : 0;
            c.seed = 700 + std::uint64_t(i);
            warplab::testing::addRecording(s, syntheticSamples(c), i < 3 ? syntheticSeizures(c) : std::vector<SecondsSpan>{},
                                           "d" + std::to_string(i) + ".edf");
        }
        warplab::testing::finish(s, 256);
        s.request.epoch = 128;
        s.request.stride = 128;
        s.request.band = 4;
        RunOptions run = cpu();
        run.kernel = "cpu.reference";
        PatternRequest whole = s.request;
        whole.keepMatrix = true;
        const PatternRanking direct = findPatterns(whole, run);
        QVERIFY(std::any_of(direct.matrix.values.begin(), direct.matrix.values.end(),
                            [](double v) { return double(float(v)) != v; }));
        CrossvalOptions o;
        o.build.top = 3;
        o.build.rule.votes = 2;
        const CrossvalCache one = crossValidateCached({s.request}, o, run);
        const CrossvalCache per = crossValidatePerFold({s.request}, o, run);
        QCOMPARE(one.folds.size(), std::size_t(3));
        const std::string d = difference(one, per);
        QVERIFY2(d.empty(), d.c_str());
        // A fold's ranking from the sorted study matrix is its own discovery's, score for score
        // (histograms, means and nearest distances would show a float view of these doubles).
        const SortedMatrix sorted(direct.matrix, run);
        for (const SegmentSummary& held : direct.segments) {
            PatternRequest fold = withoutRecording({s.request}, held.recordingIndex).front();
            const PatternRanking own = findPatterns(fold, run);
            std::vector<std::size_t> rows;
            for (const SegmentSummary& t : direct.segments)
                for (std::size_t i = 0; i < t.patternCount && t.recordingIndex != held.recordingIndex; ++i)
                    rows.push_back(t.patternBegin + i);
            const PatternRanking fromSorted = rankSortedPatternRows(
                fold,
                [&](std::size_t i, SortedRow& row) {
                    sorted.sortedWithout(rows[i], held.epochBegin, held.epochBegin + held.epochCount, row);
                },
                run);
            const std::string e = scoreDifference(fromSorted, own);
            QVERIFY2(e.empty(), (held.recording + ": " + e).c_str());
        }
    }

    void sortedRowsWithoutColumnsEqualSortRow() {
        // Rows with many ties (across the left-out stretch too), zeros of both signs, an
        // infinity; one row whose only non-floats lie in [20, 35), one of non-floats throughout.
        const std::size_t cols = 60;
        DistanceMatrix m;
        m.rows = 4;
        m.cols = cols;
        m.values.resize(m.rows * cols);
        for (std::size_t i = 0; i < m.rows; ++i)
            for (std::size_t j = 0; j < cols; ++j) m.values[i * cols + j] = double(float((j * 7 + i * 3) % 9) * 0.37f);
        m.values[0 * cols + 5] = -0.0;
        m.values[0 * cols + 40] = 0.0;
        m.values[0 * cols + 41] = INFINITY;
        for (std::size_t j = 20; j < 35; j += 4) m.values[1 * cols + j] = 1.0 / 3.0 + double(j % 8);
        for (std::size_t j = 0; j < cols; ++j) m.values[2 * cols + j] = double((j * 5) % 7) / 3.0;
        m.values[3 * cols + 59] = 0.1;  // the last column only
        const SortedMatrix sorted(m, cpu());
        SortedRow got;  // reused from row to row, as a fold's ranking does
        struct Skip { std::size_t begin, end; };
        for (std::size_t i = 0; i < m.rows; ++i)
            for (const Skip k : {Skip{0, 0}, Skip{0, 10}, Skip{20, 35}, Skip{21, 34}, Skip{50, 60}, Skip{59, 60}, Skip{0, 60}}) {
                std::vector<double> sub;
                for (std::size_t j = 0; j < cols; ++j)
                    if (j < k.begin || j >= k.end) sub.push_back(m.values[i * cols + j]);
                const SortedRow want = sortRow(sub);
                sorted.sortedWithout(i, k.begin, k.end, got);
                const std::string at = "row " + std::to_string(i) + " without [" + std::to_string(k.begin) + ", " +
                                       std::to_string(k.end) + ")";
                QVERIFY2(got.floats == want.floats, at.c_str());
                QVERIFY2(got.epoch == want.epoch, at.c_str());
                QVERIFY2(got.floats ? got.distanceF == want.distanceF : got.distanceD == want.distanceD, at.c_str());
            }
        // Both views occur: the row with non-floats in [20, 35) is all floats without them.
        sorted.sortedWithout(1, 20, 35, got);
        QVERIFY(got.floats);
        sorted.sortedWithout(1, 21, 34, got);
        QVERIFY(!got.floats);
        sorted.sortedWithout(3, 50, 60, got);
        QVERIFY(got.floats);
    }

    void cancelStopsTheOneMatrix() {
        const Study s = warplab::testing::syntheticStudy();
        CancelToken cancel;
        cancel.cancel();
        RunOptions run = cpu();
        run.cancel = &cancel;
        try {
            crossValidateCached({s.request}, CrossvalOptions{}, run);
            QFAIL("a cancelled cross-validation returned");
        } catch (const EngineError& e) {
            QCOMPARE(e.kind(), EngineError::Kind::Cancelled);
        }
    }
};

QTEST_GUILESS_MAIN(TestCrossvalMatrix)
#include "test_crossval_matrix.moc"
