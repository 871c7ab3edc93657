// The subcommands of `warplab-cli bench` (app/cli/cmd_bench_<name>.cpp), each in its smallest
// form that runs on a CPU: `cpu` on a few series (every distance checked against the
// reference), `window` on a walk and on a recording read through io/ (window counts, an exact
// match of a stretch of the reference), `study` on a generated study (the ranking equals
// compute::findPatterns in-process), `long-recording` write then read, `multi --write-npy`
// (the .npy read back). The GPU forms (`gpu`, `multi`, `window --backend cuda`) fail with exit
// 1 and a message that says a GPU is needed where this build or machine has none, and run where
// one is present. Plain `bench` stays the kernel table (test_cli_bench.cpp).
// io/ before Qt: Qt's `signals` macro would rewrite io's members of that name.
#include "../io/study_fixture.h"
#include "compute/bench/bench.h"
#include "compute/engine/engine.h"
#include "compute/patterns/pattern_discovery.h"
#include "io/npy.h"
#include "io/study.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

#include "cli_process.h"

using cli_test::runCli;
using namespace warplab;
namespace fx = study_fixture;

namespace {

QByteArray why(const cli_test::CliRun& r) { return "stdout: " + r.out + "\nstderr: " + r.err; }

// The value of `name=` or `name ` followed by a number in a line of text, NaN when absent.
double numberAfter(const QString& text, const QString& name) {
    const QRegularExpression re(QRegularExpression::escape(name) + QStringLiteral("\\s*([-+0-9.eE]+)"));
    const auto m = re.match(text);
    return m.hasMatch() ? m.captured(1).toDouble() : NAN;
}

// The number just before ` name` in a line of text, NaN when absent.
double numberBefore(const QString& text, const QString& name) {
    const QRegularExpression re(QStringLiteral("([-+0-9.eE]+) ") + QRegularExpression::escape(name));
    const auto m = re.match(text);
    return m.hasMatch() ? m.captured(1).toDouble() : NAN;
}

}  // namespace

