// `dm ... --out x.npy` killed with SIGKILL leaves its temporary; the next run for the
// same target removes it (its process is gone) and never a live process's temporary.
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cli_process.h"
#include "io/temporary_files.h"

using cli_test::runCli;

namespace {
long deadPid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return long(child);
}

QStringList temporariesOf(const QTemporaryDir& dir, const QString& target) {
    QStringList out;
    for (const auto& e : std::filesystem::directory_iterator(dir.path().toStdString())) {
        const QString name = QString::fromStdString(e.path().filename().string());
        if (name.startsWith(target + ".tmp-")) out << name;
    }
    return out;
}
}  // namespace

class TestCliTemporaries : public QObject {
    Q_OBJECT
private slots:
    // Faked leftovers: a dead writer's (both name forms) goes, a live one's stays.
    void nextRunRemovesDeadWritersTemporaries() {
        QTemporaryDir dir;
        const QString q = dir.filePath("q.txt"), out = dir.filePath("x.npy");
        QVERIFY(cli_test::writeText(q, "1 2 3 4\n2 3 4 5\n0 1 0 1\n"));
        const std::string target = out.toStdString();
        const std::string deadNew = target + ".tmp-" + std::to_string(deadPid()) + "-4242-0";
        const std::string deadOld = target + ".tmp-" + std::to_string(deadPid()) + "-0";
        const std::string live = warplab::io::temporaryPathFor(target);  // this test process: alive
        for (const auto& p : {deadNew, deadOld, live}) std::ofstream(p) << "partial";
        auto r = runCli({"dm", "--metric", "dtw", "--queries", q, "--out", out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QFile::exists(out));
        QVERIFY(!std::filesystem::exists(deadNew));
        QVERIFY(!std::filesystem::exists(deadOld));
        QVERIFY(std::filesystem::exists(live));
        QCOMPARE(temporariesOf(dir, "x.npy"), QStringList{QString::fromStdString(std::filesystem::path(live).filename().string())});
    }

    // The real thing: a streamed export killed with SIGKILL leaves its temporary, which the
    // next run for the same target removes.
    void sigkilledRunIsCleanedUp() {
        QTemporaryDir dir;
        const QString q = dir.filePath("big.txt"), out = dir.filePath("x.npy");
        QByteArray text;
        for (int s = 0; s < 1500; ++s) {
            for (int i = 0; i < 256; ++i) text += QByteArray::number((s * 7 + i * 13) % 101) + (i < 255 ? " " : "\n");
        }
        QVERIFY(cli_test::writeText(q, text));
        QProcess p;
        // --max-memory tiny: the streamed writer creates its temporary before the first tile.
        p.start(QStringLiteral(WARPLAB_CLI), {"dm", "--metric", "dtw", "--queries", q, "--out", out, "--max-memory", "0.0001",
                                              "--kernel", "cpu.reference", "--threads", "1"});
        QVERIFY(p.waitForStarted(30000));
        QStringList left;
        for (int i = 0; i < 300 && left.isEmpty(); ++i) {  // wait for the temporary to appear
            QTest::qWait(20);
            left = temporariesOf(dir, "x.npy");
        }
        QVERIFY2(!left.isEmpty(), "no temporary appeared");
        QCOMPARE(p.state(), QProcess::Running);
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QCOMPARE(temporariesOf(dir, "x.npy"), left);  // SIGKILL: nobody could remove it
        QVERIFY(!QFile::exists(out));
        // A later run for the same target (a small one) removes it.
        QVERIFY(cli_test::writeText(q, "1 2 3\n3 2 1\n"));
        auto r = runCli({"dm", "--metric", "dtw", "--queries", q, "--out", out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(temporariesOf(dir, "x.npy").isEmpty());
        QVERIFY(QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestCliTemporaries)
#include "test_cli_temporaries.moc"
