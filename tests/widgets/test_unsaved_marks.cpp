// Marks are never lost: the real main window offscreen, its data folder in a temporary
// directory. Changes reach the recovery file within 2 s (a study's regions, filters, channel
// selection and montage too, and come back with it); closing or opening another recording
// with unsaved marks asks Save / Discard / Cancel (the real question box, answered by clicking
// its button); Save writes the regions beside the recording and opening reads them back; a
// damaged recovery file or one of another version is refused by name and kept; a full disk
// (a file-size limit) keeps the previous recovery file, session and region file whole.
#include <sys/resource.h>

#include <algorithm>
#include <csignal>

#include <QDialogButtonBox>
#include <QDir>
#include <QListWidget>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "app/gui/channel_dialog.h"
#include "app/gui/document.h"
#include "app/gui/main_window.h"
#include "app/gui/recovery_dialog.h"
#include "app/gui/recovery_journal.h"
#include "app/gui/study_controller.h"
#include "app/gui/unsaved_guard.h"
#include "io/regions_exchange.h"
#include "io/session.h"
#include "widgets/recording_access.h"
#include "widgets/signal_view.h"

using namespace warplab;

namespace {
const QString kSeizure = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
const QString kOther = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_NonSeizure.edf");

QByteArray bytesOf(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Answers the next modal question box by clicking `button`; its text lands in *text.
void answerNextQuestion(QMessageBox::StandardButton button, QString* text) {
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, button, text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        timer->stop();
        timer->deleteLater();
        *text = box->text() + "\n" + box->informativeText();
        QTest::mouseClick(box->button(button), Qt::LeftButton);
    });
    timer->start();
}

// Answers the next channel dialog as a person would: ticks exactly `rows`, then OK.
void answerChannelDialog(std::vector<int> rows) {
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, rows] {
        auto* dialog = qobject_cast<app::ChannelDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        timer->stop();
        timer->deleteLater();
        auto* list = dialog->findChild<QListWidget*>();
        for (int i = 0; i < list->count(); ++i)
            list->item(i)->setCheckState(std::find(rows.begin(), rows.end(), i) != rows.end() ? Qt::Checked : Qt::Unchecked);
        QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    timer->start();
}

// The same for the restore dialog: clicks the button of that object name.
void answerRecoveryDialog(const QString& buttonName) {
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, buttonName] {
        auto* dialog = qobject_cast<app::RecoveryDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        timer->stop();
        timer->deleteLater();
        const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS");
        if (!dir.isEmpty()) dialog->grab().save(dir + "/recovery_dialog_offscreen.png");
        QTest::mouseClick(dialog->findChild<QPushButton*>(buttonName), Qt::LeftButton);
    });
    timer->start();
}

// A file-size limit stands for a full disk: writes past it fail (EFBIG) as on a full device.
struct FileSizeLimit {
    rlimit old{};
    explicit FileSizeLimit(rlim_t bytes) {
        std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &old);
        rlimit r = old;
        r.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &r);
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &old); }
};
}  // namespace

class TestUnsavedMarks : public QObject {
    Q_OBJECT
    QTemporaryDir data_;   // XDG_DATA_HOME: the recovery files
    QTemporaryDir files_;  // copies of the recordings, so that Save may write beside them
    QString recording_, other_;