class TestCliBenchSubcommands : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void benchListsItsSubcommands() {
        const auto r = runCli({"bench", "--help"});
        QVERIFY2(r.exitCode == 0, why(r));
        for (const char* sub : {"gpu", "multi", "cpu", "window", "study", "long-recording"})
            QVERIFY2(r.out.contains(QByteArray("  ") + sub), sub);
        // Each subcommand's help names its options or arguments.
        const std::vector<std::pair<QStringList, const char*>> helps = {
            {{"bench", "gpu", "--help"}, "--sdtw-rows"},       {{"bench", "multi", "--help"}, "--write-npy"},
            {{"bench", "cpu", "--help"}, "REFPAIRS"},          {{"bench", "window", "--help"}, "--band-fraction"},
            {{"bench", "study", "--help"}, "--host-epochs"},   {{"bench", "long-recording", "read", "--help"}, "--cold"}};
        for (const auto& [args, option] : helps) {
            const auto h = runCli(args);
            QVERIFY2(h.exitCode == 0, why(h));
            QVERIFY2(h.out.contains(option), args.join(' ').toUtf8() + ": " + h.out);
        }
    }

    void cpuTimesEveryPairAgainstTheReference() {
        // 8 series: 28 pairs; cpu.reference against itself has no error.
        const auto r = runCli({"bench", "cpu", "dtw", "8", "32", "0", "cpu.reference,cpu.simd", "1"});
        QVERIFY2(r.exitCode == 0, why(r));
        const QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith("cpu.reference") && lines[0].contains("len=32 pairs=28 band=0"), qPrintable(lines[0]));
        QCOMPARE(numberAfter(lines[0], "maxrel="), 0.0);
        QVERIFY2(lines[1].startsWith("cpu.simd") && lines[1].contains("pairs=28"), qPrintable(lines[1]));
        QVERIFY(numberAfter(lines[1], "maxrel=") < 1e-5);
        QVERIFY(numberBefore(lines[1], "dist/s") > 0);
        QVERIFY2(lines[2].startsWith("process CPU time"), qPrintable(lines[2]));
        // A metric that does not exist is bad input (exit 2), named.
        const auto bad = runCli({"bench", "cpu", "dtx", "8", "32"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("metric"), bad.err.constData());
    }

    void windowOnAWalkCountsEveryWindow() {
        const auto r = runCli({"bench", "window", "--walk", "20000", "--query-length", "64", "--top", "3", "--repeats", "2"});
        QVERIFY2(r.exitCode == 0, why(r));
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith("reference: random walk, 20000 samples"), qPrintable(out));
        QVERIFY(out.contains("query 64, band 3 (0.05), top 3, backend cpu"));
        QVERIFY(out.contains("cpu run 1:") && out.contains("cpu run 2:"));
        QCOMPARE(numberAfter(out, "windows"), double(20000 - 64 + 1));
        QVERIFY(numberAfter(out, "best") >= 0);
    }

    void windowOnARecordingThroughIo() {
        // The query is a stretch of the reference with 10 % noise: the best match is that
        // stretch (excluded) or a repeat of it, at a cost far below a random window's.
        const QString edf = cli_test::dataPath("chbmit/chb01_03_Seizure.edf");
        const auto r = runCli({"bench", "window", "--eeg", edf, "--signal", "2", "--repeat-to", "30000", "--query-length",
                               "128", "--repeats", "1"});
        QVERIFY2(r.exitCode == 0, why(r));
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("signal 2 (10496 samples) repeated, 30000 samples"), qPrintable(out));
        // Every start but the 129 around the query's own place (excluded, as the CLI would).
        QCOMPARE(numberAfter(out, "windows"), double(30000 - 128 + 1 - 129));
        // The reference repeats every 10,496 samples: the query's stretch recurs, noise aside,
        // so the best match starts at a repeat of 15,000, give or take the band (6 samples).
        const double d = std::fmod(std::fabs(numberAfter(out, " at") - 15000), 10496.0);
        QVERIFY2(std::min(d, 10496.0 - d) <= 6, qPrintable(out));
        // A file that is not a recording, and a channel it lacks: exit 2 naming them.
        const QString junk = dir_.filePath("junk.edf");
        std::ofstream(junk.toStdString()) << "not an EDF";
        const auto bad = runCli({"bench", "window", "--eeg", junk});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("junk.edf"), bad.err.constData());
        const auto noSignal = runCli({"bench", "window", "--eeg", edf, "--signal", "99"});
        QCOMPARE(noSignal.exitCode, 2);
        QVERIFY2(noSignal.err.contains("signal") && noSignal.err.contains("99"), noSignal.err.constData());
        const auto none = runCli({"bench", "window"});
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains("--walk"), none.err.constData());
    }

    void studyRankingEqualsTheEngine() {
        const QString folder = dir_.filePath("study");
        QDir().mkpath(folder);
        fx::writeFiles(folder.toStdString());
        const QString summary = folder + "/study-summary.txt";
        fx::writeSummary(summary.toStdString(), false);
        const QString csv = dir_.filePath("study.csv");
        const auto r = runCli({"bench", "study", summary, "--channel", "CZ", "--backend", "cpu", "--kernel", "cpu.reference",
                               "--top", "2", "--csv", csv});
        QVERIFY2(r.exitCode == 0, why(r));
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith("timing: ") && out.contains("channel CZ") && out.contains("kernel cpu.reference"), qPrintable(out));
        QVERIFY(out.contains("rank 1: pattern") && out.contains("rank 2: pattern"));
        // In-process: the same study and request.
        auto st = io::Study::open(summary.toStdString());
        auto req = io::studyPatternRequest(*st, st->findChannel("CZ"));
        req.deviceEpochs = true;
        req.keepMatrixUpToBytes = 0;
        compute::RunOptions o;
        o.backend = compute::Backend::Cpu;
        o.kernel = "cpu.reference";
        const auto want = compute::findPatterns(req, o);
        QVERIFY(!want.ranked.empty());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(std::size_t(lines.size()), want.ranked.size() + 1);
        QVERIFY(lines[0].startsWith("rank,pattern,quality"));
        for (std::size_t k = 0; k < want.ranked.size(); ++k) {
            const QList<QByteArray> fields = lines[int(k) + 1].split(',');
            QCOMPARE(fields[1].toULongLong(), qulonglong(want.ranked[k].index));
            QCOMPARE(fields[2].toDouble(), want.ranked[k].quality);
        }
        // A channel the study lacks: exit 2 naming it; --pick needs FIRST:STEP.
        const auto bad = runCli({"bench", "study", summary, "--channel", "NOPE"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("NOPE"), bad.err.constData());
        const auto pick = runCli({"bench", "study", summary, "--channel", "CZ", "--pick", "3"});
        QCOMPARE(pick.exitCode, 2);
        QVERIFY2(pick.err.contains("--pick"), pick.err.constData());
    }

    void longRecordingWriteThenRead() {
        const QString edf = dir_.filePath("long.edf");
        const auto w = runCli({"bench", "long-recording", "write", edf, "25600"});
        QVERIFY2(w.exitCode == 0, why(w));
        QVERIFY2(w.out.contains("100 records x 256 samples = 25600 samples"), w.out.constData());
        const auto r = runCli({"bench", "long-recording", "read", edf, "10", "20"});
        QVERIFY2(r.exitCode == 0, why(r));
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("reader: EDFlib") && out.contains("samples: 25600 (0.0 h at 256 Hz)"), qPrintable(out));
        QVERIFY(out.contains("whole channel in 10-s windows") && out.contains("random 10-s windows: 20 in"));
        QVERIFY(out.contains("peak RSS:"));
        // The lenient reader reads the same samples: the same checksum.
        const auto l = runCli({"bench", "long-recording", "read", edf, "10", "20", "--lenient"});
        QVERIFY2(l.exitCode == 0, why(l));
        const QString lout = QString::fromUtf8(l.out);
        QVERIFY(lout.contains("reader: lenient raw reader"));
        QCOMPARE(numberAfter(lout, "(checksum"), numberAfter(out, "(checksum"));
        const auto missing = runCli({"bench", "long-recording", "read", dir_.filePath("absent.edf")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("absent.edf"), missing.err.constData());
    }

    void multiWritesSeriesAsNpy() {
        const QString npy = dir_.filePath("series.npy");
        const auto r = runCli({"bench", "multi", "--write-npy", npy, "3", "50", "7"});
        QVERIFY2(r.exitCode == 0, why(r));
        const io::NpyArray a = io::readNpy(npy.toStdString());
        QCOMPARE(a.shape, (std::vector<std::size_t>{3, 50}));
        QCOMPARE(a.data.size(), std::size_t(150));
        for (double v : a.data) QVERIFY(std::isfinite(v) && v == double(float(v)));
        // The same seed gives the same series; another seed others.
        const QString again = dir_.filePath("again.npy"), other = dir_.filePath("other.npy");
        QCOMPARE(runCli({"bench", "multi", "--write-npy", again, "3", "50", "7"}).exitCode, 0);
        QCOMPARE(runCli({"bench", "multi", "--write-npy", other, "3", "50", "8"}).exitCode, 0);
        QVERIFY(io::readNpy(again.toStdString()).data == a.data);
        QVERIFY(io::readNpy(other.toStdString()).data != a.data);
    }

    void gpuFormsNeedAGpu() {
        const std::string noGpu = compute::benchDeviceUnavailable();
        const std::vector<QStringList> forms = {
            {"bench", "gpu", "--metric", "dtw", "--lengths", "16", "--pairs", "4", "--repeats", "1"},
            {"bench", "multi", "8", "8", "16", "2", "0"},
            {"bench", "window", "--walk", "5000", "--backend", "cuda", "--repeats", "1"}};
        for (const QStringList& args : forms) {
            const auto r = runCli(args);
            QVERIFY2(!r.crashed, why(r));
            if (noGpu.empty()) {  // a GPU is here: the benchmark runs
                QVERIFY2(r.exitCode == 0, why(r));
                continue;
            }
            QVERIFY2(r.exitCode == 1, why(r));
            QVERIFY2(r.err.contains("needs a GPU") && r.err.contains(QByteArray::fromStdString(noGpu)), why(r));
            QVERIFY2(r.out.isEmpty(), why(r));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliBenchSubcommands)
#include "test_cli_bench_subcommands.moc"
