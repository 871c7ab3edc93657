// `warplab-cli score`: the JSON keys, the figures of timescoring on cases of
// tests/data/scoring/timescoring_cases.json written as events tables, each option reaching the
// scoring, and bad input refused with exit code 2 naming file and reason.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "cli_process.h"

using cli_test::runCli;

namespace {

QString writeTsv(const QTemporaryDir& dir, const QString& name, const QJsonArray& events) {
    const QString p = dir.filePath(name);
    QFile f(p);
    f.open(QIODevice::WriteOnly);
    f.write("onset\tduration\teventType\n");
    for (const auto& e : events) {
        const double a = e.toArray()[0].toDouble(), b = e.toArray()[1].toDouble();
        // The exact doubles: "%.17g" reads back to the same value, and b - a + a may not, so the
        // duration is what the scorer's onset + duration must give back (checked below).
        f.write(QByteArray::number(a, 'g', 17) + "\t" + QByteArray::number(b - a, 'g', 17) + "\tsz\n");
    }
    return p;
}

QJsonObject scoreJson(const QStringList& args) {
    const auto r = runCli(QStringList{"score"} + args + QStringList{"--json"});
    if (r.exitCode != 0) qWarning("%s", r.err.constData());
    return r.exitCode == 0 ? QJsonDocument::fromJson(r.out).object() : QJsonObject();
}

}  // namespace

