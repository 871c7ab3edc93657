// Seizure pattern discovery on small synthetic channels: epoch layout and labels, the two
// quality measures against hand-computed values, the planted pattern ranked first, tiles of
// different sizes giving the same matrix, and clear errors for bad input.
#include <QtTest/QtTest>

#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include "compute/core/error.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/patterns/study_layout.h"
#include "patterns_reference.h"

using namespace warplab::compute;

namespace {

// A channel of white noise (64 Hz, e = s = 64 = one second) with five one-second seizures:
// the first (at 10 s) is plain noise, a distractor; the other four (30, 55, 80, 105 s) hold
// the planted waveform W, a spike and a trough, under faint noise. Twelve interictal seconds
// hold a large artefact of another shape (a slow wave of about W's energy), so that being far
// from the planted epochs, as every noise pattern is, does not separate them by itself
// (information gain is blind to the direction of a split).
struct Planted {
    std::vector<float> x;
    std::vector<SecondsSpan> seizures;
    std::set<double> plantedStarts;
};

float plantedW(int k) {
    return float(6.0 * std::exp(-std::pow((k - 20) / 5.0, 2)) - 4.0 * std::exp(-std::pow((k - 42) / 4.0, 2)));
}

Planted makePlanted() {
    Planted p;
    std::mt19937 rng(7);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    p.x.resize(64 * 120);
    for (auto& v : p.x) v = noise(rng);
    for (int sec : {3, 14, 18, 24, 40, 47, 65, 71, 90, 98, 111, 115})
        for (int k = 0; k < 64; ++k)
            p.x[std::size_t(sec * 64 + k)] = float(3.0 * std::sin(2 * M_PI * k / 64.0)) + 0.05f * noise(rng);
    p.seizures.push_back({10, 11});
    for (int sec : {30, 55, 80, 105}) {
        for (int k = 0; k < 64; ++k) p.x[std::size_t(sec * 64 + k)] = plantedW(k) + 0.05f * noise(rng);
        p.seizures.push_back({double(sec), double(sec + 1)});
        p.plantedStarts.insert(sec);
    }
    return p;
}

PatternRequest plantedRequest(const Planted& p) {
    PatternRequest r;
    r.samples = p.x;
    r.rateHz = 64;
    r.channel = "synthetic";
    r.seizures = p.seizures;
    r.epoch = 64;
    r.stride = 64;
    r.band = 4;
    return r;
}

RunOptions cpu(const std::string& kernel = {}) {
    RunOptions o;
    o.backend = Backend::Cpu;
    o.kernel = kernel;
    return o;
}

}  // namespace

class TestPatterns : public QObject {
    Q_OBJECT
private slots:
    void epochCountFollowsTheFormula() {
        QCOMPARE(epochCount(1000, 100, 50), 19LL);  // floor(900/50)+1
        QCOMPARE(epochCount(1049, 100, 50), 19LL);
        QCOMPARE(epochCount(1050, 100, 50), 20LL);
        QCOMPARE(epochCount(99, 100, 50), 0LL);
        // The published workload: 589,823 epochs of 1024 at stride 256, 415 patterns.
        QCOMPARE(epochCount(150995456, 1024, 256), 589823LL);
        QCOMPARE(epochCount(107263, 1024, 256), 415LL);
    }

