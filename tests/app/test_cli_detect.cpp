// `warplab-cli detect`: built from the CHB-MIT crops as a study, saved, loaded and applied to the
// bundled sample; its events table is read by `score`; bad detector files, a recording without
// the detector's channel and contradictory options are refused with exit code 2.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "cli_process.h"

using cli_test::runCli;

class TestCliDetect : public QObject {
    Q_OBJECT
private slots:
    void buildSaveApplyScore() {
        QTemporaryDir dir;
        const QString det = dir.filePath("fp1.json"), events = dir.filePath("sample_events.tsv");
        const QString sample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
        auto r = runCli({"detect", "--study", cli_test::dataPath("chbmit"), "--seizures", "chb01_03_Seizure.edf:1-41",
                         "--top", "3", "--operating-point", "fpr:0.2", "--save", det, "--backend", "cpu"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("3 patterns on 1 channel(s), fpr:0.2"));
        const QJsonObject file = QJsonDocument::fromJson([&] {
                                     QFile f(det);
                                     f.open(QIODevice::ReadOnly);
                                     return f.readAll();
                                 }()).object();
        QCOMPARE(file["format"].toString(), QString("warplab-detector"));
        QCOMPARE(file["version"].toInt(), 1);
        QCOMPARE(file["rate_hz"].toDouble(), 256.0);
        r = runCli({"detect", "--detector", det, "--apply", sample, "--events-out", events, "--backend", "cpu"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile t(events);
        QVERIFY(t.open(QIODevice::ReadOnly));
        const QByteArray tsv = t.readAll();
        QVERIFY(tsv.startsWith("onset\tduration\teventType\tconfidence\tchannels\tdateTime\trecordingDuration\n"));
        r = runCli({"score", "--reference", sample, "--hypothesis", events, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject s = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(s["event"].toObject()["reference_events"].toInt(), 1);
        QCOMPARE(s["duration_s"].toDouble(), 82.0);
    }

    void refusals() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.json");
        QFile f(bad);
        f.open(QIODevice::WriteOnly);
        f.write("{\"format\": \"warplab-detector\", \"version\": 1, \"rate_hz\": 256}");
        f.close();
        const QString sample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
        auto r = runCli({"detect", "--detector", bad, "--apply", sample});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(QString(r.err).trimmed(), "warplab-cli: error: " + bad + ": epoch: missing");
        // A detector on FP1-F7 against the BDF test file, which has no such channel.
        const QString det = dir.filePath("d.json");
        r = runCli({"detect", "--study", cli_test::dataPath("chbmit"), "--seizures", "chb01_03_Seizure.edf:1-41",
                    "--top", "1", "--save", det, "--backend", "cpu"});
        QCOMPARE(r.exitCode, 0);
        const QString bdf = cli_test::dataPath("bdf/Newtest17-256.bdf");
        r = runCli({"detect", "--detector", det, "--apply", bdf});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(": channel: has no channel 'FP1-F7', which the detector was built on"), r.err.constData());
        r = runCli({"detect", "--detector", det, "--study", cli_test::dataPath("chbmit"), "--apply", sample});
        QCOMPARE(r.exitCode, 2);
        r = runCli({"detect", "--detector", det});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("nothing to do"));
        r = runCli({"detect", "--study", cli_test::dataPath("chbmit"), "--operating-point", "best", "--save", det});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("operating-point"));
    }
};

QTEST_GUILESS_MAIN(TestCliDetect)
#include "test_cli_detect.moc"