class TestCliScore : public QObject {
    Q_OBJECT
private slots:
    void keysAndTimescoringFigures() {
        QFile in(QStringLiteral(WARPLAB_TEST_DATA "/scoring/timescoring_cases.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QJsonArray cases = QJsonDocument::fromJson(in.readAll()).object()["cases"].toArray();
        QTemporaryDir dir;
        int compared = 0;
        for (const auto& cv : cases) {
            const QJsonObject c = cv.toObject();
            // Hand-made cases only with exact onset + duration sums (random times may not add back).
            bool exact = true;
            for (const char* list : {"reference", "hypothesis"})
                for (const auto& e : c[list].toArray()) {
                    const double a = e.toArray()[0].toDouble(), b = e.toArray()[1].toDouble();
                    exact = exact && a + (b - a) == b;
                }
            if (!exact || c.contains("options")) continue;
            const QString ref = writeTsv(dir, "ref.tsv", c["reference"].toArray());
            const QString hyp = writeTsv(dir, "hyp.tsv", c["hypothesis"].toArray());
            const QJsonObject j = scoreJson({"--reference", ref, "--hypothesis", hyp, "--duration",
                                             QString::number(c["duration"].toDouble(), 'g', 17)});
            QCOMPARE(j.keys(), (QStringList{"duration_s", "event", "sample", "seizures"}));
            for (const char* kind : {"event", "sample"}) {
                const QJsonObject got = j[kind].toObject(), want = c["expected"].toObject()[kind].toObject();
                QCOMPARE(got.keys(), (QStringList{"f1", "fp", "fp_per_day", "precision", "reference_events",
                                                  "sensitivity", "tp"}));
                for (const QString& k : got.keys()) {
                    if (got[k] != want[k])
                        qWarning("%s %s %s: got %s, want %s", qPrintable(c["name"].toString()), kind, qPrintable(k),
                                 qPrintable(QString::number(got[k].toDouble(), 'g', 17)),
                                 qPrintable(QString::number(want[k].toDouble(), 'g', 17)));
                    QCOMPARE(got[k], want[k]);
                }
            }
            ++compared;
        }
        QVERIFY2(compared >= 15, qPrintable(QString::number(compared)));
    }

    void optionsReachTheScoring() {
        QTemporaryDir dir;
        const QString ref = writeTsv(dir, "r.tsv", QJsonArray{QJsonArray{100, 160}});
        const QString hyp = writeTsv(dir, "h.tsv", QJsonArray{QJsonArray{80, 90}, QJsonArray{175, 180}});
        // Defaults: both detections fall in the tolerance -> one hit, no false alarm, latency -20 s.
        QJsonObject j = scoreJson({"--reference", ref, "--hypothesis", hyp, "--duration", "3600"});
        QCOMPARE(j["event"].toObject()["tp"].toInt(), 1);
        QCOMPARE(j["event"].toObject()["fp"].toInt(), 0);
        QCOMPARE(j["seizures"].toArray()[0].toObject()["latency_s"].toDouble(), -20.0);
        QCOMPARE(j["sample"].toObject()["fp_per_day"].toDouble(), 15 * 24.0);
        // No tolerance before, none after and no merging: the two detections are false alarms.
        j = scoreJson({"--reference", ref, "--hypothesis", hyp, "--duration", "3600", "--tolerance-before", "0",
                       "--tolerance-after", "0", "--merge-gap", "0"});
        QCOMPARE(j["event"].toObject()["tp"].toInt(), 0);
        QCOMPARE(j["event"].toObject()["fp"].toInt(), 2);
        QVERIFY(j["seizures"].toArray()[0].toObject()["latency_s"].isNull());
        // Splitting at 20 s makes three reference events; labels at 10 Hz make ten times the samples.
        j = scoreJson({"--reference", ref, "--hypothesis", hyp, "--duration", "3600", "--max-event", "20",
                       "--sample-rate", "10"});
        QCOMPARE(j["event"].toObject()["reference_events"].toInt(), 3);
        QCOMPARE(j["sample"].toObject()["reference_events"].toInt(), 600);
        // An empty hypothesis: precision undefined (null), sensitivity 0.
        const QString none = writeTsv(dir, "n.tsv", QJsonArray{});
        j = scoreJson({"--reference", ref, "--hypothesis", none, "--duration", "3600"});
        QVERIFY(j["event"].toObject()["precision"].isNull());
        QCOMPARE(j["event"].toObject()["sensitivity"].toDouble(), 0.0);
    }

    void referenceFromSummaryAndRecording() {
        QTemporaryDir dir;
        const QString hyp = writeTsv(dir, "h.tsv", QJsonArray{QJsonArray{3000, 3010}});
        const QJsonObject j = scoreJson({"--reference", cli_test::dataPath("chbmit/chb01-summary.txt"), "--hypothesis",
                                         hyp, "--recording", "chb01_03.edf"});
        QCOMPARE(j["duration_s"].toDouble(), 3600.0);
        QCOMPARE(j["event"].toObject()["tp"].toInt(), 1);
        QCOMPARE(j["seizures"].toArray()[0].toObject()["latency_s"].toDouble(), 4.0);
        // The bundled sample's EDF+ annotation (42-82 s) and its length from the file itself.
        const QJsonObject s = scoreJson({"--reference", QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf"),
                                         "--hypothesis", hyp});
        QCOMPARE(s["duration_s"].toDouble(), 82.0);
        QCOMPARE(s["event"].toObject()["reference_events"].toInt(), 1);
        QCOMPARE(s["event"].toObject()["fp"].toInt(), 1);  // 3000 s lies past the end: a false alarm
    }

    void refusals() {
        QTemporaryDir dir;
        const QString ref = writeTsv(dir, "r.tsv", QJsonArray{QJsonArray{100, 160}});
        const QString bad = dir.filePath("bad.tsv");
        QFile f(bad);
        f.open(QIODevice::WriteOnly);
        f.write("onset\tduration\n12\tlong\n");
        f.close();
        auto r = runCli({"score", "--reference", ref, "--hypothesis", bad, "--duration", "100"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(QString(r.err).trimmed(),
                 "warplab-cli: error: " + bad + ": line 2, column 'duration': 'long' is not a finite number of seconds");
        r = runCli({"score", "--reference", ref, "--hypothesis", ref});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("give --duration SECONDS or --recording PATH"));
        r = runCli({"score", "--reference", ref, "--hypothesis", ref, "--duration", "100", "--min-overlap", "2"});
        QCOMPARE(r.exitCode, 2);
        r = runCli({"score", "--reference", ref, "--hypothesis", ref, "--duration", "100", "--recording", ref});
        QCOMPARE(r.exitCode, 2);  // one or the other
    }
};

QTEST_GUILESS_MAIN(TestCliScore)
#include "test_cli_score.moc"