    void pinnedBuffersAheadOfTheRunMatchItsBlocks() {
        // The published workload: 2 GiB budget -> 32 rows per block (clamped), 589,823 epochs;
        // on two devices each block has 16 rows (epoch_matrix.cu divides by the devices).
        QCOMPARE(deviceRowBlock(0, 589823), std::size_t(32));
        QCOMPARE(devicePinnedBufferBytes(150995456, 1024, 256, 0, 1), std::size_t(32) * 589823 * sizeof(float));
        QCOMPARE(devicePinnedBufferBytes(150995456, 1024, 256, 0, 2), std::size_t(16) * 589823 * sizeof(float));
        // A small budget holds fewer rows: 3 blocks of rows x epochs doubles within it.
        QCOMPARE(deviceRowBlock(std::size_t(3) * 10 * 1000 * sizeof(double), 1000), std::size_t(10));
        QCOMPARE(deviceRowBlock(1, 1000), std::size_t(1));
        // More devices than rows per block still pin one row each; no epoch, nothing.
        QCOMPARE(devicePinnedBufferBytes(150995456, 1024, 256, 0, 64), std::size_t(1) * 589823 * sizeof(float));
        QCOMPARE(devicePinnedBufferBytes(100, 1024, 256, 0, 1), std::size_t(0));
        QCOMPARE(devicePinnedBufferBytes(5000, 1024, 0, 0, 1), std::size_t(0));
    }

    void seizureSpansAreSortedMergedAndLabelled() {
        // 10 Hz: seizures 5-8 s and 2-3 s and 7.5-9 s (overlapping the first).
        auto spans = seizureSampleSpans({{5, 8}, {2, 3}, {7.5, 9}}, 10.0, 200);
        QCOMPARE(spans.size(), std::size_t(2));
        QCOMPARE(spans[0].begin, 20LL);
        QCOMPARE(spans[0].end, 30LL);
        QCOMPARE(spans[1].begin, 50LL);
        QCOMPARE(spans[1].end, 90LL);
        QCOMPARE(queryLength(spans), 50LL);
        // Query offsets 0..9 are the first span, 10.. continue at sample 50.
        QCOMPARE(queryToRecordingSample(spans, 0), 20LL);
        QCOMPARE(queryToRecordingSample(spans, 9), 29LL);
        QCOMPARE(queryToRecordingSample(spans, 10), 50LL);
        QCOMPARE(queryToRecordingSample(spans, 49), 89LL);
        // e = 20, s = 10: epoch j covers [10j, 10j+20). Overlaps with [20,30) u [50,90):
        // j=0:0 j=1:10 j=2:10 j=3:0 j=4:10 j=5:20 j=6:20 j=7:20 j=8:10 j=9:0.
        auto ictal = ictalEpochs(spans, epochCount(200, 20, 10), 20, 10);
        const std::vector<unsigned char> expected = {0, 1, 1, 0, 1, 1, 1, 1, 1, 0};
        for (std::size_t j = 0; j < expected.size(); ++j) QCOMPARE(int(ictal[j]), int(expected[j]));
        for (std::size_t j = expected.size(); j < ictal.size(); ++j) QCOMPARE(int(ictal[j]), 0);
    }

    void aucByHand() {
        const std::vector<unsigned char> a = {1, 1, 0, 0};
        QCOMPARE(aucQuality(std::vector<double>{1, 2, 3, 4}, a), 1.0);
        QCOMPARE(aucQuality(std::vector<double>{4, 3, 2, 1}, a), 0.0);
        // ictal {2,3} vs interictal {1,4}: 2 of 4 pairs have the ictal one nearer.
        QCOMPARE(aucQuality(std::vector<double>{1, 2, 3, 4}, std::vector<unsigned char>{0, 1, 1, 0}), 0.5);
        // a tie counts one half: ictal {1} vs {1, 2} -> (0.5 + 1) / 2.
        QCOMPARE(aucQuality(std::vector<double>{1, 1, 2}, std::vector<unsigned char>{1, 0, 0}), 0.75);
    }

    void infoGainByHand() {
        QCOMPARE(infoGainQuality(std::vector<double>{1, 2, 3, 4}, std::vector<unsigned char>{1, 1, 0, 0}), 1.0);
        // Labels 1,1,0,1,0,0 by distance: the best split leaves {1,1} | {0,1,0,0} (or its mirror):
        // 1 bit - 4/6 * H(1/4).
        const double h14 = 0.25 * 2.0 + 0.75 * std::log2(4.0 / 3.0);
        const double expected = 1.0 - (4.0 / 6.0) * h14;
        const double got = infoGainQuality(std::vector<double>{1, 2, 3, 4, 5, 6}, std::vector<unsigned char>{1, 1, 0, 1, 0, 0});
        QVERIFY(std::abs(got - expected) < 1e-12);
        // Equal distances cannot be split: no gain.
        QCOMPARE(infoGainQuality(std::vector<double>{5, 5, 5}, std::vector<unsigned char>{1, 0, 1}), 0.0);
    }

