// `dm` without --out streams its CSV rows: on the real UCR files of shared/data the
// stdout text equals, byte for byte, the numbers of the --out FILE.csv export of the same
// matrix (that file adds a `name` header line and a first column of row names).
#include <QTemporaryDir>
#include <QTest>

#include "cli_process.h"

using cli_test::runCli;

namespace {
// The CSV export without its header line and row-name column.
QByteArray numbersOf(const QByteArray& csv) {
    QByteArray out;
    const auto lines = csv.split('\n');
    for (int i = 1; i < lines.size(); ++i) {
        if (lines[i].isEmpty()) continue;
        out += lines[i].mid(lines[i].indexOf(',') + 1) + '\n';
    }
    return out;
}
}  // namespace

class TestCliDmStream : public QObject {
    Q_OBJECT
private slots:
    void stdoutEqualsTheFileExport_data() {
        QTest::addColumn<QStringList>("args");
        const QString train = cli_test::dataPath("ucr/ECG200/ECG200_TRAIN.txt");
        const QString test = cli_test::dataPath("ucr/ECG200/ECG200_TEST.txt");
        QTest::newRow("cdtw all pairs") << QStringList{"--metric", "cdtw", "--band", "6", "--queries", train};
        QTest::newRow("softdtw all pairs") << QStringList{"--metric", "softdtw", "--gamma", "0.5", "--znorm", "--queries", train};
        QTest::newRow("twed train x test") << QStringList{"--metric", "twed", "--queries", train, "--targets", test};
        QTest::newRow("sdtw all pairs") << QStringList{"--metric", "sdtw", "--queries", test};
    }
    void stdoutEqualsTheFileExport() {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        args << "--label-column";
        auto streamed = runCli(QStringList{"dm"} + args);
        QVERIFY2(streamed.exitCode == 0, streamed.err.constData());
        const QString file = dir.filePath("m.csv");
        auto exported = runCli(QStringList{"dm"} + args + QStringList{"--out", file});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QVERIFY(exported.out.isEmpty());
        const QByteArray numbers = numbersOf(cli_test::readText(file));
        QCOMPARE(streamed.out.count('\n'), numbers.count('\n'));
        QVERIFY(streamed.out.size() > 1000);
        QVERIFY(streamed.out == numbers);
    }
};

QTEST_GUILESS_MAIN(TestCliDmStream)
#include "test_cli_dm_stream.moc"
