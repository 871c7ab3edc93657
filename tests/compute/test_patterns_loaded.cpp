// A study's segments read ahead of the job (compute::loadSegments: every reader into one
// buffer, the segments then views laid end to end): the samples are the readers', the ranking
// on the CPU is the readers' ranking exactly, a non-finite sample is still refused naming its
// recording, and a request that cannot be loaded is left as it is. (The device path that takes
// the buffer without a copy: tests/gpu/test_gpu_patterns.cpp.)
#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <random>

#include "compute/core/error.h"
#include "compute/patterns/pattern_discovery.h"

using namespace warplab::compute;

namespace {

std::vector<float> walk(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> step(0.f, 1.f);
    std::vector<float> v(n);
    float x = 0;
    for (auto& s : v) s = x = 0.9f * x + step(rng);
    return v;
}

// Recordings [offset, offset + length) of `v`, each read through a reader that counts its calls.
PatternRequest lazyStudy(const std::vector<float>& v, const std::vector<std::pair<long long, long long>>& pieces,
                         std::shared_ptr<std::atomic<int>> calls) {
    PatternRequest r;
    r.rateHz = 32;
    r.channel = "c";
    r.epoch = 32;
    r.stride = 8;
    r.band = 4;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        PatternSegment g;
        const float* base = v.data() + pieces[k].first;
        g.reader = [base, calls](long long a, long long n, float* out) {
            ++*calls;
            std::copy(base + a, base + a + n, out);
        };
        g.sampleCount = pieces[k].second;
        g.seizures = {{2.0, 4.5}};
        g.recording = "rec" + std::to_string(k) + ".edf";
        g.recordingIndex = int(k);
        g.clockStartS = 100.0 * double(k);
        r.segments.push_back(std::move(g));
    }
    return r;
}

}  // namespace

class TestPatternsLoaded : public QObject {
    Q_OBJECT
private slots:
    void viewsEndToEndWithTheReadersSamples() {
        const auto v = walk(6000, 1);
        auto calls = std::make_shared<std::atomic<int>>(0);
        PatternRequest r = lazyStudy(v, {{0, 1500}, {1600, 900}, {3000, 3000}}, calls);
        const LoadedSamples b = loadSegments(r);
        QCOMPARE(b.count, 5400LL);
        QCOMPARE(calls->load(), 3);
        const long long offsets[] = {0, 1600, 3000}, lengths[] = {1500, 900, 3000};
        for (std::size_t k = 0; k < 3; ++k) {
            const auto& g = r.segments[k];
            QVERIFY(!g.reader);
            QCOMPARE(g.sampleCount, 0LL);
            QCOMPARE((long long)g.samples.size(), lengths[k]);
            QVERIFY(std::memcmp(g.samples.data(), v.data() + offsets[k], std::size_t(lengths[k]) * sizeof(float)) == 0);
            if (k > 0) QVERIFY(g.samples.data() == r.segments[k - 1].samples.data() + r.segments[k - 1].samples.size());
        }
        QVERIFY(r.segments.front().samples.data() == b.samples.get());
    }

    void sameRankingAsTheReaders() {
        const auto v = walk(9000, 2);
        auto calls = std::make_shared<std::atomic<int>>(0);
        const PatternRequest lazy = lazyStudy(v, {{0, 3000}, {3100, 2500}, {5700, 3300}}, calls);
        PatternRequest loaded = lazy;
        const LoadedSamples b = loadSegments(loaded);
        RunOptions o;
        o.backend = Backend::Cpu;
        const PatternRanking a = findPatterns(lazy, o), c = findPatterns(loaded, o);
        QCOMPARE(a.ranked.size(), c.ranked.size());
        QVERIFY(a.ranked.size() > 10);
        for (std::size_t k = 0; k < a.ranked.size(); ++k) {
            QCOMPARE(a.ranked[k].index, c.ranked[k].index);
            QCOMPARE(a.ranked[k].quality, c.ranked[k].quality);
            QCOMPARE(a.ranked[k].segment, c.ranked[k].segment);
            QCOMPARE(a.ranked[k].meanIctal, c.ranked[k].meanIctal);
            QCOMPARE(a.ranked[k].nearest.size(), c.ranked[k].nearest.size());
            for (std::size_t q = 0; q < a.ranked[k].nearest.size(); ++q) {
                QCOMPARE(a.ranked[k].nearest[q].epoch, c.ranked[k].nearest[q].epoch);
                QCOMPARE(a.ranked[k].nearest[q].distance, c.ranked[k].nearest[q].distance);
            }
        }
    }

    void nonFiniteSampleNamesItsRecording() {
        auto v = walk(5000, 3);
        v[2600 + 700] = NAN;  // recording 1, its sample 700
        auto calls = std::make_shared<std::atomic<int>>(0);
        PatternRequest r = lazyStudy(v, {{0, 2500}, {2600, 2400}}, calls);
        const LoadedSamples b = loadSegments(r);
        RunOptions o;
        o.backend = Backend::Cpu;
        try {
            findPatterns(r, o);
            QFAIL("a NaN was accepted");
        } catch (const EngineError& e) {
            QCOMPARE(e.kind(), EngineError::Kind::BadInput);
            const std::string what = e.what();
            QVERIFY2(what.find("rec1.edf") != std::string::npos && what.find("sample 700") != std::string::npos, what.c_str());
        }
    }

    void requestsThatCannotBeLoadedAreLeftAsTheyAre() {
        const auto v = walk(3000, 4);
        PatternRequest single;
        single.samples = v;
        QCOMPARE(loadSegments(single).count, 0LL);
        auto calls = std::make_shared<std::atomic<int>>(0);
        PatternRequest mixed = lazyStudy(v, {{0, 1000}, {1000, 1000}}, calls);
        mixed.segments[1].reader = nullptr;
        mixed.segments[1].sampleCount = 0;
        mixed.segments[1].samples = std::span<const float>(v.data() + 1000, 1000);
        const LoadedSamples b = loadSegments(mixed);
        QCOMPARE(b.count, 0LL);
        QVERIFY(b.samples == nullptr);
        QCOMPARE(calls->load(), 0);
        QVERIFY(bool(mixed.segments[0].reader));
    }
};

QTEST_GUILESS_MAIN(TestPatternsLoaded)
#include "test_patterns_loaded.moc"
