// `warplab-cli align` (distance, warping path, accumulated-cost matrix) and `warplab-cli search`
// (a series planted inside a real Bonn EEG recording is found at its place).
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "cli_process.h"
#include "compute/engine/engine.h"
#include "io/matrix_io.h"
#include "io/recording.h"
#include "io/series_file.h"

using namespace warplab;
using cli_test::parseCsv;
using cli_test::runCli;

namespace {

// Bonn files hold one integer sample per line (CRLF).
std::vector<double> readColumn(const QString& path) {
    std::vector<double> v;
    for (const QByteArray& line : cli_test::readText(path).split('\n'))
        if (!line.trimmed().isEmpty()) v.push_back(line.trimmed().toDouble());
    return v;
}

QByteArray oneLine(const std::vector<double>& v) {
    QByteArray s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + QByteArray::number(v[i], 'g', 9);
    return s + '\n';
}

}  // namespace

class TestCliAlignSearch : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path(const QString& n) const { return dir_.filePath(n); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // x = [0 1 2], y = [0 2], squared cost. Local costs: x0: 0 4 | x1: 1 1 | x2: 4 0.
    // D: row0 0 4 | row1 1 1+min(4,1,0)=1 | row2 4+1=5 0+min(1,5,1)=1 -> distance 1.
    // Backtrack from (2,1): diagonal (1,0)=1 ties with up (1,1)=1, diagonal wins; then (0,0).
    void alignByHand() {
        const QString a = path("a.txt"), b = path("b.txt"), p = path("path.csv"), m = path("acc.npy");
        QVERIFY(cli_test::writeText(a, "0 1 2\n"));
        QVERIFY(cli_test::writeText(b, "0 2\n"));
        auto r = runCli({"align", "--metric", "dtw", a, b, "--path", p, "--matrix", m});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("distance 1\n"));
        QCOMPARE(cli_test::readText(p), QByteArray("i,j\n0,0\n1,0\n2,1\n"));
        compute::DistanceMatrix acc = io::readMatrix(m.toStdString());
        QCOMPARE(acc.rows, std::size_t(3));
        QCOMPARE(acc.cols, std::size_t(2));
        const std::vector<double> want{0, 4, 1, 1, 5, 1};
        QCOMPARE(acc.values, want);
    }

    // Real series: the distance is the scalar reference's; the path is a monotone chain from
    // (0,0) to (n-1,m-1) whose local costs sum to the distance; the matrix obeys the recurrence.
    void alignEcg_data() {
        QTest::addColumn<QString>("metric");
        QTest::addRow("dtw") << "dtw";
        QTest::addRow("cdtw") << "cdtw";
    }
    void alignEcg() {
        QFETCH(QString, metric);
        const QString a = path("ecg_a.txt"), b = path("ecg_b.txt"), p = path("ecg_path.csv"), m = path("ecg_acc.npy");
        io::SeriesFileOptions lo;
        lo.labelColumn = true;
        auto train = io::readSeriesFile(cli_test::dataPath("ucr/ECG200/ECG200_TRAIN.txt").toStdString(), lo);
        QVERIFY(train.size() >= 2);
        auto text = [](const compute::Series& s) {
            std::vector<double> v(s.values.begin(), s.values.end());
            return oneLine(v);  // 9 significant digits read back to the same float
        };
        QVERIFY(cli_test::writeText(a, text(train[0])));
        QVERIFY(cli_test::writeText(b, text(train[1])));
        auto r = runCli({"align", "--metric", metric, "--band", "4", a, b, "--path", p, "--matrix", m});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("distance "));
        const double d = r.out.mid(9).trimmed().toDouble();
        compute::Params params;
        params.metric = *compute::parseMetric(metric.toStdString());
        params.band = 4;
        QCOMPARE(d, compute::Engine::distance(train[0], train[1], params));

        const auto& x = train[0].values;
        const auto& y = train[1].values;
        auto cost = [&](std::size_t i, std::size_t j) { double e = double(x[i]) - double(y[j]); return e * e; };
        auto rows = parseCsv(cli_test::readText(p));
        QVERIFY(rows.size() >= x.size());
        QCOMPARE(rows.front(), (std::vector<double>{0, 0}));
        QCOMPARE(rows.back(), (std::vector<double>{double(x.size() - 1), double(y.size() - 1)}));
        double sum = 0;
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const auto i = std::size_t(rows[k][0]), j = std::size_t(rows[k][1]);
            if (metric == "cdtw") QVERIFY(std::abs(double(i) - double(j)) <= 4);
            if (k) {
                const double di = rows[k][0] - rows[k - 1][0], dj = rows[k][1] - rows[k - 1][1];
                QVERIFY((di == 0 || di == 1) && (dj == 0 || dj == 1) && di + dj >= 1);
            }
            sum += cost(i, j);
        }
        QVERIFY(std::abs(sum - d) <= 1e-9 * d);

        compute::DistanceMatrix acc = io::readMatrix(m.toStdString());
        QCOMPARE(acc.rows, x.size());
        QCOMPARE(acc.cols, y.size());
        QCOMPARE(acc.at(x.size() - 1, y.size() - 1), d);
        // Spot-check the recurrence on interior cells inside the band.
        for (std::size_t i = 1; i < x.size(); i += 7)
            for (std::size_t j = (i > 3 ? i - 3 : 1); j < std::min(y.size(), i + 4); ++j) {
                const double want = cost(i, j) + std::min({acc.at(i - 1, j), acc.at(i, j - 1), acc.at(i - 1, j - 1)});
                QVERIFY2(std::abs(acc.at(i, j) - want) <= 1e-9 * std::max(1.0, want),
                         qPrintable(QStringLiteral("cell (%1,%2)").arg(i).arg(j)));
            }
    }

    // Every metric align computes: the printed distance is the scalar reference's, bit-exact
    // (the text is the shortest round-trip form); the matrix ends in the same value.
    void alignDistance_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addRow("euclidean") << QStringList{"--metric", "euclidean"};
        QTest::addRow("dtw abs znorm") << QStringList{"--metric", "dtw", "--cost", "abs", "--znorm"};
        QTest::addRow("cdtw sqrt") << QStringList{"--metric", "cdtw", "--band", "2", "--sqrt"};
        QTest::addRow("softdtw") << QStringList{"--metric", "softdtw", "--gamma", "0.1"};
        QTest::addRow("twed rate") << QStringList{"--metric", "twed", "--nu", "0.2", "--lambda", "0.5", "--rate", "96"};
    }
    void alignDistance() {
        QFETCH(QStringList, args);
        const QString a = path("g_a.txt"), b = path("g_b.txt"), m = path("g_acc.npy");
        io::SeriesFileOptions lo;
        lo.labelColumn = true;
        auto gp = io::readSeriesFile(cli_test::dataPath("ucr/GunPoint/GunPoint_TRAIN.tsv").toStdString(), lo);
        QVERIFY(gp.size() >= 2);
        QVERIFY(cli_test::writeText(a, oneLine({gp[0].values.begin(), gp[0].values.end()})));
        QVERIFY(cli_test::writeText(b, oneLine({gp[1].values.begin(), gp[1].values.end()})));
        compute::Params p;
        p.metric = *compute::parseMetric(args[1].toStdString());
        for (int i = 2; i < args.size(); ++i) {
            if (args[i] == "--cost") p.cost = compute::Cost::Absolute;
            if (args[i] == "--znorm") p.znorm = true;
            if (args[i] == "--sqrt") p.sqrt = true;
            if (args[i] == "--band") p.band = args[i + 1].toInt();
            if (args[i] == "--gamma") p.gamma = args[i + 1].toDouble();
            if (args[i] == "--nu") p.nu = args[i + 1].toDouble();
            if (args[i] == "--lambda") p.lambda = args[i + 1].toDouble();
            if (args[i] == "--rate") p.rate = args[i + 1].toDouble();
        }
        auto r = runCli(QStringList{"align"} + args + QStringList{a, b, "--matrix", m});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("distance "));
        const double want = compute::Engine::distance(gp[0], gp[1], p);
        QCOMPARE(parseCsv(r.out.mid(9)), (std::vector<std::vector<double>>{{want}}));
        compute::DistanceMatrix acc = io::readMatrix(m.toStdString());
        QVERIFY(acc.rows * acc.cols > 0);
        const double last = acc.values.back();
        QCOMPARE(p.sqrt ? std::sqrt(last) : last, want);
    }

    // --reference-channel and --reference-window cut B_FILE its own way (a query and a
    // reference marked on different channels and times, as the GUI's Copy as command gives):
    // the distance is the engine's on the same samples, bit for bit.
    void alignReferenceChannelAndWindow() {
        const QString edf = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
        auto rec = io::Recording::open(edf.toStdString());
        const int qc = rec->findSignal("FP1-F7"), rc = rec->findSignal("#2");
        QVERIFY(qc >= 0 && rc >= 0 && qc != rc);
        // 3 s + 1.5 s and 10 s + 2 s at the sample's 256 Hz: samples [768, 1152) and [2560, 3072).
        compute::Series x(rec->read(qc, 768, 384), 1, "x"), y(rec->read(rc, 2560, 512), 1, "y");
        compute::Params p;
        p.metric = compute::Metric::Cdtw;
        p.band = 20;
        p.znorm = true;
        const double want = compute::Engine::align(x, y, p, false).distance;
        auto r = runCli({"align", "--metric", "cdtw", "--band", "20", "--znorm", edf, edf, "--channel", "FP1-F7",
                         "--window", "3:1.5", "--reference-channel", "#2", "--reference-window", "10:2"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("distance "));
        QCOMPARE(parseCsv(r.out.mid(9)), (std::vector<std::vector<double>>{{want}}));
        // Without the reference options both series are the query's cut: distance 0.
        r = runCli({"align", "--metric", "cdtw", "--band", "20", edf, edf, "--channel", "FP1-F7", "--window", "3:1.5"});
        QCOMPARE(r.out, QByteArray("distance 0\n"));
        // A reference window past the end is refused with the file named, not cut short.
        r = runCli({"align", "--metric", "dtw", edf, edf, "--channel", "FP1-F7", "--window", "3:1.5",
                    "--reference-window", "100000:2"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("chb01_03_sample.edf"), r.err.constData());
    }

    // --window cuts the query from a CHB-MIT channel; the reference is the whole channel.
    // --include-self keeps the query's own place (excluded by default: test_cli_search_modes).
    void searchEdfWindow() {
        const QString edf = cli_test::dataPath("chbmit/chb01_03_Seizure.edf");
        auto r = runCli({"search", "--query", edf, "--reference", edf, "--channel", "FP1-F7", "--window", "10:1",
                         "--include-self"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // 10 s at 256 Hz: samples 2560 .. 2815.
        QCOMPARE(parseCsv(r.out), (std::vector<std::vector<double>>{{1, 0, 2560, 2815}}));
    }

    // A window cut from the real Bonn seizure recording S001 is found at its own place, cost 0.
    void searchWindowOfBonn() {
        const QString bonn = cli_test::dataPath("bonn/S/S001.txt");
        const auto rec = readColumn(bonn);
        QCOMPARE(rec.size(), std::size_t(4097));
        const QString q = path("bonn_q.txt");
        QVERIFY(cli_test::writeText(q, oneLine({rec.begin() + 1000, rec.begin() + 1128})));
        auto r = runCli({"search", "--query", q, "--reference", bonn});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("rank,cost,start,end\n"));
        QCOMPARE(parseCsv(r.out), (std::vector<std::vector<double>>{{1, 0, 1000, 1127}}));
    }

    // An ECG200 beat (scaled to EEG amplitude) planted into Bonn's S002 at sample 2500: the top
    // match is the plant, the other matches keep out of its exclusion zone (METRICS.md sdtw).
    void searchPlanted() {
        io::SeriesFileOptions lo;
        lo.labelColumn = true;
        auto ecg = io::readSeriesFile(cli_test::dataPath("ucr/ECG200/ECG200_TEST.txt").toStdString(), lo);
        std::vector<double> beat;
        for (float v : ecg[3].values) beat.push_back(std::round(double(v) * 400.0));  // integers, as Bonn's
        auto rec = readColumn(cli_test::dataPath("bonn/S/S002.txt"));
        const std::size_t at = 2500;
        std::copy(beat.begin(), beat.end(), rec.begin() + at);
        QByteArray column;
        for (double v : rec) column += QByteArray::number(v, 'g', 9) + "\r\n";
        const QString ref = path("planted.txt"), q = path("beat.txt");
        QVERIFY(cli_test::writeText(ref, column));
        QVERIFY(cli_test::writeText(q, oneLine(beat)));

        auto r = runCli({"search", "--query", q, "--reference", ref, "--top", "3"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto rows = parseCsv(r.out);
        QCOMPARE(rows.size(), std::size_t(3));
        QCOMPARE(rows[0], (std::vector<double>{1, 0, double(at), double(at + beat.size() - 1)}));
        const double half = std::floor(beat.size() / 2.0);
        for (std::size_t k = 1; k < 3; ++k) {
            QCOMPARE(rows[k][0], double(k + 1));
            QVERIFY(rows[k][1] >= rows[k - 1][1]);
            QVERIFY(std::abs(rows[k][3] - rows[0][3]) > half);
            QVERIFY(rows[k][2] <= rows[k][3]);
        }

        // z-normalised search still finds the plant (the reference is normalised once, whole).
        r = runCli({"search", "--query", q, "--reference", ref, "--znorm"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        rows = parseCsv(r.out);
        QCOMPARE(rows.size(), std::size_t(1));
        QVERIFY(std::abs(rows[0][2] - double(at)) <= 5);
        QVERIFY(std::abs(rows[0][3] - double(at + beat.size() - 1)) <= 5);
    }
};

QTEST_GUILESS_MAIN(TestCliAlignSearch)
#include "test_cli_align_search.moc"
