// Temporaries of killed runs: names carry pid and process start time; the next
// temporary for the same target removes those whose writer is gone, never a live one's.
#include <QTemporaryDir>
#include <QTest>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "io/temporary_files.h"

using namespace warplab;

namespace {
void touch(const std::string& p) { std::ofstream(p) << "partial"; }
bool exists(const std::string& p) { return std::filesystem::exists(p); }

// A pid that ran and exited (reaped), so no process has it now.
long deadPid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return long(child);
}
}  // namespace

class TestStaleTemporaries : public QObject {
    Q_OBJECT
private slots:
    void nameCarriesPidAndStart() {
        QTemporaryDir dir;
        const std::string target = dir.filePath("m.npy").toStdString();
        const std::string tmp = io::temporaryPathFor(target);
        const std::string expect = target + ".tmp-" + std::to_string(::getpid()) + "-" +
                                   std::to_string(io::processStartTicks(::getpid())) + "-";
        QVERIFY2(tmp.rfind(expect, 0) == 0, tmp.c_str());
        QVERIFY(io::processStartTicks(::getpid()) > 0);
        QCOMPARE(io::processStartTicks(deadPid()), 0ULL);
        QVERIFY(io::temporaryPathFor(target) != tmp);  // a counter keeps names apart
    }

    void removesOnlyDeadWriters() {
        QTemporaryDir dir;
        const std::string target = dir.filePath("m.npy").toStdString();
        const long me = long(::getpid()), dead = deadPid();
        const std::string start = std::to_string(io::processStartTicks(me));
        const std::string live = target + ".tmp-" + std::to_string(me) + "-" + start + "-7";
        const std::string deadNew = target + ".tmp-" + std::to_string(dead) + "-12345-0";
        // Our pid with another start time: a dead writer whose pid was reused.
        const std::string reused = target + ".tmp-" + std::to_string(me) + "-1-0";
        const std::string deadOld = target + ".tmp-" + std::to_string(dead) + "-0";  // the older form without the start time
        // The older form with a live pid that is not a WarpLab program (this test) is stale too.
        const std::string notWarplab = target + ".tmp-" + std::to_string(me) + "-3";
        const std::string otherTarget = dir.filePath("other.npy").toStdString() + ".tmp-" + std::to_string(dead) + "-5-0";
        const std::string notOurs = target + ".tmp-notes";  // not our shape: left alone
        for (const auto& p : {live, deadNew, reused, deadOld, notWarplab, otherTarget, notOurs}) touch(p);
        const auto removed = io::removeStaleTemporaries(target);
        QCOMPARE(removed.size(), std::size_t(4));
        QVERIFY(exists(live));
        QVERIFY(!exists(deadNew));
        QVERIFY(!exists(reused));
        QVERIFY(!exists(deadOld));
        QVERIFY(!exists(notWarplab));
        QVERIFY(exists(otherTarget));  // only the temporaries of this target are looked at
        QVERIFY(exists(notOurs));
        // temporaryPathFor cleans as it names.
        touch(deadNew);
        io::temporaryPathFor(target);
        QVERIFY(!exists(deadNew));
        QVERIFY(exists(live));
    }

    // A target in the current folder (no folder part) is handled the same way.
    void relativeTarget() {
        QTemporaryDir dir;
        const auto old = std::filesystem::current_path();
        std::filesystem::current_path(dir.path().toStdString());
        const std::string stale = "rel.csv.tmp-" + std::to_string(deadPid()) + "-9-0";
        touch(stale);
        io::removeStaleTemporaries("rel.csv");
        const bool gone = !exists(stale);
        std::filesystem::current_path(old);
        QVERIFY(gone);
    }
};

QTEST_GUILESS_MAIN(TestStaleTemporaries)
#include "test_stale_temporaries.moc"
