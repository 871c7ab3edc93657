// `warplab-cli dm` against the scalar reference (compute::Engine::distance, computed here) for
// every metric on real UCR data, plus file round trips, ragged sets, --label-column,
// --multivariate and --rate.
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>

#include "cli_process.h"
#include "compute/engine/engine.h"
#include "io/matrix_io.h"
#include "io/series_file.h"

using namespace warplab;
using cli_test::parseCsv;

// Runs warplab-cli on the CPU backend unless the arguments choose a backend or kernel, so that
// the default-kernel tolerances hold on a machine with a GPU as well (GPU kernels are held to
// the reference by the GPU suite).
static cli_test::CliRun runCpu(QStringList args) {
    if (!args.contains("--backend") && !args.contains("--kernel")) args << "--backend" << "cpu";
    return cli_test::runCli(args);
}

namespace {

using Matrix = std::vector<std::vector<double>>;

Matrix expectedMatrix(const compute::SeriesSet& rows, const compute::SeriesSet& cols, const compute::Params& p) {
    Matrix m(rows.size(), std::vector<double>(cols.size()));
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = 0; j < cols.size(); ++j) m[i][j] = compute::Engine::distance(rows[i], cols[j], p);
    return m;
}

// The default CPU kernel (cpu.simd) accumulates in fp32: each of the n + m + 4 steps along a
// path may round by 2^-24 (the bound the compute tests use; ECG200 series have 96 samples).
// The scalar reference (--kernel cpu.reference) is held to bit-identical values.
const double kFp32Tol = double(96 + 96 + 4) * 0x1p-24;

// relTol 0 demands bit-identical values.
void compareMatrix(const Matrix& got, const Matrix& want, double relTol) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        QCOMPARE(got[i].size(), want[i].size());
        for (std::size_t j = 0; j < want[i].size(); ++j) {
            const double g = got[i][j], w = want[i][j];
            const bool ok = relTol == 0 ? g == w : std::abs(g - w) <= relTol * std::max(1.0, std::abs(w));
            if (!ok)
                QFAIL(qPrintable(QStringLiteral("cell (%1,%2): got %3, scalar reference %4")
                                     .arg(i).arg(j).arg(g, 0, 'g', 17).arg(w, 0, 'g', 17)));
        }
    }
}

Matrix fromDistanceMatrix(const compute::DistanceMatrix& d) {
    Matrix m(d.rows, std::vector<double>(d.cols));
    for (std::size_t i = 0; i < d.rows; ++i)
        for (std::size_t j = 0; j < d.cols; ++j) m[i][j] = d.at(i, j);
    return m;
}

struct MetricCase {
    QStringList args;
    compute::Params params;
};

// Every metric with non-default options, so that each option is seen to reach the engine.
std::vector<std::pair<QString, MetricCase>> metricCases() {
    using compute::Metric;
    std::vector<std::pair<QString, MetricCase>> cases;
    auto add = [&](const QString& name, QStringList args, std::function<void(compute::Params&)> set) {
        compute::Params p;
        set(p);
        cases.push_back({name, {args, p}});
    };
    add("euclidean", {"--metric", "euclidean"}, [](auto& p) { p.metric = Metric::Euclidean; });
    add("euclidean abs sqrt", {"--metric", "euclidean", "--cost", "abs", "--sqrt"}, [](auto& p) {
        p.metric = Metric::Euclidean; p.cost = compute::Cost::Absolute; p.sqrt = true; });
    add("dtw", {"--metric", "dtw"}, [](auto& p) { p.metric = Metric::Dtw; });
    add("dtw znorm sqrt", {"--metric", "dtw", "--znorm", "--sqrt"}, [](auto& p) {
        p.metric = Metric::Dtw; p.znorm = true; p.sqrt = true; });
    add("dtw abs", {"--metric", "dtw", "--cost", "abs"}, [](auto& p) { p.metric = Metric::Dtw; p.cost = compute::Cost::Absolute; });
    add("cdtw band 5", {"--metric", "cdtw", "--band", "5"}, [](auto& p) { p.metric = Metric::Cdtw; p.band = 5; });
    add("cdtw band 0", {"--metric", "cdtw", "--band", "0"}, [](auto& p) { p.metric = Metric::Cdtw; p.band = 0; });
    add("sdtw", {"--metric", "sdtw"}, [](auto& p) { p.metric = Metric::Sdtw; });
    add("softdtw gamma 0.5", {"--metric", "softdtw", "--gamma", "0.5"}, [](auto& p) { p.metric = Metric::SoftDtw; p.gamma = 0.5; });
    add("softdtw gamma 0.01 znorm", {"--metric", "softdtw", "--gamma", "0.01", "--znorm"}, [](auto& p) {
        p.metric = Metric::SoftDtw; p.gamma = 0.01; p.znorm = true; });
    add("twed", {"--metric", "twed"}, [](auto& p) { p.metric = Metric::Twed; });
    add("twed nu lambda", {"--metric", "twed", "--nu", "0.5", "--lambda", "0.25"}, [](auto& p) {
        p.metric = Metric::Twed; p.nu = 0.5; p.lambda = 0.25; });
    return cases;
}

}  // namespace

