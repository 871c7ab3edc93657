// `warplab-cli bench` output: the energy columns of the table and the JSON
// rows. A CPU kernel has no board energy counter: its figures are missing ("-" in the table,
// null in JSON) and energy_note says why.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_process.h"

using cli_test::runCli;

class TestCliBench : public QObject {
    Q_OBJECT
private slots:
    void energyColumnsWithTheReasonOnACpuKernel() {
        QTemporaryDir dir;
        const QString json = dir.filePath("bench.json");
        const auto r = runCli({"bench", "--kernels", "cpu.reference", "--lengths", "16,32", "--pairs", "4", "--repeats",
                               "1", "--json", json});
        QVERIFY2(r.exitCode == 0 && !r.crashed, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QVERIFY(lines.size() >= 4);  // device, header, one row per length
        const QByteArray header = lines[1].simplified();
        for (const char* column : {"max_rel_err", "J/dist", "mean_W", "dist/ms/W", "energy_note", "note"})
            QVERIFY2(header.contains(column), header.constData());
        QVERIFY(header.indexOf("J/dist") < header.indexOf("energy_note"));
        int rows = 0;
        for (const QByteArray& line : lines.mid(2)) {
            if (!line.startsWith("cpu.reference")) continue;
            ++rows;
            QVERIFY2(line.contains("CPU kernel: no board energy counter"), line.constData());
            // J/dist, mean_W and dist/ms/W print "-": the three fields after max_rel_err.
            const QList<QByteArray> f = line.simplified().split(' ');
            QVERIFY(f.size() > 11);
            QCOMPARE(f[9], QByteArray("-"));
            QCOMPARE(f[10], QByteArray("-"));
            QCOMPARE(f[11], QByteArray("-"));
        }
        QCOMPARE(rows, 2);

        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray jrows = QJsonDocument::fromJson(f.readAll()).object().value("rows").toArray();
        QCOMPARE(jrows.size(), 2);
        for (const QJsonValue& v : jrows) {
            const QJsonObject o = v.toObject();
            QCOMPARE(o.value("kernel").toString(), QString("cpu.reference"));
            for (const char* key : {"joules_per_distance", "mean_power_w", "distances_per_ms_per_w", "energy_j", "energy_window_s"}) {
                QVERIFY2(o.contains(key), key);
                QVERIFY2(o.value(key).isNull(), key);
            }
            QCOMPARE(o.value("energy_note").toString(), QString("CPU kernel: no board energy counter"));
            QVERIFY(o.value("distances_per_s").toDouble() > 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestCliBench)
#include "test_cli_bench.moc"
