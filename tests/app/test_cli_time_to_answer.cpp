// What a user waits for, from the command line: `dm --dtype float32` writes .npy/.h5 whose
// values are the float64 file's values rounded to float32 (in memory and streamed tile by
// tile), refuses float32 for CSV by name; and the --timing split of dm, search and patterns
// (time_split.h) is printed with phases that add up to the last byte's time.
#include "io/matrix_io.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

#include "cli_process.h"

using cli_test::runCli;
using namespace warplab;

namespace {

const QString kSample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");

bool roundedEqual(const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size() || got.empty()) return false;
    for (std::size_t k = 0; k < got.size(); ++k) {
        const double r = double(float(want[k]));
        if (std::memcmp(&got[k], &r, sizeof r) != 0) return false;
    }
    return true;
}

// The split line of `command` in stderr: the last byte's time and the five phases; checks
// that they are numbers >= 0 that add up (to the printed millisecond).
void checkSplit(const QByteArray& err, const QString& command) {
    const QRegularExpression re(QStringLiteral(
        "split: %1[^\\n]*?: last byte ([0-9.]+) s after the process started = launch ([0-9.]+) \\+ start-up ([0-9.]+) "
        "\\+ input ([0-9.]+) \\+ compute ([0-9.]+) \\+ output ([0-9.]+) s").arg(QRegularExpression::escape(command)));
    const auto m = re.match(QString::fromUtf8(err));
    QVERIFY2(m.hasMatch(), err.constData());
    double sum = 0;
    for (int k = 2; k <= 6; ++k) sum += m.captured(k).toDouble();
    const double last = m.captured(1).toDouble();
    QVERIFY2(std::abs(last - sum) <= 0.004, err.constData());
    QVERIFY(last > 0 && last < 120);
}

}  // namespace

class TestCliTimeToAnswer : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path(const QString& name) { return dir_.filePath(name); }

private slots:
    void dmFloat32IsFloat64Rounded_data() {
        QTest::addColumn<QString>("ext");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("npy in memory") << ".npy" << QStringList{};
        QTest::newRow("h5 in memory") << ".h5" << QStringList{};
        // A budget below the matrix's bytes: streamed tile by tile (MatrixStreamWriter).
        QTest::newRow("npy streamed") << ".npy" << QStringList{"--max-memory", "0.00001"};
        QTest::newRow("h5 streamed") << ".h5" << QStringList{"--max-memory", "0.00001"};
    }
    void dmFloat32IsFloat64Rounded() {
        QFETCH(QString, ext);
        QFETCH(QStringList, extra);
        const QStringList args{"dm", "--metric", "cdtw", "--band", "6", "--label-column", "--queries",
                               cli_test::dataPath("ucr/ECG200/ECG200_TRAIN.txt"), "--targets",
                               cli_test::dataPath("ucr/ECG200/ECG200_TEST.txt")};
        const QString f64 = path("m64" + ext), f32 = path("m32" + ext);
        auto a = runCli(args + extra + QStringList{"--out", f64});
        QVERIFY2(a.exitCode == 0, a.err.constData());
        auto b = runCli(args + extra + QStringList{"--out", f32, "--dtype", "float32", "--timing"});
        QVERIFY2(b.exitCode == 0, b.err.constData());
        checkSplit(b.err, "dm");
        const auto m64 = io::readMatrix(f64.toStdString()), m32 = io::readMatrix(f32.toStdString());
        QCOMPARE(m32.rows, std::size_t(100));
        QCOMPARE(m32.cols, std::size_t(100));
        QVERIFY(roundedEqual(m32.values, m64.values));
        QVERIFY(QFileInfo(f32).size() < QFileInfo(f64).size() * 6 / 10);
    }

    void dmFloat32RefusedForCsv() {
        const QStringList args{"dm", "--metric", "dtw", "--label-column", "--queries",
                               cli_test::dataPath("ucr/ECG200/ECG200_TEST.txt"), "--dtype", "float32"};
        auto toFile = runCli(args + QStringList{"--out", path("m.csv")});
        QCOMPARE(toFile.exitCode, 2);
        QVERIFY2(toFile.err.contains("dtype"), toFile.err.constData());
        QVERIFY(!QFileInfo::exists(path("m.csv")));
        auto toStdout = runCli(args);
        QCOMPARE(toStdout.exitCode, 2);
        QVERIFY(toStdout.out.isEmpty());
        auto badName = runCli({"dm", "--metric", "dtw", "--label-column", "--queries",
                               cli_test::dataPath("ucr/ECG200/ECG200_TEST.txt"), "--out", path("x.npy"), "--dtype", "half"});
        QCOMPARE(badName.exitCode, 2);
    }

    void searchAndPatternsPrintTheirSplit() {
        auto s = runCli({"search", "--query", kSample, "--reference", kSample, "--channel", "FP1-F7", "--window", "10:1",
                         "--backend", "cpu", "--timing"});
        QVERIFY2(s.exitCode == 0, s.err.constData());
        checkSplit(s.err, "search");
        auto p = runCli({"patterns", "--recording", kSample, "--annotation", "seizure", "--epoch", "256", "--stride",
                         "128", "--backend", "cpu", "--timing", "--top", "3"});
        QVERIFY2(p.exitCode == 0, p.err.constData());
        checkSplit(p.err, "patterns");
        QVERIFY(p.err.contains("timing: channel"));  // the job's own line stays
    }
};

QTEST_GUILESS_MAIN(TestCliTimeToAnswer)
#include "test_cli_time_to_answer.moc"