    std::unique_ptr<app::MainWindow> newWindow() {
        auto w = std::make_unique<app::MainWindow>();
        w->resize(1200, 800);
        w->show();
        return w;
    }
    QStringList recoveryFiles() const {
        return QDir(app::RecoveryJournal::directory()).entryList({"*.recovery.json"}, QDir::Files);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(kSeizure), qPrintable(kSeizure + " is missing (tests/data)"));
        qputenv("XDG_DATA_HOME", data_.path().toLocal8Bit());
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_unsaved_marks");
        QVERIFY(app::RecoveryJournal::directory().startsWith(data_.path()));
        recording_ = files_.filePath("chb01_03_Seizure.edf");
        other_ = files_.filePath("chb01_03_NonSeizure.edf");
        QVERIFY(QFile::copy(kSeizure, recording_));
        QVERIFY(QFile::copy(kOther, other_));
    }

    void cleanup() {
        QDir(app::RecoveryJournal::directory()).removeRecursively();
        for (const QString& f : QDir(files_.path()).entryList({"*.csv"}, QDir::Files)) QFile::remove(files_.filePath(f));
    }

    // A change is in the recovery file within 2 s, with the montage and filters; the title
    // bar shows the unsaved state.
    void changesAreJournaledWithinTwoSeconds() {
        auto w = newWindow();
        QVERIFY(w->openFile(recording_));
        QVERIFY(!w->isWindowModified());
        QVERIFY(w->windowTitle().contains("[*]"));
        QVERIFY(recoveryFiles().isEmpty());
        QElapsedTimer clock;
        clock.start();
        w->document()->addRegion({io::RegionKind::Seizure, -1, 20, 30, "onset"});
        QVERIFY(w->isWindowModified());
        QTRY_VERIFY_WITH_TIMEOUT(recoveryFiles().size() == 1, 2000);
        QVERIFY(clock.elapsed() < 2000);
        const QString file = app::RecoveryJournal::directory() + "/" + recoveryFiles().front();
        QCOMPARE(file, app::RecoveryJournal::fileFor(recording_));
        app::RecoveryEntry e = app::RecoveryJournal::read(file);
        QCOMPARE(e.source(), recording_);
        QCOMPARE(e.session.regions.size(), std::size_t(1));
        QCOMPARE(e.session.regions[0].note, std::string("onset"));

        // Filters and montage follow, also within 2 s.
        io::FilterSettings f;
        f.highpassHz = 1;
        w->document()->setFilters(f);
        QVERIFY(w->document()->setMontage({"FP1-F7", "F7-T7"}));
        QTRY_VERIFY_WITH_TIMEOUT(app::RecoveryJournal::read(file).session.montage.size() == 2, 2000);
        e = app::RecoveryJournal::read(file);
        QCOMPARE(e.session.filters.highpassHz, 1.0);
        QCOMPARE(e.session.regions.size(), std::size_t(1));

        w->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w->close());
        QVERIFY(recoveryFiles().isEmpty());  // discarded: the clean close removes it
    }

    // Closing with unsaved marks asks; Cancel keeps the window open and the recovery file,
    // Discard closes and removes the recovery file without writing the regions.
    void closingAsksCancelThenDiscard() {
        auto w = newWindow();
        QVERIFY(w->openFile(recording_));
        w->document()->addRegion({io::RegionKind::Query, 0, 10, 12, "q"});
        QVERIFY(w->unsavedGuard()->journal()->writeNow());
        QCOMPARE(recoveryFiles().size(), 1);

        QString asked;
        answerNextQuestion(QMessageBox::Cancel, &asked);
        QVERIFY(!w->close());
        QVERIFY2(asked.contains("chb01_03_Seizure.edf") && asked.contains("not saved"), qPrintable(asked));
        QVERIFY(w->isVisible());
        QVERIFY(w->isWindowModified());
        QCOMPARE(w->document()->regions().size(), std::size_t(1));
        QCOMPARE(recoveryFiles().size(), 1);

        asked.clear();
        answerNextQuestion(QMessageBox::Discard, &asked);
        QVERIFY(w->close());
        QVERIFY(!asked.isEmpty());
        QVERIFY(!w->isVisible());
        QVERIFY(recoveryFiles().isEmpty());
        QVERIFY(!QFile::exists(files_.filePath("chb01_03_Seizure_regions.csv")));
    }

    // Save writes the regions beside the recording; opening it again reads them back, clean.
    void saveWritesBesideTheRecordingAndOpenReadsThem() {
        auto w = newWindow();
        QVERIFY(w->openFile(recording_));
        w->document()->addRegion({io::RegionKind::Seizure, -1, 20, 30, "onset"});
        w->document()->addRegion({io::RegionKind::Reference, 2, 10, 14.5, "ref"});
        QString asked;
        answerNextQuestion(QMessageBox::Save, &asked);
        QVERIFY(w->close());
        const QString csv = files_.filePath("chb01_03_Seizure_regions.csv");
        QVERIFY(QFile::exists(csv));
        QVERIFY(recoveryFiles().isEmpty());
        std::vector<std::string> names;
        auto rec = io::Recording::open(recording_.toStdString());
        for (const auto& s : widgets::signalList(*rec)) names.push_back(s.displayName);
        const auto back = io::readRegionsCsv(csv.toStdString(), names);
        QCOMPARE(back.size(), std::size_t(2));
        QCOMPARE(back[1].channel, 2);
        QCOMPARE(back[1].endS, 14.5);

        auto again = newWindow();
        QVERIFY(again->openFile(recording_));
        QCOMPARE(again->document()->regions().size(), std::size_t(2));
        QVERIFY(!again->isWindowModified());
        QVERIFY(again->close());  // nothing unsaved: no question
    }

    // Opening another recording with unsaved marks asks too; Cancel keeps what is open.
    void openingAnotherRecordingAsks() {
        auto w = newWindow();
        QVERIFY(w->openFile(recording_));
        w->document()->addRegion({io::RegionKind::Query, 0, 10, 12, "q"});
        QString asked;
        answerNextQuestion(QMessageBox::Cancel, &asked);
        QVERIFY(!w->openFile(other_));
        QVERIFY(asked.contains("before opening chb01_03_NonSeizure.edf"));
        QCOMPARE(w->document()->path(), recording_);
        QCOMPARE(w->document()->regions().size(), std::size_t(1));
        answerNextQuestion(QMessageBox::Save, &asked);
        QVERIFY(w->openFile(other_));
        QCOMPARE(w->document()->path(), other_);
        QVERIFY(QFile::exists(files_.filePath("chb01_03_Seizure_regions.csv")));
        QVERIFY(w->close());
    }

    // A region file beside the recording that WarpLab did not read is never written over.
    void aForeignRegionFileIsKept() {
        const QString csv = files_.filePath("chb01_03_Seizure_regions.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not,a,region,file\n1,2\n");
        f.close();
        auto w = newWindow();
        QSignalSpy errors(w.get(), &app::MainWindow::errorShown);
        QVERIFY(w->openFile(recording_));
        QCOMPARE(errors.count(), 1);  // named, not read
        QVERIFY(errors.front().at(1).toString().contains("chb01_03_Seizure_regions.csv"));
        w->document()->addRegion({io::RegionKind::Query, 0, 10, 12, "q"});
        QVERIFY(w->unsavedGuard()->save());
        QCOMPARE(bytesOf(csv), QByteArray("not,a,region,file\n1,2\n"));
        QVERIFY(QFile::exists(files_.filePath("chb01_03_Seizure_regions-2.csv")));
        QVERIFY(w->close());
    }

    // Restarting offers what was left; Not now keeps the file, Restore brings the regions back
    // (unsaved until saved or discarded, journaled in the same file).
    void restoreOfferNotNowThenRestore() {
        {
            auto w = newWindow();
            QVERIFY(w->openFile(recording_));
            w->document()->addRegion({io::RegionKind::Seizure, -1, 20, 30, "onset"});
            QVERIFY(w->unsavedGuard()->journal()->writeNow());
            w->hide();  // destroyed without closing: as a crash leaves it (the lock is released)
        }
        QCOMPARE(recoveryFiles().size(), 1);
        auto w = newWindow();
        answerRecoveryDialog("notNowButton");
        QCOMPARE(w->offerRecovery(), int(app::RecoveryDialog::NotNow));
        QCOMPARE(recoveryFiles().size(), 1);
        QVERIFY(w->document()->regions().empty());

        answerRecoveryDialog("restoreButton");
        QCOMPARE(w->offerRecovery(), int(app::RecoveryDialog::Restore));
        QCOMPARE(w->document()->path(), recording_);
        QCOMPARE(w->document()->regions().size(), std::size_t(1));
        QCOMPARE(w->document()->regions()[0].note, std::string("onset"));
        QVERIFY(w->isWindowModified());
        // While this window holds it, another start does not offer it.
        QVERIFY(app::RecoveryJournal::scan().entries.isEmpty());
        w->document()->addRegion({io::RegionKind::Query, 0, 1, 2, "more"});
        QTRY_COMPARE_WITH_TIMEOUT(app::RecoveryJournal::read(app::RecoveryJournal::fileFor(recording_)).session.regions.size(),
                                  std::size_t(2), 2000);
        QCOMPARE(recoveryFiles().size(), 1);
        QString asked;
        answerNextQuestion(QMessageBox::Discard, &asked);
        QVERIFY(w->close());
        QVERIFY(recoveryFiles().isEmpty());
    }

    // A study: its regions of every recording visited are journaled under the study's path,
    // restored with the study, and saved beside each recording.
    void studyRegionsAreJournaledRestoredAndSaved() {
        QTemporaryDir folder;
        QString firstName, secondName;  // in the study's order (by start time)
        QVERIFY(QFile::copy(kSeizure, folder.filePath("a.edf")));
        QVERIFY(QFile::copy(kOther, folder.filePath("b.edf")));
        {
            auto w = newWindow();
            w->studyController()->setConfirm([](const QString&, const QString&) { return true; });
            QVERIFY(w->openStudy(folder.path()));
            QVERIFY(!w->isWindowModified());
            const int first = w->studyController()->currentRecording();
            firstName = QFileInfo(w->document()->path()).fileName();
            w->document()->addRegion({io::RegionKind::Query, 0, 1, 2, "in first"});
            QVERIFY(w->studyController()->goTo(1 - first, 0));
            secondName = QFileInfo(w->document()->path()).fileName();
            QVERIFY(firstName != secondName);
            w->document()->addRegion({io::RegionKind::Reference, -1, 3, 4, "in second"});
            QTRY_VERIFY_WITH_TIMEOUT(recoveryFiles().size() == 1, 2000);
            QCOMPARE(app::RecoveryJournal::directory() + "/" + recoveryFiles().front(),
                     app::RecoveryJournal::fileFor(QFileInfo(folder.path()).absoluteFilePath()));
            QTRY_VERIFY_WITH_TIMEOUT(app::RecoveryJournal::scan().entries.isEmpty(), 2000);  // ours, locked
            w->hide();
        }
        const app::RecoveryScan scan = app::RecoveryJournal::scan();
        QCOMPARE(scan.entries.size(), 1);
        const io::Session& s = scan.entries.front().session;
        QCOMPARE(QFileInfo(QString::fromStdString(s.studyPath)).absoluteFilePath(), QFileInfo(folder.path()).absoluteFilePath());
        QCOMPARE(s.studyRegions.size(), std::size_t(2));
        QCOMPARE(s.studyRegions.at(firstName.toStdString()).back().note, std::string("in first"));
        QCOMPARE(s.studyRegions.at(secondName.toStdString()).back().note, std::string("in second"));

        auto w = newWindow();
        w->studyController()->setConfirm([](const QString&, const QString&) { return true; });
        answerRecoveryDialog("restoreButton");
        QCOMPARE(w->offerRecovery(), int(app::RecoveryDialog::Restore));
        QVERIFY(w->studyController()->study());
        QVERIFY(w->isWindowModified());
        QCOMPARE(w->document()->regions().back().note, std::string("in second"));
        QString asked;
        answerNextQuestion(QMessageBox::Save, &asked);
        QVERIFY(w->close());
        QVERIFY(asked.contains("not saved"));
        QVERIFY(recoveryFiles().isEmpty());
        std::vector<std::string> names;
        auto rec = io::Recording::open(recording_.toStdString());
        for (const auto& sig : widgets::signalList(*rec)) names.push_back(sig.displayName);
        auto csvOf = [&](const QString& edf) { return folder.filePath(QFileInfo(edf).completeBaseName() + "_regions.csv").toStdString(); };
        const auto a = io::readRegionsCsv(csvOf(firstName), names);
        const auto b = io::readRegionsCsv(csvOf(secondName), names);
        QCOMPARE(a.back().note, std::string("in first"));
        QCOMPARE(b.back().note, std::string("in second"));
    }

    // A study's filters, channel selection and bipolar montage (with rows of it hidden) reach the
    // recovery file within 2 s each, and a restart restores them with the study.
    void studyViewStateIsJournaledAndRestored() {
        QTemporaryDir folder;
        QVERIFY(QFile::copy(kSeizure, folder.filePath("a.edf")));
        QVERIFY(QFile::copy(kOther, folder.filePath("b.edf")));
        const QString file = app::RecoveryJournal::fileFor(QFileInfo(folder.path()).absoluteFilePath());
        auto journaled = [&] { return app::RecoveryJournal::read(file).session; };
        QString shownRecording;
        {
            auto w = newWindow();
            w->studyController()->setConfirm([](const QString&, const QString&) { return true; });
            QVERIFY(w->openStudy(folder.path()));
            shownRecording = w->document()->path();
            io::FilterSettings f;
            f.highpassHz = 0.5;
            f.lowpassHz = 40;
            QElapsedTimer clock;
            clock.start();
            w->document()->setFilters(f);
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file) && journaled().filters.lowpassHz == 40.0, 2000);
            QVERIFY(clock.elapsed() < 2000);
            QVERIFY(journaled().montage.empty());

            // Channels as recorded: the ones ticked in the channel dialog, by name.
            answerChannelDialog({0, 2, 4});
            clock.restart();
            w->actions().action("view.channels")->trigger();
            QCOMPARE(w->signalView()->visibleChannels(), (std::vector<int>{0, 2, 4}));
            const std::vector<std::string> picked{w->document()->channelName(0).toStdString(), w->document()->channelName(2).toStdString(),
                                                  w->document()->channelName(4).toStdString()};
            QTRY_VERIFY_WITH_TIMEOUT(journaled().montage == picked, 2000);
            QVERIFY(clock.elapsed() < 2000);

            // A bipolar montage, then one of its rows hidden.
            clock.restart();
            QVERIFY(w->document()->setMontage({"FP1-F7-F7-T7", "F7-T7-T7-P7", "T7-P7-P7-O1"}));
            QTRY_VERIFY_WITH_TIMEOUT(journaled().montage.size() == 3, 2000);
            QVERIFY(clock.elapsed() < 2000);
            answerChannelDialog({0, 2});
            clock.restart();
            w->actions().action("view.channels")->trigger();
            QCOMPARE(w->signalView()->visibleChannels(), (std::vector<int>{0, 2}));
            QTRY_VERIFY_WITH_TIMEOUT(journaled().montage == (std::vector<std::string>{"FP1-F7-F7-T7", "T7-P7-P7-O1"}), 2000);
            QVERIFY(clock.elapsed() < 2000);
            QCOMPARE(journaled().filters.highpassHz, 0.5);
            QCOMPARE(QFileInfo(QString::fromStdString(journaled().studyPath)).absoluteFilePath(), QFileInfo(folder.path()).absoluteFilePath());
            w->hide();  // gone without closing, as after a kill
        }
        auto w = newWindow();
        w->studyController()->setConfirm([](const QString&, const QString&) { return true; });
        answerRecoveryDialog("restoreButton");
        QCOMPARE(w->offerRecovery(), int(app::RecoveryDialog::Restore));
        QVERIFY(w->studyController()->study());
        QCOMPARE(QFileInfo(w->document()->path()).fileName(), QFileInfo(shownRecording).fileName());
        QCOMPARE(w->document()->montage(), (std::vector<std::string>{"FP1-F7-F7-T7", "T7-P7-P7-O1"}));
        QCOMPARE(w->document()->filters().highpassHz, 0.5);
        QCOMPARE(w->document()->filters().lowpassHz, 40.0);
        QCOMPARE(w->signalView()->visibleChannels().size(), std::size_t(2));
        w->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w->close());
    }

    // A damaged recovery file and one of another version: refused by name, kept, no crash.
    void damagedAndOtherVersionFilesAreRefusedAndKept() {
        QDir().mkpath(app::RecoveryJournal::directory());
        const QString damaged = app::RecoveryJournal::directory() + "/damaged-0000.recovery.json";
        const QString newer = app::RecoveryJournal::directory() + "/newer-0000.recovery.json";
        const QByteArray junk("{\"warplab_recovery\": 1, \"recording\": \"x.edf\", \"regions\": [{\"kind\"");
        QFile f(damaged);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(junk);
        f.close();
        nlohmann::json j = io::sessionToJson(io::Session{});
        j["recording"] = recording_.toStdString();
        j["warplab_recovery"] = 2;
        const QByteArray newerBytes = QByteArray::fromStdString(j.dump());
        QFile g(newer);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(newerBytes);
        g.close();

        auto w = newWindow();
        QSignalSpy errors(w.get(), &app::MainWindow::errorShown);
        QCOMPARE(w->offerRecovery(), int(app::RecoveryDialog::NotNow));  // nothing to offer: no dialog
        QCOMPARE(errors.count(), 1);
        const QString message = errors.front().at(1).toString();
        QVERIFY2(message.contains("damaged-0000.recovery.json") && message.contains("damaged"), qPrintable(message));
        QVERIFY2(message.contains("newer-0000.recovery.json") && message.contains("another version"), qPrintable(message));
        // Kept, byte for byte, under a name that is not offered again.
        QCOMPARE(bytesOf(damaged + ".refused"), junk);
        QCOMPARE(bytesOf(newer + ".refused"), newerBytes);
        QVERIFY(recoveryFiles().isEmpty());
        QVERIFY(app::RecoveryJournal::scan().refused.isEmpty());
        w->close();
    }

    // A full disk while writing the recovery file, a session or the regions keeps the
    // previous file whole, and says so.
    void fullDiskKeepsThePreviousFiles() {
        auto w = newWindow();
        QVERIFY(w->openFile(recording_));
        w->document()->addRegion({io::RegionKind::Query, 0, 10, 12, "q"});
        QVERIFY(w->unsavedGuard()->journal()->writeNow());
        const QString journal = app::RecoveryJournal::fileFor(recording_);
        const QString session = files_.filePath("s.warplab.json");
        QVERIFY(w->saveSession(session));
        w->document()->addRegion({io::RegionKind::Query, 0, 20, 22, "q2"});
        QVERIFY(w->unsavedGuard()->save());
        const QString csv = files_.filePath("chb01_03_Seizure_regions.csv");
        const QByteArray journalBefore = bytesOf(journal), sessionBefore = bytesOf(session), csvBefore = bytesOf(csv);
        QVERIFY(!sessionBefore.isEmpty() && !csvBefore.isEmpty());
        w->document()->addRegion({io::RegionKind::Seizure, -1, 30, 40, std::string(1000, 'n')});
        QVERIFY(w->unsavedGuard()->journal()->writeNow());
        const QByteArray journalMid = bytesOf(journal);
        w->document()->addRegion({io::RegionKind::Seizure, -1, 50, 60, std::string(8000, 'm')});
        QSignalSpy failed(w->unsavedGuard()->journal(), &app::RecoveryJournal::failed);
        QSignalSpy errors(w.get(), &app::MainWindow::errorShown);
        {
            FileSizeLimit full(6000);  // every new file stops at 6000 bytes
            QVERIFY(!w->unsavedGuard()->journal()->writeNow());
            QVERIFY(!w->saveSession(session));
            QVERIFY(!w->unsavedGuard()->save());
        }
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.front().at(0).toString().contains(QFileInfo(journal).fileName()));
        QVERIFY2(failed.front().at(0).toString().contains("File too large"), qPrintable(failed.front().at(0).toString()));
        QCOMPARE(errors.count(), 2);  // the session and the regions, each named
        QCOMPARE(bytesOf(journal), journalMid);
        QCOMPARE(bytesOf(session), sessionBefore);
        QCOMPARE(bytesOf(csv), csvBefore);
        QVERIFY(w->isWindowModified());  // still unsaved
        // No temporaries left beside them.
        QCOMPARE(QDir(files_.path()).entryList({"*.tmp*"}, QDir::Files), QStringList());
        const QString name = QFileInfo(journal).fileName();
        QCOMPARE(QDir(app::RecoveryJournal::directory()).entryList(QDir::Files), (QStringList{name, name + ".lock"}));
        // With room again, it writes.
        QVERIFY(w->unsavedGuard()->journal()->writeNow());
        QCOMPARE(app::RecoveryJournal::read(journal).session.regions.size(), std::size_t(4));
        Q_UNUSED(journalBefore);
        QString asked;
        answerNextQuestion(QMessageBox::Discard, &asked);
        QVERIFY(w->close());
    }
};

QTEST_MAIN(TestUnsavedMarks)
#include "test_unsaved_marks.moc"
