// `warplab-cli info --json`: the fields of docs/CLI.md, checked against the headers documented in
// tests/data/PROVENANCE.md (CHB-MIT EDF, PhysioNet EDF+ with annotations, a UCR text file).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include "cli_process.h"

using cli_test::runCli;

class TestCliInfo : public QObject {
    Q_OBJECT

    static QJsonObject infoJson(const QString& file) {
        auto r = runCli({"info", file, "--json"});
        if (r.exitCode != 0) qWarning("%s", r.err.constData());
        QJsonParseError e;
        QJsonDocument doc = QJsonDocument::fromJson(r.out, &e);
        if (e.error != QJsonParseError::NoError) qWarning("not JSON: %s", qPrintable(e.errorString()));
        return r.exitCode == 0 ? doc.object() : QJsonObject();
    }

private slots:
    void chbMitEdf() {
        const QString f = cli_test::dataPath("chbmit/chb01_03_Seizure.edf");
        QJsonObject j = infoJson(f);
        QVERIFY(!j.isEmpty());
        const QStringList keys{"file", "format", "start", "duration_s", "signals", "annotations"};
        for (const QString& k : keys) QVERIFY2(j.contains(k), qPrintable(k));
        QCOMPARE(j.keys().size(), keys.size());
        QCOMPARE(j["file"].toString(), f);
        QCOMPARE(j["format"].toString(), QString("EDF"));
        // Start 06.11.76 14.32.59 (EDF two-digit years: the date is the anonymised CHB-MIT one).
        QVERIFY2(QRegularExpression("^\\d{4}-11-06T14:32:59").match(j["start"].toString()).hasMatch(),
                 qPrintable(j["start"].toString()));
        QCOMPARE(j["duration_s"].toDouble(), 41.0);  // 41 records x 1 s
        const QJsonArray sig = j["signals"].toArray();
        QCOMPARE(sig.size(), 23);
        const QJsonObject s0 = sig[0].toObject();
        QCOMPARE(s0.keys().size(), 8);
        QCOMPARE(s0["index"].toInt(), 0);
        QCOMPARE(s0["label"].toString(), QString("FP1-F7"));
        QCOMPARE(s0["name"].toString(), QString("FP1-F7"));
        QCOMPARE(s0["unit"].toString(), QString("uV"));
        QCOMPARE(s0["rate_hz"].toDouble(), 256.0);
        QCOMPARE(s0["samples"].toInteger(), qint64(41 * 256));
        QCOMPARE(s0["physical_min"].toDouble(), -800.0);
        QCOMPARE(s0["physical_max"].toDouble(), 800.0);
        // T8-P8 appears twice (indices 14 and 22), as in the original recording.
        QCOMPARE(sig[14].toObject()["label"].toString(), QString("T8-P8"));
        QCOMPARE(sig[22].toObject()["label"].toString(), QString("T8-P8"));
        QCOMPARE(sig[22].toObject()["index"].toInt(), 22);
        // "name" is what the text output, --channel and the GUI call them: unique per recording.
        QCOMPARE(sig[14].toObject()["name"].toString(), QString("T8-P8"));
        QCOMPARE(sig[22].toObject()["name"].toString(), QString("T8-P8 (2)"));
        QSet<QString> names;
        for (const auto& s : sig) names.insert(s.toObject()["name"].toString());
        QCOMPARE(names.size(), sig.size());
        QVERIFY(j["annotations"].toArray().isEmpty());  // plain EDF, no annotations
    }

    void edfPlusAnnotations() {
        QJsonObject j = infoJson(cli_test::dataPath("eegmmidb/S001R03.edf"));
        QVERIFY(!j.isEmpty());
        QCOMPARE(j["format"].toString(), QString("EDF+C"));
        QCOMPARE(j["duration_s"].toDouble(), 125.0);
        QCOMPARE(j["signals"].toArray().size(), 64);  // the annotation signal is not a data signal
        QCOMPARE(j["signals"].toArray()[0].toObject()["rate_hz"].toDouble(), 160.0);
        const QJsonArray ann = j["annotations"].toArray();
        QCOMPARE(ann.size(), 30);  // T0 x15, T1 x8, T2 x7
        int t0 = 0, t1 = 0, t2 = 0;
        for (const auto& a : ann) {
            const QString t = a.toObject()["text"].toString();
            t0 += t == "T0";
            t1 += t == "T1";
            t2 += t == "T2";
        }
        QCOMPARE(t0, 15);
        QCOMPARE(t1, 8);
        QCOMPARE(t2, 7);
        const QJsonObject first = ann[0].toObject();
        QCOMPARE(first["onset_s"].toDouble(), 0.0);
        QCOMPARE(first["duration_s"].toDouble(), 4.2);
        QCOMPARE(first["text"].toString(), QString("T0"));
        QCOMPARE(ann[1].toObject()["text"].toString(), QString("T2"));
        QCOMPARE(ann[1].toObject()["onset_s"].toDouble(), 4.2);
    }

    void bdf() {
        QJsonObject j = infoJson(cli_test::dataPath("bdf/Newtest17-256.bdf"));
        QVERIFY(!j.isEmpty());
        QCOMPARE(j["format"].toString(), QString("BDF"));
        QCOMPARE(j["duration_s"].toDouble(), 60.0);
        QCOMPARE(j["signals"].toArray().size(), 17);
        QCOMPARE(j["signals"].toArray()[0].toObject()["label"].toString(), QString("A1"));
    }

    void ucrText() {
        const QString f = cli_test::dataPath("ucr/ECG200/ECG200_TRAIN.txt");
        QJsonObject j = infoJson(f);
        QVERIFY(!j.isEmpty());
        QCOMPARE(j["file"].toString(), f);
        QCOMPARE(j["format"].toString(), QString("text"));
        QVERIFY(j["signals"].isArray());
        // One series per line (UCR style): 100 lines of a label and 96 values.
        const QJsonArray sig = j["signals"].toArray();
        QCOMPARE(sig.size(), 100);
        QCOMPARE(sig[0].toObject()["samples"].toInteger(), qint64(97));
        QVERIFY(j["annotations"].toArray().isEmpty());
    }

    // The plain form is for shells: tab-separated, one fact per line.
    void plainText() {
        auto r = runCli({"info", cli_test::dataPath("chbmit/chb01_03_Seizure.edf")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("format\tEDF\n"));
        QVERIFY(r.out.contains("signals\t23\n"));
        QVERIFY(r.out.contains("\nduration_s\t41\n"));
        QVERIFY(r.out.contains("\n22\tT8-P8 (2)\t"));
    }

    // The JSON name is what --channel takes: the second T8-P8 reads as a series by that name.
    void jsonNameIsTheChannelName() {
        const QString f = cli_test::dataPath("chbmit/chb01_03_Seizure.edf");
        const QString name = infoJson(f)["signals"].toArray()[22].toObject()["name"].toString();
        QCOMPARE(name, QString("T8-P8 (2)"));
        auto r = runCli({"align", "--metric", "cdtw", "--band", "4", f, f, "--channel", name, "--window", "0:0.5"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("distance "));
    }
};

QTEST_GUILESS_MAIN(TestCliInfo)
#include "test_cli_info.moc"
