// runBenchmark (compute/bench/bench.h): the one way in to the benchmarks for the CLI and the
// GUI. Its engine rows are runBench's; the device is named; sdtw gives a device row
// (GPU builds) and two CPU rows (all cores == one core, bit for bit) per length; cancel and progress behave as for every job; and no entry point (app/, widgets/)
// includes compute/gpu/ any more.
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QtTest/QtTest>

#include "compute/bench/bench.h"
#include "compute/bench/sdtw_designs.h"
#include "compute/core/error.h"

using namespace warplab::compute;

namespace {
BenchConfig small() {
    BenchConfig cfg;
    cfg.kernels = {"cpu.reference", "cpu.simd"};
    cfg.params.metric = Metric::Dtw;
    cfg.lengths = {24, 40};
    cfg.series = 10;
    cfg.repeats = 1;
    return cfg;
}
}  // namespace

class TestBenchmarkApi : public QObject {
    Q_OBJECT
private slots:
    void engineRowsAndDevice() {
        BenchConfig cfg = small();
        double last = 0;
        cfg.progress = [&](double f) {
            QVERIFY(f >= last - 1e-12);
            last = f;
        };
        const BenchReport report = runBenchmark(cfg);
        QCOMPARE(last, 1.0);
        const BenchTable engine = runBench(small());
        std::size_t engineRows = 0;
        for (const BenchRow& r : report.rows) {
            if (r.kernel.find("@device") != std::string::npos) continue;  // a GPU's own rows
            QVERIFY(engineRows < engine.size());
            QCOMPARE(r.kernel, engine[engineRows].kernel);
            QCOMPARE(r.length, engine[engineRows].length);
            QCOMPARE(r.pairs, engine[engineRows].pairs);
            QVERIFY(r.median_s > 0);
            QVERIFY(r.max_rel_error < 1e-4);
            ++engineRows;
        }
        QCOMPARE(engineRows, engine.size());
        QVERIFY(!report.device.empty());
#if !WARPLAB_HAVE_GPU
        QCOMPARE(QString::fromStdString(report.device), QString("no GPU backend built"));
        QCOMPARE(report.rows.size(), engine.size());
        QVERIFY(!report.ceiling);
#endif
        // Without engine timing only device rows can come (none without a GPU).
        cfg.engineTiming = false;
        for (const BenchRow& r : runBenchmark(cfg).rows) QVERIFY(r.kernel.find("@device") != std::string::npos);
    }

    void sdtwRowsCompareCpuAndGpu() {
        BenchConfig cfg = small();
        cfg.params.metric = Metric::Sdtw;
        cfg.kernels = {"all"};  // the default designs: the chosen device pass and both CPU paths
        cfg.searchQueries = 4;
        cfg.referenceLength = 6000;
        cfg.repeats = 1;
        const BenchReport report = runBenchmark(cfg);
        const std::size_t perLength = 3;  // the device row says why when it did not run
        QCOMPARE(report.rows.size(), cfg.lengths.size() * perLength);
        for (const BenchRow& r : report.rows)
            if (r.kernel.find("@device") != std::string::npos && r.cells_per_s == 0)
                QVERIFY2(!r.note.empty(), r.kernel.c_str());
        std::size_t cpuRows = 0;
        for (const BenchRow& r : report.rows) {
            if (r.kernel != "cpu.simd" && r.kernel != "cpu.reference") continue;
            ++cpuRows;
            QCOMPARE(r.metric, std::string("sdtw"));
            QCOMPARE(r.pairs, std::size_t(2));  // 2 of the 4 queries
            QVERIFY(r.cells_per_s > 0 && r.distances_per_s > 0 && r.median_s > 0);
            QVERIFY2(r.note.find("2 of the 4 queries") != std::string::npos, r.note.c_str());
            if (r.kernel == "cpu.simd") {
                QCOMPARE(r.max_rel_error, 0.0);
                QVERIFY2(r.note.find("identical") != std::string::npos, r.note.c_str());
            }
        }
        QCOMPARE(cpuRows, cfg.lengths.size() * 2);
        cfg.lengths = {7000};  // longer than the reference
        QVERIFY_THROWS_EXCEPTION(EngineError, runBenchmark(cfg));
    }

