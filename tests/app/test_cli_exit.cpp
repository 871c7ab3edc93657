// How warplab-cli leaves (app/cli/process_exit.h): at once after a command, without the
// process's teardown, or through it with WARPLAB_FULL_EXIT=1. Either way every output is whole:
// .npy, .h5 and .csv matrices (in memory and streamed) hold the values dm prints, stdout sent to
// a file (fully buffered) holds the same bytes, and the exit code is the command's: 0, 2 for bad
// input (the error said at once, GPUs still starting or not), 1 when stdout cannot be written.
#include "io/matrix_io.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include "cli_process.h"

using namespace warplab;

namespace {

// Builds whose checks run at exit (sanitizers) always take the full teardown, as the program
// built with the same flags does.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kFastByDefault = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kFastByDefault = false;
#else
constexpr bool kFastByDefault = true;
#endif
#else
constexpr bool kFastByDefault = true;
#endif

enum class Exit { Default, Full };

struct Run {
    int code = -1;
    bool crashed = true;
    QByteArray out, err;
};

// Runs warplab-cli with the exit asked for; stdout to `stdoutFile` when given (a file is fully
// buffered, where an exit that skipped the flush would lose the tail), else a pipe.
Run run(const QStringList& args, Exit exit, const QString& stdoutFile = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("WARPLAB_FULL_EXIT"));
    if (exit == Exit::Full) env.insert(QStringLiteral("WARPLAB_FULL_EXIT"), QStringLiteral("1"));
    p.setProcessEnvironment(env);
    if (!stdoutFile.isEmpty()) p.setStandardOutputFile(stdoutFile);
    p.start(QStringLiteral(WARPLAB_CLI), args);
    Run r;
    if (!p.waitForStarted(30000) || !p.waitForFinished(300000)) return r;
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

const char* name(Exit e) { return e == Exit::Full ? "full teardown" : "default exit"; }

const QString kSample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");

QStringList dmArgs() {
    return {"dm", "--metric", "dtw", "--label-column", "--queries", cli_test::dataPath("ucr/ECG200/ECG200_TEST.txt")};
}

}  // namespace

