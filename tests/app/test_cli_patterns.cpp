// `warplab-cli patterns` on the bundled CHB-MIT sample (seizure annotated 42-82 s): the CSV it
// prints equals the ranking of the pipeline run in-process with the scalar reference kernel,
// the seizure sources agree, several channels get a channel column, --dm-out writes the
// matrix, and bad input exits 2 with a message naming the field and nothing on stdout.
// io/recording.h before any Qt header: its signals() must not meet Qt's `signals` macro.
#include "compute/patterns/pattern_discovery.h"
#include "io/matrix_io.h"
#include "io/pattern_input.h"
#include "io/recording.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include "cli_process.h"

using cli_test::runCli;
using namespace warplab;

namespace {

const QString kSample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");

// The ranking of `channel` with e = 256, s = 128, by the scalar reference, in-process.
compute::PatternRanking referenceRanking(const std::string& channel, compute::Quality q) {
    auto rec = io::Recording::open(kSample.toStdString());
    const int signal = rec->findSignal(channel);
    compute::PatternRequest r = io::patternRequest(*rec, signal, {{io::RegionKind::Seizure, -1, 42, 82, ""}});
    r.epoch = 256;
    r.stride = 128;
    r.quality = q;
    r.keepMatrix = true;
    compute::RunOptions o;
    o.backend = compute::Backend::Cpu;
    o.kernel = "cpu.reference";
    return compute::findPatterns(r, o);
}

QStringList small() { return {"--epoch", "256", "--stride", "128"}; }

}  // namespace

class TestCliPatterns : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void printsTheRanking_data() {
        QTest::addColumn<QString>("quality");
        QTest::newRow("auc") << QString("auc");
        QTest::newRow("infogain") << QString("infogain");
    }
    void printsTheRanking() {
        QFETCH(QString, quality);
        const auto expected = referenceRanking("FP1-F7", *compute::parseQuality(quality.toStdString()));
        const auto run = runCli(QStringList{"patterns", "--recording", kSample, "--channel", "FP1-F7", "--annotation",
                                            "seizure", "--quality", quality} + small());
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(run.out.startsWith("rank,quality,pattern_index,start_seconds\n"));
        const auto rows = cli_test::parseCsv(run.out);
        QCOMPARE(rows.size(), expected.ranked.size());
        for (std::size_t k = 0; k < rows.size(); ++k) {
            QCOMPARE(rows[k].size(), std::size_t(4));
            QCOMPARE(rows[k][0], double(k + 1));
            QCOMPARE(rows[k][2], double(expected.ranked[k].index));
            QVERIFY(std::abs(rows[k][1] - expected.ranked[k].quality) < 1e-9);
            QCOMPARE(rows[k][3], expected.ranked[k].startS);
        }
    }

    void seizureSourcesAgreeAndTopLimits() {
        const auto a = runCli(QStringList{"patterns", "--recording", kSample, "--annotation", "seizure", "--top", "5"} + small());
        const auto b = runCli(QStringList{"patterns", "--recording", kSample, "--seizures", "42-82", "--top", "5",
                                          "--channel", "FP1-F7"} + small());
        QVERIFY2(a.exitCode == 0, a.err.constData());
        QVERIFY2(b.exitCode == 0, b.err.constData());
        QCOMPARE(a.out, b.out);  // the default channel of the sample is FP1-F7
        QCOMPARE(cli_test::parseCsv(a.out).size(), std::size_t(5));
    }

    void severalChannelsGetAChannelColumn() {
        const auto run = runCli(QStringList{"patterns", "--recording", kSample, "--annotation", "seizure", "--channel",
                                            "FP1-F7", "--channel", "T7-P7", "--top", "2"} + small());
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines[0], QByteArray("channel,rank,quality,pattern_index,start_seconds"));
        QVERIFY(lines[1].startsWith("FP1-F7,1,"));
        QVERIFY(lines[3].startsWith("T7-P7,1,"));
    }

    void dmOutWritesTheMatrix_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("npy (streamed)") << QString("dm.npy");
        QTest::newRow("h5 (streamed)") << QString("dm.h5");
        QTest::newRow("csv") << QString("dm.csv");
    }
    void dmOutWritesTheMatrix() {
        QFETCH(QString, name);
        const QString out = dir_.filePath(name);
        const auto run = runCli(QStringList{"patterns", "--recording", kSample, "--annotation", "seizure", "--dm-out", out} + small());
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const auto m = io::readMatrix(out.toStdString());
        const auto expected = referenceRanking("FP1-F7", compute::Quality::Auc);
        QCOMPARE(m.rows, expected.patternCount);
        QCOMPARE(m.cols, expected.epochCount);
        for (std::size_t k = 0; k < m.values.size(); ++k)
            QVERIFY(std::abs(m.values[k] - expected.matrix.values[k]) <= 1e-5 * std::max(1.0, expected.matrix.values[k]));
        // Nothing else (no temporary) is left beside it.
        QCOMPARE(QDir(dir_.path()).entryList(QDir::Files).filter(name + ".").size(), 0);
        QFile::remove(out);
    }

    void cancelledJobLeavesNoFile() {
        // A job of some seconds (415 patterns x 16,384 epochs), interrupted once it has started
        // writing: Ctrl-C cancels it, and neither the matrix nor a temporary is left.
        QTemporaryDir dir;
        const QString out = dir.filePath("big.npy");
        QProcess p;
        p.start(QStringLiteral(WARPLAB_CLI), {"patterns", "--synthetic", "4195072", "--backend", "cpu", "--progress",
                                             "--dm-out", out});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QElapsedTimer t;
        t.start();
        while (!err.contains("patterns:") && t.elapsed() < 60000 && p.state() == QProcess::Running) {
            p.waitForReadyRead(100);
            err += p.readAllStandardError();
        }
        QVERIFY2(p.state() == QProcess::Running, "the job ended before it could be cancelled");
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        err += p.readAllStandardError();
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains("cancelled"), err.constData());
        QVERIFY(p.readAllStandardOutput().isEmpty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
    }

    void badInputExitsTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mention");
        const QStringList base{"patterns", "--recording", kSample, "--channel", "FP1-F7"};
        QTest::newRow("no seizure source") << base << "seizures";
        QTest::newRow("stride 0") << base + QStringList{"--seizures", "42-82", "--stride", "0"} << "stride";
        QTest::newRow("seizure shorter than an epoch") << base + QStringList{"--seizures", "42-43"} << "shorter than one epoch";
        QTest::newRow("epoch longer than the recording") << base + QStringList{"--seizures", "42-82", "--epoch", "30000"} << "epoch";
        QTest::newRow("seizure outside") << base + QStringList{"--seizures", "42-95"} << "95";
        QTest::newRow("malformed seizures") << base + QStringList{"--seizures", "42to82"} << "seizures[0]";
        QTest::newRow("unknown channel") << QStringList{"patterns", "--recording", kSample, "--channel", "NOPE-X1", "--seizures", "42-82"}
                                         << "NOPE-X1";
        QTest::newRow("unknown quality") << base + QStringList{"--seizures", "42-82", "--quality", "best"} << "quality";
        QTest::newRow("no such annotation") << base + QStringList{"--annotation", "spike"} << "spike";
    }
    void badInputExitsTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, mention);
        const auto run = runCli(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(QString(run.err).contains(mention, Qt::CaseInsensitive), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliPatterns)
#include "test_cli_patterns.moc"
