// The engine's contract around the kernels: cancellation stops a big job, progress reaches 1,
// streaming hands every cell to the sink exactly once, kernel choice, and bad parameters or
// inputs throw EngineError naming the field.
#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <thread>

#include "compute/core/preprocess.h"
#include "compute/engine/engine.h"
#include "compute/registry/registry.h"
#include "compute_test_util.h"

using namespace warplab::compute;
using testutil::randomWalk;

namespace {

SeriesSet randomSet(std::size_t count, std::size_t length, unsigned seed) {
    std::mt19937 rng(seed);
    SeriesSet set;
    for (std::size_t i = 0; i < count; ++i) set.push_back(randomWalk(length, rng));
    return set;
}

// Runs `f` and returns the EngineError it throws (fails the test when it throws none).
template <typename F>
EngineError expectError(F f) {
    try {
        f();
    } catch (const EngineError& e) {
        return e;
    }
    return EngineError(EngineError::Kind::Internal, "none", "no error was thrown");
}

}  // namespace

class TestEngine : public QObject {
    Q_OBJECT
private slots:
    void cancellationStopsABigJob_data() {
        QTest::addColumn<QString>("kernel");
        QTest::newRow("cpu.reference") << "cpu.reference";
        QTest::newRow("cpu.simd") << "cpu.simd";
    }
    void cancellationStopsABigJob() {
        // 400 x 400 dtw of length 512: far more tiles than run before the cancel, which the
        // first finished tile triggers (a symmetric run as well as a rectangular one).
        QFETCH(QString, kernel);
        SeriesSet set = randomSet(400, 512, 1);
        CancelToken cancel;
        RunOptions opt;
        opt.kernel = kernel.toStdString();
        opt.cancel = &cancel;
        Params p;
        for (const SeriesSet* targets : {static_cast<const SeriesSet*>(&set), static_cast<const SeriesSet*>(nullptr)}) {
            CancelToken fresh;
            opt.cancel = &fresh;
            std::atomic<std::size_t> cellsSeen{0};
            EngineError e = expectError([&] {
                Engine::distanceMatrixStreamed(set, targets, p, opt, [&](const Tile& t, const double*) {
                    cellsSeen += t.cells();
                    fresh.cancel();
                });
            });
            QCOMPARE(int(e.kind()), int(EngineError::Kind::Cancelled));
            QVERIFY(cellsSeen > 0);
            QVERIFY2(cellsSeen < 400 * 400 / 10, qPrintable(QString::number(cellsSeen.load())));
        }
        // A token cancelled before the start stops the job before any tile.
        cancel.cancel();
        opt.cancel = &cancel;
        std::atomic<std::size_t> cellsSeen{0};
        EngineError e = expectError([&] {
            Engine::distanceMatrixStreamed(set, nullptr, p, opt, [&](const Tile& t, const double*) { cellsSeen += t.cells(); });
        });
        QCOMPARE(int(e.kind()), int(EngineError::Kind::Cancelled));
        QCOMPARE(cellsSeen.load(), std::size_t(0));
    }

    void progressReachesOne() {
        SeriesSet set = randomSet(40, 64, 2);
        for (std::string kernel : {"cpu.reference", "cpu.simd"}) {
            std::vector<double> seen;
            std::mutex m;
            RunOptions opt;
            opt.kernel = kernel;
            opt.progress = [&](double f) { std::lock_guard lock(m); seen.push_back(f); };
            Engine::distanceMatrix(set, nullptr, Params{}, opt);
            QVERIFY(!seen.empty());
            QCOMPARE(seen.back(), 1.0);
            for (std::size_t i = 1; i < seen.size(); ++i) QVERIFY(seen[i] >= seen[i - 1]);
        }
    }

