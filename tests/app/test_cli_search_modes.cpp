// `warplab-cli search` options: --mode window (pruned == cpu.reference), the
// self-exclusion of a query cut from the searched channel (both modes, --include-self), and
// the errors of the new options (exit 2 naming the option).
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <random>

#include "cli_process.h"

using cli_test::parseCsv;
using cli_test::runCli;

class TestCliSearchModes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }
    const QString edf_ = cli_test::dataPath("chbmit/chb01_03_Seizure.edf");

    static QByteArray column(const std::vector<double>& v) {
        QByteArray t;
        for (double x : v) t += QByteArray::number(x, 'g', 9) + '\n';
        return t;
    }

private slots:
    // Subsequence mode: the query 10..11 s of FP1-F7 (samples 2560..2815) no longer finds itself.
    void subsequenceSelfExcluded() {
        auto r = runCli({"search", "--query", edf_, "--reference", edf_, "--channel", "FP1-F7", "--window", "10:1",
                         "--top", "3"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("# self-exclusion: the query is samples 2560..2815"), r.err.constData());
        QVERIFY(r.err.contains("end in 2687..2943"));
        const auto rows = parseCsv(r.out);
        QCOMPARE(rows.size(), std::size_t(3));
        for (const auto& row : rows) {
            QVERIFY(row[3] < 2687 || row[3] > 2943);
            QVERIFY(row[1] > 0);
        }
        // --include-self: rank 1 is the query itself, cost 0, and no note.
        r = runCli({"search", "--query", edf_, "--reference", edf_, "--channel", "FP1-F7", "--window", "10:1",
                    "--include-self"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!r.err.contains("self-exclusion"));
        QCOMPARE(parseCsv(r.out), (std::vector<std::vector<double>>{{1, 0, 2560, 2815}}));
        // Another channel of the same file: nothing excluded.
        r = runCli({"search", "--query", edf_, "--reference", edf_, "--channel", "FP1-F7", "--window", "10:1",
                    "--reference-channel", "F7-T7"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!r.err.contains("self-exclusion"));
    }

    // Window mode: excluded by start; with --include-self the query is found at 2560, cost 0;
    // a reference window shifts the indices.
    void windowSelfExcluded() {
        auto r = runCli({"search", "--query", edf_, "--reference", edf_, "--channel", "FP1-F7", "--window", "10:1",
                         "--mode", "window", "--top", "5"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("start in 2432..2688"), r.err.constData());
        const auto rows = parseCsv(r.out);
        QCOMPARE(rows.size(), std::size_t(5));
        for (const auto& row : rows) {
            QVERIFY(row[2] < 2432 || row[2] > 2688);
            QCOMPARE(row[3], row[2] + 255);
        }
        r = runCli({"search", "--query", edf_, "--reference", edf_, "--channel", "FP1-F7", "--window", "10:1",
                    "--mode", "window", "--include-self"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(parseCsv(r.out), (std::vector<std::vector<double>>{{1, 0, 2560, 2815}}));
        // Reference window 5..35 s: the query sits at 2560 - 1280 = 1280 there.
        r = runCli({"search", "--query", edf_, "--reference", edf_, "--channel", "FP1-F7", "--window", "10:1",
                    "--reference-window", "5:30", "--mode", "window"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("samples 1280..1535") && r.err.contains("start in 1152..1408"), r.err.constData());
    }

    // The pruned default and cpu.reference print the same bytes (costs round-trip exactly).
    void windowPrunedEqualsReference() {
        std::mt19937 rng(17);
        std::normal_distribution<double> step(0, 1);
        std::vector<double> ref(30000), q(96);
        double x = 0;
        for (double& v : ref) v = (x += step(rng));
        x = 0;
        for (double& v : q) v = (x += step(rng));
        QVERIFY(cli_test::writeText(path("ref.txt"), column(ref)));
        QVERIFY(cli_test::writeText(path("q.txt"), column(q)));
        for (const char* band : {"0", "0.05", "1"}) {
            const QStringList base = {"search", "--query", path("q.txt"), "--reference", path("ref.txt"), "--mode",
                                      "window", "--band-fraction", band, "--top", "7"};
            auto fast = runCli(base + QStringList{"--stats"});
            auto slow = runCli(base + QStringList{"--kernel", "cpu.reference"});
            QVERIFY2(fast.exitCode == 0 && slow.exitCode == 0, (fast.err + slow.err).constData());
            QCOMPARE(fast.out, slow.out);
            QCOMPARE(parseCsv(fast.out).size(), std::size_t(7));
            QVERIFY(fast.err.contains("# pruned by LB_Kim"));
        }
        // --stats in subsequence mode: how long the search took, the same matches.
        {
            const QStringList sub = {"search", "--query", path("q.txt"), "--reference", path("ref.txt"), "--top", "3"};
            auto timed = runCli(sub + QStringList{"--stats"});
            auto plainSub = runCli(sub);
            QVERIFY2(timed.exitCode == 0 && plainSub.exitCode == 0, (timed.err + plainSub.err).constData());
            QCOMPARE(timed.out, plainSub.out);
            QVERIFY2(timed.err.contains("# search ") && !plainSub.err.contains("# search "), timed.err.constData());
        }
        // --sqrt reports the root of the same cost.
        auto plain = runCli({"search", "--query", path("q.txt"), "--reference", path("ref.txt"), "--mode", "window"});
        auto root = runCli({"search", "--query", path("q.txt"), "--reference", path("ref.txt"), "--mode", "window",
                            "--sqrt"});
        const auto a = parseCsv(plain.out), b = parseCsv(root.out);
        QCOMPARE(a.size(), std::size_t(1));
        QCOMPARE(b[0][2], a[0][2]);
        QVERIFY(std::fabs(b[0][1] - std::sqrt(a[0][1])) <= 1e-15 * b[0][1]);
    }

    // --precision half2: on a machine without a GPU a Device error (exit 1) that names the
    // option and the reason, and no CSV; with a GPU the list is fp32-rescored, so its best cost
    // is never below the fp32 search's best (half2 may miss an end, not invent a lower cost).
    void half2Precision() {
        const QStringList base = {"search", "--query", edf_, "--window", "10:1", "--channel", "FP1-F7", "--reference",
                                  edf_, "--reference-channel", "F7-T7", "--znorm", "--top", "5"};
        const auto fp32 = runCli(base);
        QVERIFY2(fp32.exitCode == 0, fp32.err.constData());
        const auto half = runCli(base + QStringList{"--precision", "half2"});
        QVERIFY(!half.crashed);
        if (half.exitCode == 1) {
            QVERIFY2(half.err.contains("precision") && half.err.contains("half2 needs a CUDA or HIP device"),
                     half.err.constData());
            QVERIFY(half.out.isEmpty());
            return;
        }
        QVERIFY2(half.exitCode == 0, half.err.constData());
        const auto a = parseCsv(fp32.out), b = parseCsv(half.out);
        QCOMPARE(b.size(), std::size_t(5));
        QVERIFY(b[0][1] >= a[0][1]);
        for (std::size_t k = 1; k < b.size(); ++k) QVERIFY(b[k][1] >= b[k - 1][1]);
    }

    void badOptions() {
        std::vector<double> ref(500), q(20);
        for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = std::sin(0.1 * double(i));
        for (std::size_t i = 0; i < q.size(); ++i) q[i] = std::cos(0.3 * double(i));
        QVERIFY(cli_test::writeText(path("r2.txt"), column(ref)));
        QVERIFY(cli_test::writeText(path("q2.txt"), column(q)));
        const QStringList base = {"search", "--query", path("q2.txt"), "--reference", path("r2.txt")};
        struct Bad { QStringList extra; const char* says; };
        const Bad bad[] = {{{"--mode", "window", "--cost", "abs"}, "cost"},
                           {{"--band", "3"}, "band"},
                           {{"--mode", "window", "--band-fraction", "1.5"}, "band-fraction"},
                           {{"--mode", "window", "--band", "-1"}, "band"},
                           {{"--mode", "window", "--band", "2", "--band-fraction", "0.1"}, "band-fraction"},
                           {{"--mode", "window", "--precision", "half2"}, "precision"},
                           {{"--mode", "sideways"}, "mode"}};
        // A reference shorter than the query has no window: an empty list, and stderr says why.
        {
            QVERIFY(cli_test::writeText(path("tiny.txt"), column(std::vector<double>(ref.begin(), ref.begin() + 10))));
            auto r = runCli({"search", "--query", path("q2.txt"), "--reference", path("tiny.txt"), "--mode", "window"});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(r.err.contains("shorter than the query") && r.err.contains("tiny.txt"), r.err.constData());
            QCOMPARE(parseCsv(r.out).size(), std::size_t(0));
        }
        for (const Bad& b : bad) {
            auto r = runCli(base + b.extra);
            QVERIFY2(r.exitCode == 2, qPrintable(b.extra.join(' ') + ": exit " + QString::number(r.exitCode) + " " + r.err));
            QVERIFY2(r.err.contains(b.says), r.err.constData());
            QVERIFY(!r.crashed);
        }
    }
};

QTEST_GUILESS_MAIN(TestCliSearchModes)
#include "test_cli_search_modes.moc"
