// runBench: one row per kernel and length, pairs counted honestly, errors measured against
// cpu.reference, and kernels that cannot run reported in a row instead of an exception.
#include <QtTest/QtTest>

#include "compute/bench/bench.h"
#include "compute/core/error.h"
#include "compute/core/preprocess.h"

using namespace warplab::compute;

class TestBench : public QObject {
    Q_OBJECT
private slots:
    void rowsForNamedKernels() {
        BenchConfig cfg;
        cfg.kernels = {"cpu.reference", "cpu.simd", "no.such.kernel"};
        cfg.params.metric = Metric::Cdtw;
        cfg.params.band = 4;
        cfg.lengths = {33, 64};
        cfg.series = 12;
        cfg.repeats = 3;
        double lastProgress = 0;
        cfg.progress = [&](double f) { lastProgress = f; };
        BenchTable t = runBench(cfg);
        QCOMPARE(t.size(), std::size_t(6));
        QCOMPARE(lastProgress, 1.0);
        int missing = 0;
        for (const BenchRow& r : t) {
            QCOMPARE(QString::fromStdString(r.metric), QString("cdtw"));
            QCOMPARE(r.band, 4);
            if (r.kernel == "no.such.kernel") {
                ++missing;
                QVERIFY(!r.note.empty());
                continue;
            }
            QCOMPARE(r.pairs, std::size_t(12 * 11 / 2));  // symmetric: each pair once
            QVERIFY(r.median_s > 0);
            // cells/s is pairs/s times the band's cells per pair, counted independently here.
            std::uint64_t cells = 0;
            const long n = long(r.length);
            for (long i = 0; i < n; ++i)
                for (long j = 0; j < n; ++j) cells += std::abs(i - j) <= 4;
            QVERIFY(std::fabs(r.cells_per_s - r.distances_per_s * double(cells)) <= 1e-9 * r.cells_per_s);
            QVERIFY(std::fabs(r.distances_per_s * r.median_s - double(r.pairs)) <= 1e-6 * double(r.pairs));
            if (r.kernel == "cpu.reference") QCOMPARE(r.max_rel_error, 0.0);
            else QVERIFY2(r.max_rel_error < 1e-5, qPrintable(QString::number(r.max_rel_error)));
        }
        QCOMPARE(missing, 2);
    }

    void allKernelsAndBlocks() {
        BenchConfig cfg;
        cfg.kernels = {"all"};
        cfg.params.metric = Metric::SoftDtw;
        cfg.lengths = {16};
        cfg.pairs = 30;
        cfg.repeats = 1;
        cfg.maxReferencePairs = 7;
        BenchTable t = runBench(cfg);
        QVERIFY(!t.empty());
        bool sawReference = false;
        for (const BenchRow& r : t) {
            if (r.kernel == "cpu.reference") {
                sawReference = true;
                QVERIFY(r.pairs >= 30);
                QVERIFY(QString::fromStdString(r.note).contains("7 of"));  // subset stated
            }
            QVERIFY(r.kernel != "cpu.simd");  // does not compute softdtw, so not listed under "all"
        }
        QVERIFY(sawReference);
    }

    void badConfig() {
        BenchConfig cfg;
        cfg.repeats = 0;
        QVERIFY_THROWS_EXCEPTION(EngineError, runBench(cfg));
        cfg.repeats = 1;
        cfg.params.gamma = 0;
        QVERIFY_THROWS_EXCEPTION(EngineError, runBench(cfg));
    }
};

QTEST_GUILESS_MAIN(TestBench)
#include "test_bench.moc"