    void qualityMatchesPairwiseCounts_data() {
        QTest::addColumn<int>("seed");
        for (int s = 1; s <= 5; ++s) QTest::newRow(qPrintable(QString("seed %1").arg(s))) << s;
    }
    void qualityMatchesPairwiseCounts() {
        QFETCH(int, seed);
        std::mt19937 rng{unsigned(seed)};
        std::uniform_int_distribution<int> value(0, 20);  // many ties on purpose
        std::vector<double> d(200);
        std::vector<unsigned char> ictal(200);
        for (std::size_t k = 0; k < d.size(); ++k) {
            d[k] = value(rng);
            ictal[k] = (value(rng) + int(d[k])) % 3 == 0;
        }
        QVERIFY(std::abs(aucQuality(d, ictal) - patterns_reference::auc(d, ictal)) < 1e-12);
        QVERIFY(std::abs(infoGainQuality(d, ictal) - patterns_reference::infoGain(d, ictal)) < 1e-12);
    }

    void plantedPatternIsRankedFirst_data() {
        QTest::addColumn<int>("quality");
        QTest::newRow("auc") << int(Quality::Auc);
        QTest::newRow("infogain") << int(Quality::InfoGain);
    }
    void plantedPatternIsRankedFirst() {
        QFETCH(int, quality);
        const Planted p = makePlanted();
        PatternRequest r = plantedRequest(p);
        r.quality = Quality(quality);
        const PatternRanking ranking = findPatterns(r, cpu());
        QCOMPARE(ranking.patternCount, std::size_t(5));
        QCOMPARE(ranking.epochCount, std::size_t(120));
        QCOMPARE(ranking.ictalCount, std::size_t(5));
        QCOMPARE(ranking.ranked.size(), std::size_t(5));
        const PatternScore& best = ranking.ranked.front();
        QVERIFY2(p.plantedStarts.count(best.startS) == 1,
                 qPrintable(QString("best pattern %1 starts at %2 s").arg(best.index).arg(best.startS)));
        // The distractor (pattern 0, plain noise at 10 s) is last.
        QCOMPARE(ranking.ranked.back().index, std::size_t(0));
        QCOMPARE(ranking.ranked.back().startS, 10.0);
        // Its nearest epoch is itself: the planted waveform's own place, distance ~0.
        QCOMPARE(best.nearest.front().startS, best.startS);
        QVERIFY(best.nearest.front().ictal);
        // Histograms hold every epoch once.
        std::size_t ni = 0, nn = 0;
        for (auto c : best.histogram.ictal) ni += c;
        for (auto c : best.histogram.interictal) nn += c;
        QCOMPARE(ni, std::size_t(5));
        QCOMPARE(nn, std::size_t(115));
    }

    void matrixEqualsScalarDtwAndQualitiesMatch() {
        const Planted p = makePlanted();
        PatternRequest r = plantedRequest(p);
        r.keepMatrix = true;
        const PatternRanking ranking = findPatterns(r, cpu("cpu.reference"));
        // Pattern i is the i-th seizure second; epoch j is second j.
        const long starts[] = {10, 30, 55, 80, 105};
        std::vector<double> q(5);
        for (std::size_t i = 0; i < 5; ++i) {
            std::vector<double> row(120);
            for (std::size_t j = 0; j < 120; ++j) {
                row[j] = patterns_reference::cdtw(p.x.data() + starts[i] * 64, p.x.data() + j * 64, 64, 4);
                QVERIFY(std::abs(ranking.matrix.at(i, j) - row[j]) <= 1e-9 * std::max(1.0, row[j]));
            }
            q[i] = patterns_reference::auc(row, ranking.epochIctal);
        }
        const auto order = patterns_reference::ranking(q);
        for (std::size_t k = 0; k < 5; ++k) {
            QCOMPARE(ranking.ranked[k].index, order[k]);
            QVERIFY(std::abs(ranking.ranked[k].quality - q[order[k]]) < 1e-12);
        }
    }

