// Bad input: every case exits with code 2, prints a message naming the problem on stderr and
// nothing on stdout (docs/CLI.md, docs/ERRORS.md). Failures that are not the user's exit with 1.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "cli_process.h"

using cli_test::runCli;

class TestCliErrors : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString good_;
    QString path(const QString& n) const { return dir_.filePath(n); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        good_ = path("good.txt");
        QVERIFY(cli_test::writeText(good_, "1 2 3 4\n2 3 4 5\n"));
        QVERIFY(cli_test::writeText(path("nan.txt"), "1 2 3 4\n2 nan 4 5\n"));
        QVERIFY(cli_test::writeText(path("inf.txt"), "1 2 3 4\n2 inf 4 5\n"));
        QVERIFY(cli_test::writeText(path("ragged.txt"), "1 2 3 4\n2 3 4\n"));
        QVERIFY(cli_test::writeText(path("words.txt"), "1 2 3 4\n2 three 4 5\n"));
        QVERIFY(cli_test::writeText(path("empty.txt"), ""));
        QVERIFY(cli_test::writeText(path("a3.txt"), "1 2 3\n"));
        QVERIFY(cli_test::writeText(path("b5.txt"), "1 2 3 4 5\n"));
        QVERIFY(cli_test::writeText(path("mv3.txt"), "1 2 3\n4 5 6\n7 8 9\n"));
        QVERIFY(cli_test::writeText(path("mv2.txt"), "1 2 3\n4 5 6\n"));
        // A CHB-MIT EDF cut inside its data records: the header promises 41 records.
        QFile edf(cli_test::dataPath("chbmit/chb01_03_Seizure.edf"));
        QVERIFY(edf.open(QIODevice::ReadOnly));
        QVERIFY(cli_test::writeText(path("truncated.edf"), edf.read(6144 + 23 * 256 * 2 * 3 + 100)));
        // A file that claims to be an EDF but whose header is garbage.
        QVERIFY(cli_test::writeText(path("garbage.edf"), QByteArray(400, 'x')));
        // docs/ERRORS.md's classes: a header cut short, an empty file with a recording's name,
        // random bytes and a cut header as .npy, a folder where a file belongs.
        QVERIFY(edf.seek(0));
        QVERIFY(cli_test::writeText(path("short_header.edf"), edf.read(300)));
        QVERIFY(cli_test::writeText(path("zero.edf"), ""));
        QByteArray noise;
        quint32 x = 12345;
        for (int i = 0; i < 2000; ++i) noise += char((x = x * 1664525u + 1013904223u) >> 24);
        QVERIFY(cli_test::writeText(path("random.npy"), noise));
        QVERIFY(cli_test::writeText(path("cut.npy"), QByteArray("\x93NUMPY\x01\x00\x76\x00{", 11)));
        QVERIFY(QDir(dir_.path()).mkpath("folder"));
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("mentions");  // stderr must contain each (case-insensitive)
        const QString chb = cli_test::dataPath("chbmit/chb01_03_Seizure.edf");
        QTest::newRow("missing queries file") << QStringList{"dm", "--metric", "dtw", "--queries", path("nope.txt")}
                                              << QStringList{"nope.txt"};
        QTest::newRow("missing align file") << QStringList{"align", "--metric", "dtw", good_, path("nope.txt")}
                                            << QStringList{"nope.txt"};
        QTest::newRow("missing info file") << QStringList{"info", path("nope.edf"), "--json"} << QStringList{"nope.edf"};
        QTest::newRow("truncated EDF info") << QStringList{"info", path("truncated.edf"), "--json"}
                                            << QStringList{"truncated.edf"};
        QTest::newRow("garbage EDF info") << QStringList{"info", path("garbage.edf")} << QStringList{"garbage.edf"};
        QTest::newRow("truncated EDF dm") << QStringList{"dm", "--metric", "dtw", "--queries", path("truncated.edf"),
                                                         "--channel", "FP1-F7"}
                                          << QStringList{"truncated.edf"};
        QTest::newRow("word in series file") << QStringList{"dm", "--metric", "dtw", "--queries", path("words.txt")}
                                             << QStringList{"words.txt"};
        QTest::newRow("empty series file") << QStringList{"dm", "--metric", "dtw", "--queries", path("empty.txt")}
                                           << QStringList{"empty.txt"};
        QTest::newRow("unknown channel") << QStringList{"dm", "--metric", "dtw", "--queries", chb, "--channel", "NOPE-X1"}
                                         << QStringList{"NOPE-X1"};
        QTest::newRow("window outside the recording")
            << QStringList{"dm", "--metric", "dtw", "--queries", chb, "--channel", "FP1-F7", "--window", "40:10"}
            << QStringList{"window"};
        QTest::newRow("malformed window") << QStringList{"dm", "--metric", "dtw", "--queries", chb, "--channel",
                                                         "FP1-F7", "--window", "ten"}
                                          << QStringList{"window"};
        QTest::newRow("channel of a text file") << QStringList{"dm", "--metric", "dtw", "--queries", good_, "--channel", "Fz"}
                                                << QStringList{"good.txt", "channel"};
        QTest::newRow("window of a text file") << QStringList{"dm", "--metric", "dtw", "--queries", good_, "--window", "0:1"}
                                               << QStringList{"good.txt", "window"};
        QTest::newRow("gamma 0") << QStringList{"dm", "--metric", "softdtw", "--gamma", "0", "--queries", good_}
                                 << QStringList{"gamma"};
        QTest::newRow("gamma negative") << QStringList{"dm", "--metric", "softdtw", "--gamma=-1", "--queries", good_}
                                        << QStringList{"gamma"};
        QTest::newRow("negative band") << QStringList{"dm", "--metric", "cdtw", "--band", "-3", "--queries", good_}
                                       << QStringList{"band"};
        QTest::newRow("negative band align") << QStringList{"align", "--metric", "cdtw", "--band=-1", good_, good_}
                                             << QStringList{"band"};
        QTest::newRow("NaN in file") << QStringList{"dm", "--metric", "dtw", "--queries", path("nan.txt")}
                                     << QStringList{"nan.txt"};
        QTest::newRow("infinity in file") << QStringList{"dm", "--metric", "dtw", "--queries", path("inf.txt")}
                                          << QStringList{"inf.txt"};
        QTest::newRow("NaN in targets") << QStringList{"dm", "--metric", "dtw", "--queries", good_, "--targets",
                                                       path("nan.txt")}
                                        << QStringList{"nan.txt"};
        QTest::newRow("unequal lengths euclidean")
            << QStringList{"dm", "--metric", "euclidean", "--queries", path("ragged.txt")}
            << QStringList{"ragged.txt", "length"};
        QTest::newRow("unequal lengths euclidean align")
            << QStringList{"align", "--metric", "euclidean", path("a3.txt"), path("b5.txt")}
            << QStringList{"b5.txt", "length"};
        QTest::newRow("channels differ") << QStringList{"dm", "--metric", "dtw", "--multivariate", "--queries",
                                                       path("mv3.txt"), "--targets", path("mv2.txt")}
                                         << QStringList{"mv2.txt", "channels"};
        QTest::newRow("unknown metric") << QStringList{"dm", "--metric", "frechet", "--queries", good_}
                                        << QStringList{"frechet"};
        QTest::newRow("no metric") << QStringList{"dm", "--queries", good_} << QStringList{"metric"};
        QTest::newRow("unknown cost") << QStringList{"dm", "--metric", "dtw", "--cost", "cube", "--queries", good_}
                                      << QStringList{"cube"};
        QTest::newRow("unknown backend") << QStringList{"dm", "--metric", "dtw", "--backend", "tpu", "--queries", good_}
                                         << QStringList{"tpu"};
        QTest::newRow("unknown kernel") << QStringList{"dm", "--metric", "dtw", "--kernel", "cpu.magic", "--queries", good_}
                                        << QStringList{"cpu.magic"};
        QTest::newRow("negative threads") << QStringList{"dm", "--metric", "dtw", "--threads=-2", "--queries", good_}
                                          << QStringList{"threads"};
        QTest::newRow("unknown option") << QStringList{"dm", "--metric", "dtw", "--bandd", "3", "--queries", good_}
                                        << QStringList{"bandd"};
        QTest::newRow("unknown command") << QStringList{"distances"} << QStringList{"distances"};
        QTest::newRow("no command") << QStringList{} << QStringList{"subcommand"};
        QTest::newRow("unknown output format") << QStringList{"dm", "--metric", "dtw", "--queries", good_, "--out",
                                                              path("m.xlsx")}
                                               << QStringList{"m.xlsx"};
        QTest::newRow("search top 0") << QStringList{"search", "--query", good_, "--reference", good_, "--top", "0"}
                                      << QStringList{"top"};
        QTest::newRow("search reference of many series")
            << QStringList{"search", "--query", good_, "--reference", good_} << QStringList{"good.txt"};
        QTest::newRow("twed rate 0") << QStringList{"dm", "--metric", "twed", "--rate", "0", "--queries", good_}
                                     << QStringList{"rate"};
        // docs/ERRORS.md rows not covered above.
        QTest::newRow("header cut short info") << QStringList{"info", path("short_header.edf")}
                                               << QStringList{"short_header.edf", "header"};
        QTest::newRow("header cut short dm") << QStringList{"dm", "--metric", "dtw", "--queries", path("short_header.edf"),
                                                            "--channel", "FP1-F7"}
                                             << QStringList{"short_header.edf", "header"};
        QTest::newRow("empty EDF") << QStringList{"info", path("zero.edf")} << QStringList{"zero.edf", "version"};
        QTest::newRow("random bytes as npy") << QStringList{"dm", "--metric", "dtw", "--queries", path("random.npy")}
                                             << QStringList{"random.npy", "magic"};
        QTest::newRow("random bytes as npy info") << QStringList{"info", path("random.npy")} << QStringList{"random.npy"};
        QTest::newRow("npy header cut short") << QStringList{"dm", "--metric", "dtw", "--queries", path("cut.npy")}
                                              << QStringList{"cut.npy", "header"};
        QTest::newRow("directory as queries") << QStringList{"dm", "--metric", "dtw", "--queries", path("folder")}
                                              << QStringList{"--queries", "directory"};
        QTest::newRow("directory as align file") << QStringList{"align", "--metric", "dtw", path("folder"), good_}
                                                 << QStringList{"folder", "directory"};
        QTest::newRow("directory as reference") << QStringList{"search", "--query", good_, "--reference", path("folder")}
                                                << QStringList{"--reference", "directory"};
        QTest::newRow("band -1") << QStringList{"dm", "--metric", "cdtw", "--band=-1", "--queries", good_}
                                 << QStringList{"band", "-1"};
        QTest::newRow("gamma 0 align") << QStringList{"align", "--metric", "softdtw", "--gamma", "0", good_, good_}
                                       << QStringList{"gamma"};
        QTest::newRow("window past the end align")
            << QStringList{"align", "--metric", "dtw", chb, chb, "--channel", "FP1-F7", "--window", "0:100"}
            << QStringList{"chb01_03_Seizure.edf", "window", "past the end"};
        QTest::newRow("unknown channel patterns")
            << QStringList{"patterns", "--recording", chb, "--channel", "NOPE-X1", "--seizures", "10-20"}
            << QStringList{"chb01_03_Seizure.edf", "channel", "NOPE-X1"};
        QTest::newRow("seizure outside the recording")
            << QStringList{"patterns", "--recording", chb, "--channel", "FP1-F7", "--seizures", "50-60"}
            << QStringList{"chb01_03_Seizure.edf", "50-60", "end"};
        QTest::newRow("bench length 0") << QStringList{"bench", "--lengths", "0"} << QStringList{"lengths"};
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QStringList, mentions);
        auto r = runCli(args);
        QVERIFY(!r.crashed);
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1, stderr: %2").arg(r.exitCode).arg(QString(r.err))));
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        QVERIFY(!r.err.isEmpty());
        for (const QString& m : mentions)
            QVERIFY2(QString(r.err).contains(m, Qt::CaseInsensitive),
                     qPrintable(QStringLiteral("stderr does not mention '%1': %2").arg(m, QString(r.err))));
    }

    // Asking for a GPU backend on a machine without one is a failure (exit 1), not bad input.
    void missingDevice_data() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("cuda") << "cuda";
        QTest::newRow("hip") << "hip";
    }
    void missingDevice() {
        QFETCH(QString, backend);
        auto r = runCli({"dm", "--metric", "dtw", "--backend", backend, "--queries", good_});
        if (r.exitCode == 0) QSKIP("this machine has a device for the backend");
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(backend.toUtf8()), r.err.constData());
    }

    // --help is not an error: text on stdout, exit 0.
    void help() {
        auto r = runCli({"dm", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--queries"));
    }

    // An output that cannot be written is a failure (exit 1 or 2 are both errors; not 0).
    void unwritableOutput() {
        auto r = runCli({"dm", "--metric", "dtw", "--queries", good_, "--out", path("no/such/dir/m.npy")});
        QCOMPARE(r.exitCode, 2);  // a file that cannot be written is named like one that cannot be read
        QVERIFY(r.out.isEmpty());
        QVERIFY(r.err.contains("m.npy"));
    }
};

QTEST_GUILESS_MAIN(TestCliErrors)
#include "test_cli_errors.moc"