    // The designs the Kernels view and `bench --metric sdtw` set side by side: every segment
    // width 2..32, both z-normalisers, half2 and the CPU paths, each described; a run of named
    // designs gives their rows in order, and an unknown name is refused naming it.
    void sdtwDesignsByName() {
        const auto& designs = sdtwDesigns();
        QVERIFY(designs.size() >= 10);
        int widths = 0, columnSteps = 0;
        bool twoKernel = false, half2 = false;
        for (const SdtwDesign& d : designs) {
            QVERIFY2(!d.description.empty(), d.name.c_str());
            QCOMPARE(findSdtwDesign(d.name), &d);
            if (d.rowsPerLane) ++widths;
            if (d.columnsPerStep) {
                ++columnSteps;
                QCOMPARE(d.name.substr(d.name.size() - 3), std::string(".c") + char('0' + d.columnsPerStep));
            }
            twoKernel = twoKernel || d.twoKernelNormaliser;
            half2 = half2 || d.half2;
        }
        QCOMPARE(widths, 5);
        QCOMPARE(columnSteps, 2);  // 2 and 4 columns per step beside the chosen 8
        QVERIFY(twoKernel && half2);
        const std::string prefix = designs.front().name.substr(0, designs.front().name.find('.'));
        BenchConfig cfg = small();
        cfg.params.metric = Metric::Sdtw;
        cfg.lengths = {64};
        cfg.searchQueries = 3;
        cfg.referenceLength = 3000;
        cfg.kernels = {prefix + ".sdtw.r4", "cpu.reference", prefix + ".sdtw.znorm2k"};
        const BenchReport report = runBenchmark(cfg);
        QCOMPARE(report.rows.size(), std::size_t(3));
        QVERIFY2(report.rows[0].kernel.rfind(prefix + ".sdtw.r4", 0) == 0, report.rows[0].kernel.c_str());
        QCOMPARE(report.rows[1].kernel, std::string("cpu.reference"));
        QVERIFY2(report.rows[2].kernel.rfind(prefix + ".sdtw.znorm2k", 0) == 0, report.rows[2].kernel.c_str());
        cfg.kernels = {"cuda.sdtw.r3"};
        try {
            runBenchmark(cfg);
            QFAIL("no error");
        } catch (const EngineError& e) {
            QVERIFY2(std::string(e.what()).find("cuda.sdtw.r3") != std::string::npos, e.what());
        }
    }

    void cancelled() {
        BenchConfig cfg = small();
        CancelToken token;
        token.cancel();
        cfg.cancel = &token;
        try {
            runBenchmark(cfg);
            QFAIL("no error");
        } catch (const EngineError& e) {
            QCOMPARE(int(e.kind()), int(EngineError::Kind::Cancelled));
        }
    }

    // The rule, checked on the sources: only compute/, the GPU test programs in tests/gpu and the
    // `warplab-cli bench` subcommands that time device kernels alone (app/cli/cmd_bench_*.cpp: the
    // programs behind the published GPU figures) include compute/gpu/ headers.
    void noEntryPointIncludesTheGpuRoom() {
        QStringList offenders;
        for (const char* room : {"app", "widgets"}) {
            QDirIterator it(QStringLiteral(WARPLAB_SOURCE_DIR "/") + room, {"*.cpp", "*.h"}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile f(it.next());
                if (QFileInfo(f.fileName()).fileName().startsWith("cmd_bench_") && f.fileName().contains("/app/cli/"))
                    continue;
                QVERIFY(f.open(QIODevice::ReadOnly));
                if (f.readAll().contains("#include \"compute/gpu/")) offenders << f.fileName();
            }
        }
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(", ")));
    }
};

QTEST_GUILESS_MAIN(TestBenchmarkApi)
#include "test_benchmark_api.moc"