    // Segments (the recordings of a study) cut from one channel with gaps between
    // them and stride 48 < e = 64, so segment ends fall inside the epoch grid: epochs only
    // inside each segment, starting again at its first sample; patterns from each segment's own
    // seizures; labels, distances and ranking as the naive reference computes them on epochs and
    // patterns cut here; nearest epochs named by segment and clock; cpu.simd with epoch blocks
    // that span segment ends agrees; a bad segment is named.
    void segmentsCutEpochsInsideEachSegment() {
        const Planted p = makePlanted();
        const std::vector<std::pair<long long, long long>> pieces = {{0, 40 * 64 + 5}, {40 * 64 + 37, 50 * 64}, {100 * 64, 20 * 64}};
        PatternRequest r = plantedRequest(p);
        r.samples = {};
        r.seizures = {};
        r.keepMatrix = true;
        r.stride = 48;
        for (std::size_t k = 0; k < pieces.size(); ++k) {
            PatternSegment g;
            g.samples = std::span<const float>(p.x.data() + pieces[k].first, std::size_t(pieces[k].second));
            const double from = double(pieces[k].first) / 64.0, to = double(pieces[k].first + pieces[k].second) / 64.0;
            for (const auto& sz : p.seizures)
                if (sz.start >= from && sz.end <= to) g.seizures.push_back({sz.start - from, sz.end - from});
            g.recording = "rec" + std::to_string(k) + ".edf";
            g.clockStartS = 1000.0 * double(k);
            r.segments.push_back(g);
        }
        const PatternRanking ranking = findPatterns(r, cpu("cpu.reference"));
        // Epochs and patterns cut here, segment by segment.
        std::vector<long long> starts;               // global sample of each epoch
        std::vector<std::size_t> epochSeg, patSeg;
        std::vector<std::vector<float>> queries;
        std::vector<long long> patStart;             // offset of pattern i in its segment's query
        std::vector<unsigned char> ictal;
        for (std::size_t k = 0; k < pieces.size(); ++k) {
            const auto [off, len] = pieces[k];
            QCOMPARE(ranking.segments[k].epochBegin, starts.size());
            QCOMPARE(ranking.segments[k].patternBegin, patSeg.size());
            const auto& spans = ranking.segments[k].seizures;
            for (long long b = 0; b + 64 <= len; b += 48) {
                starts.push_back(off + b);
                epochSeg.push_back(k);
                long long in = 0;
                for (const auto& sp : spans) in += std::max(0LL, std::min(b + 64, sp.end) - std::max(b, sp.begin));
                ictal.push_back(2 * in >= 64 ? 1 : 0);
            }
            std::vector<float> q;
            for (const auto& sp : spans) q.insert(q.end(), p.x.begin() + off + sp.begin, p.x.begin() + off + sp.end);
            for (long long b = 0; b + 64 <= (long long)q.size(); b += 48) {
                patSeg.push_back(k);
                patStart.push_back(b);
            }
            queries.push_back(std::move(q));
        }
        QCOMPARE(ranking.epochCount, starts.size());
        QCOMPARE(ranking.patternCount, patSeg.size());
        QVERIFY(ranking.segments[0].patternCount > 0 && ranking.segments[1].patternCount > 0 &&
                ranking.segments[2].patternCount > 0);
        QCOMPARE(ranking.epochIctal, ictal);
        std::vector<double> q(ranking.patternCount);
        for (std::size_t i = 0; i < ranking.patternCount; ++i) {
            std::vector<double> row(starts.size());
            const float* pat = queries[patSeg[i]].data() + patStart[i];
            for (std::size_t j = 0; j < starts.size(); ++j) {
                row[j] = patterns_reference::cdtw(pat, p.x.data() + starts[j], 64, 4);
                QVERIFY(std::abs(ranking.matrix.at(i, j) - row[j]) <= 1e-9 * std::max(1.0, row[j]));
            }
            q[i] = patterns_reference::auc(row, ictal);
        }
        const auto order = patterns_reference::ranking(q);
        for (std::size_t k = 0; k < q.size(); ++k) {
            QVERIFY(std::abs(ranking.ranked[k].quality - q[ranking.ranked[k].index]) < 1e-12);
            QVERIFY(std::abs(ranking.ranked[k].quality - q[order[k]]) < 1e-12);
            QCOMPARE(ranking.ranked[k].segment, patSeg[ranking.ranked[k].index]);
        }
        for (const auto& sc : ranking.ranked)
            for (const auto& near : sc.nearest) {
                const std::size_t k = epochSeg[near.epoch];
                QCOMPARE(near.segment, k);
                QCOMPARE(near.startS, double(starts[near.epoch] - pieces[k].first) / 64.0);
                QCOMPARE(near.clockS, 1000.0 * double(k) + near.startS);
            }
        // The same with cpu.simd and a small epoch block (blocks that span segment ends).
        PatternRequest b = r;
        b.epochBlock = 7;
        const PatternRanking simd = findPatterns(b, cpu("cpu.simd"));
        for (std::size_t k = 0; k < ranking.matrix.values.size(); ++k)
            QVERIFY(std::abs(simd.matrix.values[k] - ranking.matrix.values[k]) <= 2e-4 * std::max(1.0, ranking.matrix.values[k]));
        // Bad segments are named: seizures past the recording's end, no samples, a NaN.
        PatternRequest outside = r;
        outside.segments[1].seizures.push_back({49.5, 51});
        PatternRequest empty = r;
        empty.segments[1].samples = {};
        std::vector<float> withNan(p.x.begin() + pieces[2].first, p.x.begin() + pieces[2].first + pieces[2].second);
        withNan[300] = NAN;
        PatternRequest nan = r;
        nan.segments[2].samples = withNan;
        for (const auto& [bad, want] : std::vector<std::pair<PatternRequest, std::string>>{
                 {outside, "segments[1].seizures"}, {empty, "segments[1]"}, {nan, "rec2.edf"}}) {
            try {
                findPatterns(bad, cpu("cpu.simd"));
                QFAIL("a bad segment was accepted");
            } catch (const EngineError& err) {
                QVERIFY2(std::string(err.what()).find(want) != std::string::npos, err.what());
            }
        }
    }

