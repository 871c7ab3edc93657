// `warplab-cli crossval`: a study of three EDF+ recordings (240 s at 256 Hz, a 30 s spike-and-wave
// planted in each, written here with io/edf_writer.h) cross-validated leave-one-out: three folds,
// each trained without its recording, every seizure found; the table, the JSON keys, and a study
// with one seizure recording refused (exit 2).
// io/edf_writer.h has a parameter named signals: include it before Qt's keywords exist.
#include "compute/patterns/synthetic_channel.h"
#include "io/edf_writer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "cli_process.h"

using cli_test::runCli;
using namespace warplab;

namespace {

// Writes r<i>.edf for seeds 1..3 and returns the --seizures list.
QString writeStudy(const QTemporaryDir& dir) {
    QStringList seizures;
    for (int i = 0; i < 3; ++i) {
        compute::SyntheticChannel c;
        c.samples = 240 * 256;
        c.seizureSamples = 30 * 256;
        c.seizureCount = 1;
        c.seed = std::uint64_t(i + 1);
        const auto x = compute::syntheticSamples(c);
        const auto sz = compute::syntheticSeizures(c);
        const QString name = QString("r%1.edf").arg(i);
        io::EdfWriterSignal s;
        s.label = "FP1-F7";
        s.unit = "uV";
        s.physicalMin = -400;
        s.physicalMax = 400;
        s.samplesPerRecord = 256;
        io::EdfWriter w(dir.filePath(name).toStdString(), {}, {s});
        std::vector<double> rec(256);
        for (std::size_t r = 0; r < 240; ++r) {
            for (std::size_t k = 0; k < 256; ++k) rec[k] = x[r * 256 + k];
            w.writeRecordPhysical(rec.data());
        }
        w.close();
        seizures << QString("%1:%2-%3").arg(name).arg(sz[0].start, 0, 'f', 4).arg(sz[0].end, 0, 'f', 4);
    }
    return seizures.join(',');
}

}  // namespace

class TestCliCrossval : public QObject {
    Q_OBJECT
private slots:
    void threeFolds() {
        QTemporaryDir dir;
        const QString seizures = writeStudy(dir);
        const QStringList common{"crossval", "--study", dir.path(), "--seizures", seizures, "--top", "3",
                                 "--votes", "2", "--backend", "cpu"};
        auto r = runCli(common + QStringList{"--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.keys(), (QStringList{"event", "fold_kind", "folds", "sample", "study_s", "tested_s"}));
        QCOMPARE(j["fold_kind"].toString(), QString("seizure"));
        const QJsonArray folds = j["folds"].toArray();
        QCOMPARE(folds.size(), 3);
        for (const auto& fv : folds) {
            const QJsonObject f = fv.toObject();
            QCOMPARE(f["training"].toArray().size(), 2);
            for (const auto& t : f["training"].toArray()) QVERIFY(t.toString() != f["recording"].toString());
            QCOMPARE(f["event"].toObject()["tp"].toInt(), 1);
        }
        QCOMPARE(j["event"].toObject()["sensitivity"].toDouble(), 1.0);
        QCOMPARE(j["event"].toObject()["reference_events"].toInt(), 3);
        QCOMPARE(j["tested_s"].toDouble(), 720.0);
        r = runCli(common);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5);  // header, 3 folds, pooled
        QVERIFY(lines[0].startsWith("recording\tduration_s\tseizures\tdetected\ttp\tfp\t"));
        QVERIFY(lines[4].startsWith("pooled\t720\t3\t3\t3\t"));
    }

    void everyRecordingHeldOut() {
        // --folds recording: a seizure-free recording is held out too, and only adds false alarms.
        QTemporaryDir dir;
        const QString seizures = writeStudy(dir);
        compute::SyntheticChannel c;
        c.samples = 240 * 256;
        c.seed = 9;
        io::EdfWriterSignal s;
        s.label = "FP1-F7";
        s.unit = "uV";
        s.physicalMin = -400;
        s.physicalMax = 400;
        s.samplesPerRecord = 256;
        io::EdfWriter w(dir.filePath("quiet.edf").toStdString(), {}, {s});
        std::vector<double> rec(256);
        for (long long r = 0; r < 240; ++r) {
            for (long long k = 0; k < 256; ++k) rec[std::size_t(k)] = compute::syntheticSample(c, {}, r * 256 + k);
            w.writeRecordPhysical(rec.data());
        }
        w.close();
        const QStringList common{"crossval", "--study", dir.path(), "--seizures", seizures, "--top", "3",
                                 "--votes", "2", "--backend", "cpu", "--json"};
        auto r = runCli(common + QStringList{"--folds", "recording"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["fold_kind"].toString(), QString("recording"));
        const QJsonArray folds = j["folds"].toArray();
        QCOMPARE(folds.size(), 4);
        bool quietSeen = false;
        for (const auto& fv : folds) {
            const QJsonObject f = fv.toObject();
            QCOMPARE(f["training"].toArray().size(), 3);
            for (const auto& t : f["training"].toArray()) QVERIFY(t.toString() != f["recording"].toString());
            if (f["recording"].toString() == "quiet.edf") {
                quietSeen = true;
                QCOMPARE(f["event"].toObject()["reference_events"].toInt(), 0);
                QVERIFY(f["event"].toObject()["sensitivity"].isNull());
            }
        }
        QVERIFY(quietSeen);
        QCOMPARE(j["tested_s"].toDouble(), 960.0);
        QCOMPARE(j["event"].toObject()["reference_events"].toInt(), 3);
        // The default holds out the seizure recordings only: quiet.edf trains every fold.
        r = runCli(common);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["folds"].toArray().size(), 3);
        QCOMPARE(j["tested_s"].toDouble(), 720.0);
        QCOMPARE(j["study_s"].toDouble(), 960.0);
        // A kind of fold the command does not know is refused.
        r = runCli(common + QStringList{"--folds", "seizures"});
        QCOMPARE(r.exitCode, 2);
    }

    void oneSeizureRecordingIsRefused() {
        const auto r = runCli({"crossval", "--study", cli_test::dataPath("chbmit"), "--seizures",
                               "chb01_03_Seizure.edf:1-41", "--backend", "cpu"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("seizures in at least two recordings"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliCrossval)
#include "test_cli_crossval.moc"