class TestCliExit : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path(const QString& n) { return dir_.filePath(n); }
    std::vector<std::vector<double>> reference_;  // the matrix dm prints on stdout

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const Run r = run(dmArgs(), Exit::Full);
        QVERIFY2(r.code == 0 && !r.crashed, r.err.constData());
        reference_ = cli_test::parseCsv(r.out);
        QCOMPARE(reference_.size(), std::size_t(100));
        QCOMPARE(reference_.front().size(), std::size_t(100));
    }

    void matrixFilesAreWhole_data() {
        QTest::addColumn<QString>("ext");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("npy") << ".npy" << QStringList{};
        QTest::newRow("h5") << ".h5" << QStringList{};
        QTest::newRow("csv") << ".csv" << QStringList{};
        // A budget below the matrix's bytes: written tile by tile, finished and renamed at the end.
        QTest::newRow("npy streamed") << ".npy" << QStringList{"--max-memory", "0.00001"};
        QTest::newRow("h5 streamed") << ".h5" << QStringList{"--max-memory", "0.00001"};
    }
    void matrixFilesAreWhole() {
        QFETCH(QString, ext);
        QFETCH(QStringList, extra);
        QByteArray bytes[2];
        for (Exit e : {Exit::Default, Exit::Full}) {
            const QString out = path(QStringLiteral("m%1%2").arg(int(e)).arg(ext));
            const Run r = run(dmArgs() + extra + QStringList{"--out", out}, e);
            QVERIFY2(r.code == 0 && !r.crashed, (QByteArray(name(e)) + ": " + r.err).constData());
            const auto m = io::readMatrix(out.toStdString());
            QCOMPARE(m.rows, std::size_t(100));
            QCOMPARE(m.cols, std::size_t(100));
            for (std::size_t i = 0; i < m.rows; ++i)
                for (std::size_t j = 0; j < m.cols; ++j)
                    QVERIFY2(m.values[i * m.cols + j] == reference_[i][j], name(e));
            // Nothing left beside it under a temporary name.
            QCOMPARE(QDir(dir_.path()).entryList({QFileInfo(out).fileName() + ".tmp-*"}, QDir::Files).size(), 0);
            bytes[int(e)] = cli_test::readText(out);
        }
        if (ext != ".h5") QCOMPARE(bytes[0], bytes[1]);  // HDF5 stamps its objects with times
    }

    // stdout redirected to a file is block-buffered: its last block is written by the flush
    // before the exit, and the file holds exactly what a pipe receives.
    void stdoutToAFileIsWhole_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("dm") << dmArgs();
        QTest::newRow("search") << QStringList{"search", "--query", kSample, "--reference", kSample, "--channel", "FP1-F7",
                                               "--window", "10:1", "--backend", "cpu", "--top", "5", "--include-self"};
        QTest::newRow("patterns") << QStringList{"patterns", "--recording", kSample, "--annotation", "seizure", "--epoch",
                                                 "256", "--stride", "128", "--backend", "cpu", "--top", "40"};
        QTest::newRow("help") << QStringList{"dm", "--help"};
    }
    void stdoutToAFileIsWhole() {
        QFETCH(QStringList, args);
        const Run piped = run(args, Exit::Full);
        QVERIFY2(piped.code == 0 && !piped.crashed, piped.err.constData());
        QVERIFY(!piped.out.isEmpty());
        for (Exit e : {Exit::Default, Exit::Full}) {
            const QString f = path(QStringLiteral("stdout%1.txt").arg(int(e)));
            const Run r = run(args, e, f);
            QVERIFY2(r.code == 0 && !r.crashed, (QByteArray(name(e)) + ": " + r.err).constData());
            QVERIFY2(cli_test::readText(f) == piped.out, name(e));
        }
    }

    void exitCodes() {
        // Bad input found after the GPUs began to start (backend auto): reported at once, code 2.
        const QString bad = path("bad.txt");
        QVERIFY(cli_test::writeText(bad, "1,2,3\n4,x,6\n"));
        const bool devFull = QFileInfo::exists("/dev/full");
        for (Exit e : {Exit::Default, Exit::Full}) {
            const Run b = run({"dm", "--metric", "dtw", "--queries", bad}, e);
            QVERIFY2(!b.crashed && b.code == 2, (QByteArray(name(e)) + ": " + b.err).constData());
            QVERIFY2(b.err.contains("bad.txt") && b.err.contains("error"), b.err.constData());
            QVERIFY(b.out.isEmpty());
            // An option CLI11 refuses: 2.
            const Run p = run({"dm", "--metric", "nope", "--queries", bad}, e);
            QVERIFY2(!p.crashed && p.code == 2, p.err.constData());
            if (!devFull) continue;
            // stdout that cannot be written: 1, in a command (dm's rows) and after one (help).
            const Run full = run(dmArgs(), e, "/dev/full");
            QVERIFY2(!full.crashed && full.code == 1, (QByteArray(name(e)) + ": " + full.err).constData());
            QVERIFY2(full.err.contains("stdout"), full.err.constData());
            const Run help = run({"--help"}, e, "/dev/full");
            QVERIFY2(!help.crashed && help.code == 1, (QByteArray(name(e)) + ": " + help.err).constData());
            QVERIFY2(help.err.contains("stdout: write failed"), help.err.constData());
        }
        if (!devFull) QSKIP("no /dev/full here: the unwritable stdout is not tried");
    }

    // The --timing line says which exit follows it (timed only outside the process).
    void timingNamesTheExit() {
        const Run full = run(dmArgs() + QStringList{"--timing"}, Exit::Full);
        QVERIFY2(full.code == 0, full.err.constData());
        QVERIFY2(full.err.contains("; exit: through the full teardown"), full.err.constData());
        const Run fast = run(dmArgs() + QStringList{"--timing"}, Exit::Default);
        QVERIFY2(fast.code == 0, fast.err.constData());
        QVERIFY2(fast.err.contains(kFastByDefault ? "; exit: at once, without the teardown" : "; exit: through the full teardown"),
                 fast.err.constData());
        QCOMPARE(fast.out, full.out);
    }
};

QTEST_GUILESS_MAIN(TestCliExit)
#include "test_cli_exit.moc"