    // sortRow takes 32-bit keys when every distance is a float widened to double: the same
    // permutation as a stable sort by distance, with ties, infinities and a non-float value.
    void sortRowEqualsStableSort() {
        std::mt19937 rng(3);
        std::uniform_int_distribution<int> pick(0, 40);
        for (bool widened : {true, false}) {
            std::vector<double> d(5000);
            for (auto& v : d) v = double(float(pick(rng)) * 0.37f);  // many ties
            d[17] = INFINITY;
            d[99] = 0.0;
            if (!widened) d[123] = 1.0 / 3.0;  // not a float: the 64-bit path
            const SortedRow got = sortRow(d);
            QCOMPARE(got.floats, widened);
            std::vector<std::size_t> order(d.size());
            std::iota(order.begin(), order.end(), std::size_t(0));
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return d[a] < d[b]; });
            for (std::size_t k = 0; k < d.size(); ++k) {
                QCOMPARE(std::size_t(got.epoch[k]), order[k]);
                QCOMPARE(widened ? double(got.distanceF[k]) : got.distanceD[k], d[order[k]]);
            }
        }
    }

    void tilesOfDifferentSizesGiveTheSameMatrix() {
        // Overlapping epochs (s < e) so that blocks cut epochs from shared samples.
        const Planted p = makePlanted();
        PatternRequest r = plantedRequest(p);
        r.stride = 16;
        r.keepMatrix = true;
        const PatternRanking whole = findPatterns(r, cpu());
        QCOMPARE(whole.patternCount, std::size_t((320 - 64) / 16 + 1));
        struct Blocks { std::size_t patterns, epochs; };
        for (Blocks b : {Blocks{1, 1}, Blocks{2, 7}, Blocks{3, 100}, Blocks{17, 5}, Blocks{1000, 1000}}) {
            PatternRequest t = r;
            t.patternBlock = b.patterns;
            t.epochBlock = b.epochs;
            // Streamed tiles arrive in global coordinates, each cell exactly once.
            std::vector<double> streamed(whole.matrix.values.size(), -1.0);
            std::vector<int> seen(streamed.size(), 0);
            t.matrixSink = [&](const Tile& tile, const double* v) {
                for (std::size_t a = 0; a < tile.rows(); ++a)
                    for (std::size_t c = 0; c < tile.cols(); ++c) {
                        const std::size_t at = (tile.rowBegin + a) * whole.matrix.cols + tile.colBegin + c;
                        streamed[at] = v[a * tile.cols() + c];
                        ++seen[at];
                    }
            };
            const PatternRanking got = findPatterns(t, cpu());
            QVERIFY(got.matrix.values == whole.matrix.values);
            QVERIFY(streamed == whole.matrix.values);
            QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
            for (std::size_t k = 0; k < whole.ranked.size(); ++k) {
                QCOMPARE(got.ranked[k].index, whole.ranked[k].index);
                QCOMPARE(got.ranked[k].quality, whole.ranked[k].quality);
            }
        }
    }

    void smallMatricesAreKeptUnlessSwitchedOff() {
        const Planted p = makePlanted();
        PatternRequest r = plantedRequest(p);  // 5 x 120 doubles: far below the default limit
        const auto kept = findPatterns(r, cpu());
        QCOMPARE(kept.matrix.rows, std::size_t(5));
        QCOMPARE(kept.matrix.values.size(), std::size_t(5 * 120));
        r.keepMatrixUpToBytes = 0;
        const auto dropped = findPatterns(r, cpu());
        QCOMPARE(dropped.matrix.rows, std::size_t(0));
        QVERIFY(dropped.matrix.values.empty());
        r.keepMatrixUpToBytes = 5 * 120 * sizeof(double) - 1;  // one byte short
        QVERIFY(findPatterns(r, cpu()).matrix.values.empty());
    }

    void readerAndViewGiveTheSameRanking() {
        const Planted p = makePlanted();
        PatternRequest view = plantedRequest(p);
        view.stride = 32;
        PatternRequest lazy = view;
        lazy.samples = {};
        lazy.sampleCount = (long long)p.x.size();
        lazy.reader = [&](long long start, long long count, float* out) {
            QVERIFY(start >= 0 && start + count <= (long long)p.x.size());
            std::copy(p.x.begin() + start, p.x.begin() + start + count, out);
        };
        lazy.epochBlock = 9;
        const auto a = findPatterns(view, cpu());
        const auto b = findPatterns(lazy, cpu());
        QCOMPARE(a.ranked.size(), b.ranked.size());
        for (std::size_t k = 0; k < a.ranked.size(); ++k) {
            QCOMPARE(a.ranked[k].index, b.ranked[k].index);
            QCOMPARE(a.ranked[k].quality, b.ranked[k].quality);
        }
    }

    void severalChannelsRunAsOneJob() {
        const Planted p = makePlanted();
        PatternRequest a = plantedRequest(p), b = plantedRequest(p);
        b.channel = "second";
        b.seizures.erase(b.seizures.begin());  // without the distractor
        std::vector<double> fractions;
        RunOptions o = cpu();
        o.progress = [&](double f) { fractions.push_back(f); };
        const auto rankings = findPatterns(std::vector<PatternRequest>{a, b}, o);
        QCOMPARE(rankings.size(), std::size_t(2));
        QCOMPARE(rankings[1].channel, std::string("second"));
        QCOMPARE(rankings[1].patternCount, std::size_t(4));
        QVERIFY(!fractions.empty());
        QVERIFY(std::abs(fractions.back() - 1.0) < 1e-12);
        for (double f : fractions) QVERIFY(f >= 0 && f <= 1.0 + 1e-12);
    }

    void cancelledJobThrowsCancelled() {
        const Planted p = makePlanted();
        PatternRequest r = plantedRequest(p);
        CancelToken token;
        token.cancel();
        RunOptions o = cpu();
        o.cancel = &token;
        bool sinkCalled = false;
        r.matrixSink = [&](const Tile&, const double*) { sinkCalled = true; };
        try {
            findPatterns(r, o);
            QFAIL("no exception");
        } catch (const EngineError& e) {
            QCOMPARE(int(e.kind()), int(EngineError::Kind::Cancelled));
        }
        QVERIFY(!sinkCalled);
    }

    // Seconds in messages read as a person counts them, milliseconds at most.
    void messagesGiveSecondsToTheMillisecond() {
        QCOMPARE(secondsText(3.00390625), std::string("3.004 s"));
        QCOMPARE(secondsText(2.5), std::string("2.5 s"));
        QCOMPARE(secondsText(4.0), std::string("4 s"));
        QCOMPARE(secondsText(0.0001), std::string("0 s"));
        const Planted p = makePlanted();
        PatternRequest r = plantedRequest(p);
        r.seizures = {{30, 30 + 62.0 / 64}};  // 62 samples, 0.96875 s, < e = 64
        try {
            findPatterns(r, cpu());
            QFAIL("no exception");
        } catch (const EngineError& e) {
            QVERIFY2(QString(e.what()).contains("(0.969 s)") && QString(e.what()).contains("64 samples, 1 s)"), e.what());
        }
    }

    void badInputNamesTheField_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no seizure") << 0 << QString("seizures") << QString("no seizure marked");
        QTest::newRow("seizure shorter than an epoch") << 1 << QString("seizures") << QString("shorter than one epoch");
        QTest::newRow("epoch longer than the recording") << 2 << QString("epoch") << QString("longer than");
        QTest::newRow("stride 0") << 3 << QString("stride") << QString("must be >= 1");
        QTest::newRow("seizure outside") << 4 << QString("seizures[1]") << QString("outside the recording");
        QTest::newRow("negative band") << 5 << QString("band") << QString(">= 0");
        QTest::newRow("no rate") << 6 << QString("rate") << QString("> 0");
        QTest::newRow("no interictal epoch") << 7 << QString("seizures") << QString("no interictal");
        QTest::newRow("not finite") << 8 << QString("samples") << QString("not a finite number");
    }
    void badInputNamesTheField() {
        QFETCH(int, which);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        Planted p = makePlanted();
        PatternRequest r = plantedRequest(p);
        switch (which) {
        case 0: r.seizures.clear(); break;
        case 1: r.seizures = {{30, 30.5}}; break;  // 32 samples < e = 64
        case 2: r.epoch = 64 * 121; break;
        case 3: r.stride = 0; break;
        case 4: r.seizures = {{30, 31}, {119.5, 130}}; break;
        case 5: r.band = -1; break;
        case 6: r.rateHz = 0; break;
        case 7: r.seizures = {{0, 120}}; break;
        case 8: p.x[64 * 77 + 3] = std::nanf(""); r.samples = p.x; break;
        }
        try {
            findPatterns(r, cpu());
            QFAIL("no exception");
        } catch (const EngineError& e) {
            QVERIFY(e.isBadInput());
            QCOMPARE(QString::fromStdString(e.field()), field);
            QVERIFY2(QString(e.what()).contains(reason), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestPatterns)
#include "test_patterns.moc"