class TestCliDm : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString train_, test_;           // first rows of ECG200 TRAIN and TEST, with their labels
    compute::SeriesSet q_, t_;       // the same rows, read by io (labels dropped)

    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        train_ = path("train20.txt");
        test_ = path("test10.txt");
        QVERIFY(cli_test::writeText(train_, cli_test::firstLines(cli_test::dataPath("ucr/ECG200/ECG200_TRAIN.txt"), 20)));
        QVERIFY(cli_test::writeText(test_, cli_test::firstLines(cli_test::dataPath("ucr/ECG200/ECG200_TEST.txt"), 10)));
        io::SeriesFileOptions o;
        o.labelColumn = true;
        q_ = io::readSeriesFile(train_.toStdString(), o);
        t_ = io::readSeriesFile(test_.toStdString(), o);
        QCOMPARE(q_.size(), std::size_t(20));
        QCOMPARE(t_.size(), std::size_t(10));
        QCOMPARE(q_[0].length, std::size_t(96));
    }

    // queries x targets on stdout, for every metric, by the default kernel and by cpu.reference.
    void everyMetric_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<int>("caseIndex");
        const auto cases = metricCases();
        for (int i = 0; i < int(cases.size()); ++i) {
            QTest::newRow(qPrintable(cases[i].first + " default")) << cases[i].second.args << QString() << i;
            QTest::newRow(qPrintable(cases[i].first + " cpu.reference")) << cases[i].second.args << QString("cpu.reference") << i;
        }
    }
    void everyMetric() {
        QFETCH(QStringList, args);
        QFETCH(QString, kernel);
        QFETCH(int, caseIndex);
        const compute::Params p = metricCases()[caseIndex].second.params;
        QStringList all = QStringList{"dm"} + args + QStringList{"--label-column", "--queries", train_, "--targets", test_};
        if (!kernel.isEmpty()) all << "--kernel" << kernel;
        auto r = runCpu(all);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.isEmpty());
        // The reference kernel is the scalar reference itself; fast kernels may reorder sums.
        compareMatrix(parseCsv(r.out), expectedMatrix(q_, t_, p), kernel.isEmpty() ? kFp32Tol : 0.0);
    }

    // All pairs of one set: each cell the reference's, mirrored bit-exact across the diagonal.
    void allPairs_data() {
        QTest::addColumn<int>("caseIndex");
        const auto cases = metricCases();
        for (int i = 0; i < int(cases.size()); ++i) QTest::newRow(qPrintable(cases[i].first)) << i;
    }
    void allPairs() {
        QFETCH(int, caseIndex);
        const auto c = metricCases()[caseIndex].second;
        auto r = runCpu(QStringList{"dm"} + c.args + QStringList{"--label-column", "--queries", train_});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        Matrix got = parseCsv(r.out);
        compareMatrix(got, expectedMatrix(q_, q_, c.params), kFp32Tol);
        // Every metric but sdtw (a query inside a reference) is symmetric.
        if (c.params.metric != compute::Metric::Sdtw)
            for (std::size_t i = 0; i < got.size(); ++i)
                for (std::size_t j = 0; j < i; ++j) QVERIFY(got[i][j] == got[j][i]);
    }

    // --out FILE in each format reads back bit-exact to what stdout printed; a tiny memory
    // budget forces the streamed path for .npy and .h5.
    void roundTrip_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("allPairs");
        QTest::addColumn<bool>("stream");
        for (QString ext : {"csv", "npy", "h5"})
            for (bool allPairs : {false, true}) {
                QTest::newRow(qPrintable(ext + (allPairs ? " all-pairs" : " q x t"))) << "m." + ext << allPairs << false;
                if (ext != "csv")
                    QTest::newRow(qPrintable(ext + (allPairs ? " all-pairs streamed" : " q x t streamed")))
                        << "s." + ext << allPairs << true;
            }
    }
    void roundTrip() {
        QFETCH(QString, file);
        QFETCH(bool, allPairs);
        QFETCH(bool, stream);
        QStringList base{"dm", "--metric", "cdtw", "--band", "3", "--sqrt", "--label-column", "--queries", train_};
        if (!allPairs) base << "--targets" << test_;
        auto printed = runCpu(base);
        QVERIFY2(printed.exitCode == 0, printed.err.constData());
        const QString out = path(file);
        QStringList args = base + QStringList{"--out", out};
        if (stream) args << "--max-memory" << "1e-9";
        auto written = runCpu(args);
        QVERIFY2(written.exitCode == 0, written.err.constData());
        QVERIFY(written.out.isEmpty());  // the matrix went to the file, not to stdout
        compute::DistanceMatrix back = io::readMatrix(out.toStdString());
        QCOMPARE(back.rows, std::size_t(20));
        QCOMPARE(back.cols, std::size_t(allPairs ? 20 : 10));
        compareMatrix(fromDistanceMatrix(back), parseCsv(printed.out), 0.0);
        compute::Params p;
        p.metric = compute::Metric::Cdtw;
        p.band = 3;
        p.sqrt = true;
        compareMatrix(fromDistanceMatrix(back), expectedMatrix(q_, allPairs ? q_ : t_, p), kFp32Tol);
    }

    // --timestamps rate on an EDF channel takes the rate from the header (CHB-MIT: 256 Hz).
    void twedTimestampsFromEdf() {
        const QString s = cli_test::dataPath("chbmit/chb01_03_Seizure.edf");
        const QString n = cli_test::dataPath("chbmit/chb01_03_NonSeizure.edf");
        const QStringList base{"dm", "--metric", "twed", "--nu", "1", "--queries", s, "--targets", n,
                               "--channel", "FP1-F7", "--window", "2:0.5"};
        auto fromHeader = runCpu(base + QStringList{"--timestamps", "rate"});
        QVERIFY2(fromHeader.exitCode == 0, fromHeader.err.constData());
        io::SeriesFileOptions o;
        o.channel = "FP1-F7";
        o.windowStartS = 2;
        o.windowLengthS = 0.5;
        auto a = io::readSeriesFile(s.toStdString(), o), b = io::readSeriesFile(n.toStdString(), o);
        QCOMPARE(a[0].length, std::size_t(128));
        compute::Params p;
        p.metric = compute::Metric::Twed;
        p.nu = 1;
        p.rate = 256;
        compareMatrix(parseCsv(fromHeader.out), Matrix{{compute::Engine::distance(a[0], b[0], p)}}, double(128 + 128 + 4) * 0x1p-24);
    }

    // Series from .npy (a 2-D array, one series per row) give the same matrix as from text.
    void npyInput() {
        auto writeNpy = [&](const compute::SeriesSet& set, const QString& file) {
            compute::DistanceMatrix asArray;  // a rows x samples array of float64
            asArray.rows = set.size();
            asArray.cols = set[0].length;
            for (const auto& s : set) asArray.values.insert(asArray.values.end(), s.values.begin(), s.values.end());
            io::writeMatrix(file.toStdString(), asArray);
        };
        const QString qn = path("train20.npy"), tn = path("test10.npy");
        writeNpy(q_, qn);
        writeNpy(t_, tn);
        auto fromText = runCpu({"dm", "--metric", "dtw", "--label-column", "--queries", train_, "--targets", test_});
        auto fromNpy = runCpu({"dm", "--metric", "dtw", "--queries", qn, "--targets", tn});
        QVERIFY2(fromNpy.exitCode == 0, fromNpy.err.constData());
        QCOMPARE(fromNpy.out, fromText.out);
    }

    // One thread or all cores, the default CPU kernel or cpu.simd named: the same bits.
    void threadsAndBackend() {
        const QStringList base{"dm", "--metric", "cdtw", "--band", "7", "--label-column", "--queries", train_};
        auto all = runCpu(base);
        auto one = runCpu(base + QStringList{"--threads", "1"});
        auto cpu = runCpu(base + QStringList{"--kernel", "cpu.simd"});
        QVERIFY2(all.exitCode == 0 && one.exitCode == 0 && cpu.exitCode == 0, one.err.constData());
        QCOMPARE(one.out, all.out);
        QCOMPARE(cpu.out, all.out);
        // Progress goes to stderr only, so stdout is unchanged by --progress.
        auto progress = runCpu(base + QStringList{"--progress"});
        QCOMPARE(progress.out, all.out);
        QVERIFY(progress.err.contains("100.0%"));
    }

    // Variable-length series (as UCR's ragged sets): lines of 5, 3 and 7 samples.
    void ragged() {
        const QString f = path("ragged.txt");
        QVERIFY(cli_test::writeText(f, "1 2 3 4 5\n0.5 -1 2\n3 3 2.25 1 0 -1 -2.5\n"));
        compute::SeriesSet s{cli_test::series({1, 2, 3, 4, 5}), cli_test::series({0.5f, -1, 2}),
                             cli_test::series({3, 3, 2.25f, 1, 0, -1, -2.5f})};
        for (QString metric : {"dtw", "cdtw", "softdtw", "twed", "sdtw"}) {
            compute::Params p;
            p.metric = *compute::parseMetric(metric.toStdString());
            p.band = 1;
            auto r = runCpu({"dm", "--metric", metric, "--band", "1", "--queries", f});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            compareMatrix(parseCsv(r.out), expectedMatrix(s, s, p), kFp32Tol);
        }
        // DTW of [1 2 3 4 5] and [0.5 -1 2] by hand (squared cost), D(i,j) = c + min(up, left, diag):
        //   x0=1: 0.25             0.25+4=4.25              4.25+1=5.25
        //   x1=2: 2.25+0.25=2.5    9+min(4.25,2.5,.25)=9.25 0+min(5.25,9.25,4.25)=4.25
        //   x2=3: 6.25+2.5=8.75    16+2.5=18.5              1+min(4.25,18.5,9.25)=5.25
        //   x3=4: 12.25+8.75=21    25+8.75=33.75            4+min(5.25,33.75,18.5)=9.25
        //   x4=5: 20.25+21=41.25   36+21=57                 9+min(9.25,57,33.75)=18.25
        auto r = runCpu({"dm", "--metric", "dtw", "--queries", f});
        QCOMPARE(parseCsv(r.out)[0][1], 18.25);
    }

    // --label-column drops the class label; without it the label is the first sample.
    void labelColumn() {
        const QString f = path("labelled.csv");
        QVERIFY(cli_test::writeText(f, "2,1,2,3\n1,0.5,0.25,4\n"));
        compute::SeriesSet without{cli_test::series({1, 2, 3}), cli_test::series({0.5f, 0.25f, 4})};
        compute::SeriesSet with{cli_test::series({2, 1, 2, 3}), cli_test::series({1, 0.5f, 0.25f, 4})};
        compute::Params p;
        p.metric = compute::Metric::Euclidean;
        auto r = runCpu({"dm", "--metric", "euclidean", "--label-column", "--queries", f});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        compareMatrix(parseCsv(r.out), expectedMatrix(without, without, p), 0.0);
        // By hand: (1-0.5)^2 + (2-0.25)^2 + (3-4)^2 = 0.25 + 3.0625 + 1 = 4.3125
        QCOMPARE(parseCsv(r.out)[0][1], 4.3125);
        r = runCpu({"dm", "--metric", "euclidean", "--queries", f});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        compareMatrix(parseCsv(r.out), expectedMatrix(with, with, p), 0.0);
    }

    // A multivariate file is one series, one channel per line.
    void multivariate() {
        const QString a = path("mv_a.txt"), b = path("mv_b.txt");
        QVERIFY(cli_test::writeText(a, "1 2 3 4\n0 0.5 1 1.5\n-1 -1 -2 -2\n"));
        QVERIFY(cli_test::writeText(b, "1 3 4\n0.25 1 2\n-1 -2 0\n"));
        // Sample-major: values[i*dims + c].
        compute::Series sa(std::vector<float>{1, 0, -1, 2, 0.5f, -1, 3, 1, -2, 4, 1.5f, -2}, 3);
        compute::Series sb(std::vector<float>{1, 0.25f, -1, 3, 1, -2, 4, 2, 0}, 3);
        for (QString metric : {"dtw", "cdtw", "softdtw", "twed"}) {
            compute::Params p;
            p.metric = *compute::parseMetric(metric.toStdString());
            auto r = runCpu({"dm", "--metric", metric, "--multivariate", "--queries", a, "--targets", b});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            compareMatrix(parseCsv(r.out), Matrix{{compute::Engine::distance(sa, sb, p)}}, kFp32Tol);
        }
        // DTW by hand, squared Euclidean over the 3 channels. Local costs c(i,j):
        //   x0: 0.0625 6 14 | x1: 1.0625 2.25 7.25 | x2: 5.5625 0 6 | x3: 11.5625 1.25 4.25
        // Accumulated D: row0 0.0625 6.0625 20.0625 | row1 1.125 2.3125 9.5625
        //   row2 6.6875 1.125 7.125 | row3 18.25 2.375 4.25+min(7.125,2.375,1.125)=5.375
        auto r = runCpu({"dm", "--metric", "dtw", "--multivariate", "--queries", a, "--targets", b});
        QCOMPARE(parseCsv(r.out)[0][0], 5.375);
    }

    // --rate gives TWED timestamps in seconds (t_i = i / rate): with nu > 0 the result changes.
    void twedRate() {
        compute::Params p;
        p.metric = compute::Metric::Twed;
        p.nu = 1.0;
        p.rate = 100.0;
        auto r = runCpu({"dm", "--metric", "twed", "--nu", "1", "--rate", "100", "--label-column", "--queries",
                         train_, "--targets", test_});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        Matrix withRate = parseCsv(r.out);
        compareMatrix(withRate, expectedMatrix(q_, t_, p), kFp32Tol);
        // --timestamps index ignores --rate.
        auto idx = runCpu({"dm", "--metric", "twed", "--nu", "1", "--rate", "100", "--timestamps", "index",
                           "--label-column", "--queries", train_, "--targets", test_});
        QVERIFY2(idx.exitCode == 0, idx.err.constData());
        p.rate = 0;
        compareMatrix(parseCsv(idx.out), expectedMatrix(q_, t_, p), kFp32Tol);
        p.rate = 0;
        Matrix indexTime = expectedMatrix(q_, t_, p);
        bool differs = false;
        for (std::size_t i = 0; i < indexTime.size(); ++i)
            for (std::size_t j = 0; j < indexTime[i].size(); ++j) differs = differs || indexTime[i][j] != withRate[i][j];
        QVERIFY(differs);
    }
};

QTEST_GUILESS_MAIN(TestCliDm)
#include "test_cli_dm.moc"