    void streamingSeesEveryCellOnce_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("symmetric");
        QTest::newRow("symmetric 37") << 37 << true;
        QTest::newRow("symmetric 150") << 150 << true;
        QTest::newRow("rect 37x53") << 37 << false;
    }
    void streamingSeesEveryCellOnce() {
        QFETCH(int, count);
        QFETCH(bool, symmetric);
        SeriesSet q = randomSet(std::size_t(count), 20, 3), t = randomSet(53, 20, 4);
        const SeriesSet* tp = symmetric ? nullptr : &t;
        const std::size_t cols = symmetric ? q.size() : t.size();
        std::vector<int> hits(q.size() * cols, 0);
        std::vector<double> values(q.size() * cols, 0);
        Params p;
        p.sqrt = true;
        Engine::distanceMatrixStreamed(q, tp, p, RunOptions{}, [&](const Tile& tile, const double* v) {
            for (std::size_t r = 0; r < tile.rows(); ++r)
                for (std::size_t c = 0; c < tile.cols(); ++c) {
                    const std::size_t k = (tile.rowBegin + r) * cols + tile.colBegin + c;
                    ++hits[k];
                    values[k] = v[r * tile.cols() + c];
                }
        });
        for (int h : hits) QCOMPARE(h, 1);
        // The streamed values are the finished ones (after --sqrt), mirrored when symmetric.
        for (std::size_t r = 0; r < q.size(); r += 7)
            for (std::size_t c = 0; c < cols; c += 5) {
                const double ref = Engine::distance(q[r], symmetric ? q[c] : t[c], p);
                QVERIFY(testutil::closeFp32(values[r * cols + c], ref, 20, 20));
            }
        DistanceMatrix dm = Engine::distanceMatrix(q, tp, p, RunOptions{});
        QCOMPARE(dm.symmetric, symmetric);
        QCOMPARE(dm.values.size(), hits.size());
    }

    // SinkCalls::Concurrent: every tile once, from the threads that computed them, several at
    // once (the first call waits, up to 10 s, for a second thread to enter the sink: one at a
    // time, that one would wait for it instead), with the values a sink called one at a time gets.
    void concurrentSinkSeesEveryTileOnce_data() {
        QTest::addColumn<bool>("symmetric");
        QTest::newRow("symmetric") << true;
        QTest::newRow("rect") << false;
    }
    void concurrentSinkSeesEveryTileOnce() {
        QFETCH(bool, symmetric);
        SeriesSet q = randomSet(150, 24, 5), t = randomSet(130, 24, 6);
        const SeriesSet* tp = symmetric ? nullptr : &t;
        const std::size_t cols = symmetric ? q.size() : t.size();
        Params p;
        p.metric = Metric::Cdtw;
        p.band = 3;
        RunOptions opt;
        opt.threads = 2;
        std::vector<std::atomic<int>> hits(q.size() * cols);
        std::vector<double> values(q.size() * cols, 0);
        std::atomic<int> inside{0}, mostInside{0};
        std::atomic<bool> waited{false};
        Engine::distanceMatrixStreamed(
            q, tp, p, opt,
            [&](const Tile& tile, const double* v) {
                const int now = ++inside;
                for (int m = mostInside.load(); now > m && !mostInside.compare_exchange_weak(m, now);) {}
                for (std::size_t r = 0; r < tile.rows(); ++r)
                    for (std::size_t c = 0; c < tile.cols(); ++c) {
                        const std::size_t k = (tile.rowBegin + r) * cols + tile.colBegin + c;
                        ++hits[k];
                        values[k] = v[r * tile.cols() + c];
                    }
                if (!waited.exchange(true))
                    for (int i = 0; i < 10000 && mostInside.load() < 2; ++i)
                        std::this_thread::sleep_for(std::chrono::milliseconds(1));
                --inside;
            },
            SinkCalls::Concurrent);
        for (const auto& h : hits) QCOMPARE(h.load(), 1);
        QVERIFY2(mostInside.load() > 1, "the sink was never entered by two threads at once");
        const DistanceMatrix dm = Engine::distanceMatrix(q, tp, p, opt);
        QVERIFY(std::memcmp(dm.values.data(), values.data(), values.size() * sizeof(double)) == 0);
    }

    // A long series is checked on all cores: still the first bad sample is named, wherever the
    // blocks split it, and every finite one passes.
    void longSeriesNamesFirstBadSample() {
        const std::size_t n = 5'000'003;
        Series big(std::vector<float>(n, 1.5f));
        checkSeries(big, "reference");
        for (std::size_t at : {std::size_t(0), std::size_t(1u << 20) - 1, std::size_t(3'000'001), n - 1}) {
            Series s = big;
            s.values[at] = std::numeric_limits<float>::quiet_NaN();
            if (at + 7 < n) s.values[at + 7] = -std::numeric_limits<float>::infinity();
            s.values[n - 1] = std::numeric_limits<float>::infinity();
            const EngineError e = expectError([&] { checkSeries(s, "reference"); });
            const std::string want = "sample " + std::to_string(at) + (at == n - 1 ? " is infinite" : " is NaN");
            QVERIFY2(std::string(e.what()).find(want) != std::string::npos, e.what());
        }
        Series two(std::vector<float>(2 * n, 0.25f), 2);
        two.values[2 * 4'200'000 + 1] = std::numeric_limits<float>::infinity();
        const EngineError e = expectError([&] { checkSeries(two, "x"); });
        QVERIFY2(std::string(e.what()).find("sample 4200000 channel 1 is infinite") != std::string::npos, e.what());
    }

    void sdtwAllPairsIsNotMirrored() {
        // Subsequence DTW of x in y differs from y in x: the full matrix is computed.
        SeriesSet set = {Series({0, 1, 2, 3, 4, 5}), Series({2, 3})};
        Params p;
        p.metric = Metric::Sdtw;
        DistanceMatrix dm = Engine::distanceMatrix(set, nullptr, p, RunOptions{});
        QVERIFY(!dm.symmetric);
        QCOMPARE(dm.at(1, 0), 0.0);   // [2,3] occurs inside [0..5]
        QVERIFY(dm.at(0, 1) > 0.0);   // [0..5] does not occur inside [2,3]
    }

    void kernelChoice() {
        RunOptions opt;
        opt.backend = Backend::Cpu;
        QCOMPARE(QString::fromStdString(Engine::resolveKernel(Metric::Dtw, opt).name()), QString("cpu.simd"));
        QCOMPARE(QString::fromStdString(Engine::resolveKernel(Metric::Twed, opt).name()), QString("cpu.simd"));
        QCOMPARE(QString::fromStdString(Engine::resolveKernel(Metric::SoftDtw, opt).name()), QString("cpu.reference"));
        QCOMPARE(QString::fromStdString(Engine::resolveKernel(Metric::Sdtw, opt).name()), QString("cpu.simd"));
        opt.kernel = "no.such.kernel";
        EngineError e = expectError([&] { Engine::resolveKernel(Metric::Dtw, opt); });
        QCOMPARE(QString::fromStdString(e.field()), QString("kernel"));
        opt.kernel = "cpu.simd";
        e = expectError([&] { Engine::resolveKernel(Metric::SoftDtw, opt); });
        QCOMPARE(QString::fromStdString(e.field()), QString("kernel"));
        QVERIFY(KernelRegistry::instance().find("cpu.reference"));
    }

    void badParameters_data() {
        QTest::addColumn<QString>("field");
        QTest::newRow("gamma 0") << "gamma";
        QTest::newRow("gamma -1") << "gamma";
        QTest::newRow("band -1") << "band";
        QTest::newRow("nu -1") << "nu";
        QTest::newRow("lambda -1") << "lambda";
        QTest::newRow("degree 0.5") << "degree";
        QTest::newRow("topk 0") << "top";
        QTest::newRow("sqrt softdtw") << "sqrt";
    }
    void badParameters() {
        QFETCH(QString, field);
        const QString tag = QTest::currentDataTag();
        Params p;
        if (tag == "gamma 0") { p.metric = Metric::SoftDtw; p.gamma = 0; }
        if (tag == "gamma -1") { p.metric = Metric::SoftDtw; p.gamma = -1; }
        if (tag == "band -1") { p.metric = Metric::Cdtw; p.band = -1; }
        if (tag == "nu -1") { p.metric = Metric::Twed; p.nu = -1; }
        if (tag == "lambda -1") { p.metric = Metric::Twed; p.lambda = -1; }
        if (tag == "degree 0.5") { p.metric = Metric::Twed; p.degree = 0.5; }
        if (tag == "topk 0") { p.metric = Metric::Sdtw; p.topk = 0; }
        if (tag == "sqrt softdtw") { p.metric = Metric::SoftDtw; p.sqrt = true; }
        SeriesSet set = randomSet(3, 10, 5);
        for (int entry = 0; entry < 3; ++entry) {
            EngineError e = expectError([&] {
                if (entry == 0) Engine::distanceMatrix(set, nullptr, p, RunOptions{});
                if (entry == 1) Engine::distance(set[0], set[1], p);
                if (entry == 2) Engine::search(set[0], set[1], p, RunOptions{});
            });
            QCOMPARE(int(e.kind()), int(EngineError::Kind::BadParameter));
            QCOMPARE(QString::fromStdString(e.field()), field);
            QVERIFY(QString(e.what()).startsWith(field));
        }
    }

    void badInputs() {
        SeriesSet ok = randomSet(3, 10, 6);
        Params euclid;
        euclid.metric = Metric::Euclidean;
        // Unequal lengths for euclidean: names the series.
        SeriesSet uneven = ok;
        uneven[1] = randomSet(1, 11, 7)[0];
        EngineError e = expectError([&] { Engine::distanceMatrix(uneven, nullptr, euclid, RunOptions{}); });
        QCOMPARE(int(e.kind()), int(EngineError::Kind::BadInput));
        QCOMPARE(QString::fromStdString(e.field()), QString("queries[1]"));
        e = expectError([&] { Engine::distance(ok[0], uneven[1], euclid); });
        QCOMPARE(int(e.kind()), int(EngineError::Kind::BadInput));
        // ... while dtw takes them.
        QVERIFY(Engine::distance(ok[0], uneven[1], Params{}) >= 0);
        // An empty series.
        SeriesSet withEmpty = ok;
        withEmpty[2] = Series();
        e = expectError([&] { Engine::distanceMatrix(ok, &withEmpty, Params{}, RunOptions{}); });
        QCOMPARE(QString::fromStdString(e.field()), QString("targets[2]"));
        QVERIFY(QString(e.what()).contains("empty"));
        // NaN and infinity: the series and the sample index are named.
        SeriesSet withNan = ok;
        withNan[2].values[4] = std::numeric_limits<float>::quiet_NaN();
        e = expectError([&] { Engine::distanceMatrix(withNan, nullptr, Params{}, RunOptions{}); });
        QCOMPARE(QString::fromStdString(e.field()), QString("queries[2]"));
        QVERIFY2(QString(e.what()).contains("sample 4 is NaN"), e.what());
        Series inf = ok[0];
        inf.values[7] = std::numeric_limits<float>::infinity();
        e = expectError([&] { Engine::search(ok[1], inf, Params{}, RunOptions{}); });
        QCOMPARE(QString::fromStdString(e.field()), QString("reference"));
        QVERIFY(QString(e.what()).contains("sample 7 is infinite"));
        // Different channel counts; no series at all.
        Series twoCh(std::vector<float>(20, 1.0f), 2);
        e = expectError([&] { Engine::distance(ok[0], twoCh, Params{}); });
        QCOMPARE(int(e.kind()), int(EngineError::Kind::BadInput));
        e = expectError([&] { Engine::distanceMatrix(SeriesSet{}, nullptr, Params{}, RunOptions{}); });
        QCOMPARE(QString::fromStdString(e.field()), QString("queries"));
        // An alignment whose matrix could not fit in memory is refused before allocating it.
        Series longX(std::vector<float>(20000, 1.0f)), longY(std::vector<float>(20000, 2.0f));
        e = expectError([&] { Engine::align(longX, longY, Params{}, false); });
        QCOMPARE(int(e.kind()), int(EngineError::Kind::BadInput));
        QVERIFY(QString(e.what()).contains("2^28"));
    }

    // A distance matrix larger than the free host memory is refused before anything is computed
    // or allocated, with its size in the message (single-sample series: the sets themselves are small).
    void matrixBeyondFreeMemory() {
        std::ifstream meminfo("/proc/meminfo");
        std::string key;
        double availKiB = 0;
        while (meminfo >> key >> availKiB && key != "MemAvailable:") meminfo.ignore(1 << 20, '\n');
        if (key != "MemAvailable:") QSKIP("no MemAvailable in /proc/meminfo");
        const auto n = std::size_t(std::sqrt(availKiB * 1024 / sizeof(double)) * 1.2) + 1;
        SeriesSet set(n, Series(std::vector<float>{1.0f}));
        EngineError e = expectError([&] { Engine::distanceMatrix(set, nullptr, Params{}, RunOptions{}); });
        QCOMPARE(int(e.kind()), int(EngineError::Kind::BadInput));
        QCOMPARE(QString::fromStdString(e.field()), QString("matrix"));
        const QString text = e.what();
        QVERIFY2(text.contains(QString("a %1 x %1 matrix needs").arg(n)) && text.contains("GiB of free host memory"),
                 e.what());
        // One that fits is computed as before.
        QCOMPARE(Engine::distanceMatrix(SeriesSet(3, Series(std::vector<float>{1.0f, 2.0f})), nullptr, Params{},
                                        RunOptions{}).values.size(), std::size_t(9));
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
