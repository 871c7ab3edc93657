// One-channel regions whose channel a montage hides are kept aside, never lost: a saved session
// and the recovery journal hold them by their channel's label, and reopening either brings them
// back hidden, shown again once a montage has their channel. Regions find their channel by label
// in any channel order; sessions written before labels (channel indices only) still open. In a
// study, those of every recording survive opening another recording and coming back, sessions,
// the recovery journal and the region file beside each recording.
#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/montage_dialog.h"
#include "app/gui/recovery_journal.h"
#include "app/gui/study_controller.h"
#include "app/gui/unsaved_guard.h"
#include "io/regions_exchange.h"
#include "widgets/recording_access.h"
#include "widgets/signal_view.h"

using namespace warplab;

namespace {
const QString kSeizure = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
const QString kOther = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_NonSeizure.edf");

nlohmann::json readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return nlohmann::json::parse(f.readAll().toStdString());
}

void writeJson(const QString& path, const nlohmann::json& j) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QByteArray::fromStdString(j.dump(2)));
}

const io::Region* findNote(const std::vector<io::Region>& regions, const std::string& note) {
    for (const io::Region& r : regions)
        if (r.note == note) return &r;
    return nullptr;
}
}  // namespace

class TestHiddenRegions : public QObject {
    Q_OBJECT
    QTemporaryDir data_;  // XDG_DATA_HOME: the recovery files
    QTemporaryDir dir_;   // the session files

    std::unique_ptr<app::MainWindow> newWindow() {
        auto w = std::make_unique<app::MainWindow>();
        w->resize(1280, 800);
        w->show();
        w->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        return w;
    }

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(kSeizure)) QSKIP("tests/data/chbmit is missing");
        qputenv("XDG_DATA_HOME", data_.path().toLocal8Bit());
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_hidden_regions");
    }
    void cleanup() { QDir(app::RecoveryJournal::directory()).removeRecursively(); }

    // Mark on F7-T7, apply a montage without F7-T7, save, reopen in a new window: the region is
    // still there (hidden), and comes back on F7-T7 with the channels as recorded.
    void hiddenRegionSurvivesSaveAndReopen() {
        const QString session = dir_.filePath("hidden.warplab.json");
        {
            auto w = newWindow();
            QVERIFY(w->openFile(kSeizure));
            auto* doc = w->document();
            const int f7t7 = doc->recording()->findSignal("F7-T7");
            QVERIFY(f7t7 >= 0);
            doc->addRegion({io::RegionKind::Query, f7t7, 3.0, 4.5, "on F7-T7"});
            doc->addRegion({io::RegionKind::Seizure, -1, 5.0, 9.0, "everywhere"});
            // A derived channel: the session reopens it as a montage, not as a channel selection.
            app::applyMontage(*doc, *w->signalView(), {"FP1-F7-T7-P7", "T7-P7"}, {});
            QCOMPARE(int(doc->regions().size()), 1);
            QCOMPARE(int(doc->parkedRegions().size()), 1);
            QVERIFY(w->saveSession(session));
            QVERIFY(!w->isWindowModified());
        }
        const nlohmann::json j = readJson(session);
        QVERIFY2(j.contains("hidden_regions") && j["hidden_regions"].size() == 1, j.dump().c_str());
        QCOMPARE(j["hidden_regions"][0]["channel_label"].get<std::string>(), std::string("F7-T7"));
        QVERIFY(!j["regions"][0].contains("channel_label"));  // an all-channel region names none

        auto w = newWindow();
        QVERIFY(w->openSession(session));
        auto* doc = w->document();
        QCOMPARE(doc->montage(), (std::vector<std::string>{"FP1-F7-T7-P7", "T7-P7"}));
        QCOMPARE(int(doc->regions().size()), 1);
        QCOMPARE(doc->regions()[0].note, std::string("everywhere"));
        QCOMPARE(int(doc->parkedRegions().size()), 1);
        QCOMPARE(doc->parkedRegions()[0].channel, std::string("F7-T7"));
        QVERIFY(!w->isWindowModified());
        app::applyMontage(*doc, *w->signalView(), {}, {});
        QCOMPARE(int(doc->regions().size()), 2);
        const io::Region* back = findNote(doc->regions(), "on F7-T7");
        QVERIFY(back);
        QCOMPARE(back->channel, doc->recording()->findSignal("F7-T7"));
        QCOMPARE(back->kind, io::RegionKind::Query);
        QCOMPARE(back->startS, 3.0);
        QCOMPARE(back->endS, 4.5);
        QVERIFY(doc->parkedRegions().empty());
    }

    // Shown regions are found by label, not index: the same session with the montage's
    // channels in another order puts the region on the same channel.
    void regionsFindTheirChannelByLabel() {
        const QString session = dir_.filePath("labels.warplab.json");
        {
            auto w = newWindow();
            QVERIFY(w->openFile(kSeizure));
            auto* doc = w->document();
            app::applyMontage(*doc, *w->signalView(), {"T7-P7", "F7-T7"}, {});
            doc->addRegion({io::RegionKind::Reference, 1, 10.0, 12.0, "ref"});
            QVERIFY(w->saveSession(session));
        }
        nlohmann::json j = readJson(session);
        QCOMPARE(j["regions"][0]["channel_label"].get<std::string>(), std::string("F7-T7"));
        j["montage"] = {"F7-T7", "FP1-F7-T7-P7"};  // edited by hand: F7-T7 first, T7-P7 gone
        writeJson(session, j);
        auto w = newWindow();
        QVERIFY(w->openSession(session));
        QCOMPARE(int(w->document()->regions().size()), 1);
        QCOMPARE(w->document()->regions()[0].channel, 0);
        QCOMPARE(w->document()->channelName(0), QString("F7-T7"));
        // A label the channels lack keeps the region aside instead of on another channel.
        j["montage"] = {"FP1-F7-T7-P7"};
        writeJson(session, j);
        QVERIFY(w->openSession(session));
        QVERIFY(w->document()->regions().empty());
        QCOMPARE(int(w->document()->parkedRegions().size()), 1);
    }

    // A session written before labels: channel indices of the session's channels.
    void sessionsWithIndicesOnlyStillOpen() {
        const QString session = dir_.filePath("old.warplab.json");
        const nlohmann::json j = {
            {"warplab_session", 1},
            {"recording", kSeizure.toStdString()},
            {"montage", {"FP1-F7-T7-P7", "F7-T7"}},
            {"regions", {{{"kind", "query"}, {"channel", 1}, {"start_s", 2.0}, {"end_s", 3.0}, {"note", "old"}}}},
        };
        writeJson(session, j);
        auto w = newWindow();
        QVERIFY(w->openSession(session));
        QCOMPARE(int(w->document()->regions().size()), 1);
        QCOMPARE(w->document()->channelName(w->document()->regions()[0].channel), QString("F7-T7"));
    }

    // The recovery journal keeps hidden regions too, and restoring brings them back hidden.
    void recoveryJournalKeepsHiddenRegions() {
        {
            auto w = newWindow();
            QVERIFY(w->openFile(kSeizure));
            auto* doc = w->document();
            doc->addRegion({io::RegionKind::Query, doc->recording()->findSignal("F7-T7"), 3.0, 4.0, "journaled"});
            app::applyMontage(*doc, *w->signalView(), {"FP1-F7-T7-P7"}, {});
            QVERIFY(w->unsavedGuard()->journal()->writeNow());
            w->hide();  // destroyed without closing, as a crash leaves it
        }
        const app::RecoveryScan scan = app::RecoveryJournal::scan();
        QCOMPARE(scan.entries.size(), 1);
        const io::Session& s = scan.entries[0].session;
        QCOMPARE(int(s.hiddenRegions.size()), 1);
        QCOMPARE(s.hiddenRegions[0].channelLabel, std::string("F7-T7"));
        auto w = newWindow();
        QVERIFY(w->restoreRecovery(scan.entries[0]));
        QCOMPARE(int(w->document()->parkedRegions().size()), 1);
        app::applyMontage(*w->document(), *w->signalView(), {"FP1-F7-T7-P7", "F7-T7"}, {});
        QCOMPARE(int(w->document()->regions().size()), 1);
        QCOMPARE(w->document()->regions()[0].note, std::string("journaled"));
        QCOMPARE(w->document()->regions()[0].channel, 1);
    }
    // A study: a region a montage hides on one recording, and one on the montage's derivation,
    // come back when the user opens another recording of the study and returns (the recording
    // opens with its channels as recorded: the first on F7-T7 again, the second kept aside under
    // its derivation, never on the channel of the same index); the recovery journal and its
    // restore, a saved session and Save's region file beside the recording keep both.
    void studyRecordingsKeepHiddenRegions() {
        QTemporaryDir folder;
        QVERIFY(QFile::copy(kSeizure, folder.filePath("a.edf")));
        QVERIFY(QFile::copy(kOther, folder.filePath("b.edf")));
        const QString session = dir_.filePath("study.warplab.json");
        const std::vector<std::string> montage = {"FP1-F7-T7-P7", "T7-P7"};
        int first = -1;
        QString firstPath;
        auto confirmed = [this] {
            auto w = newWindow();
            w->studyController()->setConfirm([](const QString&, const QString&) { return true; });
            return w;
        };
        // The first recording opened again: both regions there, then the montage shows the second.
        auto checkFirst = [&](app::MainWindow& w, const char* where) {
            QVERIFY2(w.studyController()->goTo(first, 0), where);
            auto* doc = w.document();
            QVERIFY2(doc->montage().empty(), where);
            const io::Region* back = findNote(doc->regions(), "hidden on F7-T7");
            QVERIFY2(back, where);
            QCOMPARE(back->channel, doc->recording()->findSignal("F7-T7"));
            QCOMPARE(back->kind, io::RegionKind::Query);
            QVERIFY2(!findNote(doc->regions(), "on the derivation"), where);
            QCOMPARE(int(doc->parkedRegions().size()), 1);
            QCOMPARE(doc->parkedRegions()[0].channel, std::string("FP1-F7-T7-P7"));
            QCOMPARE(doc->parkedRegions()[0].region.note, std::string("on the derivation"));
            app::applyMontage(*doc, *w.signalView(), montage, {});
            const io::Region* derived = findNote(doc->regions(), "on the derivation");
            QVERIFY2(derived, where);
            QCOMPARE(derived->channel, 0);
            QCOMPARE(derived->startS, 5.0);
            QCOMPARE(int(doc->parkedRegions().size()), 1);
            QCOMPARE(doc->parkedRegions()[0].region.note, std::string("hidden on F7-T7"));
        };
        {
            auto w = confirmed();
            QVERIFY(w->openStudy(folder.path()));
            first = w->studyController()->currentRecording();
            firstPath = w->document()->path();
            auto* doc = w->document();
            doc->addRegion({io::RegionKind::Query, doc->recording()->findSignal("F7-T7"), 3.0, 4.5, "hidden on F7-T7"});
            app::applyMontage(*doc, *w->signalView(), montage, {});
            QCOMPARE(int(doc->parkedRegions().size()), 1);
            doc->addRegion({io::RegionKind::Seizure, 0, 5.0, 9.0, "on the derivation"});
            QVERIFY(w->studyController()->goTo(1 - first, 0));
            checkFirst(*w, "after switching");
            if (QTest::currentTestFailed()) return;
            QVERIFY(w->studyController()->goTo(1 - first, 0));  // left under the montage again
            QVERIFY(w->unsavedGuard()->journal()->writeNow());
            w->hide();  // destroyed without closing, as a crash leaves it
        }
        const app::RecoveryScan scan = app::RecoveryJournal::scan();
        QCOMPARE(scan.entries.size(), 1);
        const auto& kept = scan.entries[0].session.studyRegions.at(QFileInfo(firstPath).fileName().toStdString());
        QCOMPARE(int(kept.size()), 2);
        {
            auto w = confirmed();
            QVERIFY(w->restoreRecovery(scan.entries[0]));
            checkFirst(*w, "after restoring the recovery file");
            if (QTest::currentTestFailed()) return;
            QVERIFY(w->studyController()->goTo(1 - first, 0));
            QVERIFY(w->saveSession(session));
            QVERIFY(w->unsavedGuard()->save());
        }
        {
            auto w = confirmed();
            QVERIFY(w->openSession(session));
            checkFirst(*w, "after opening the saved session");
            if (QTest::currentTestFailed()) return;
        }
        // Save's region file beside the recording names both channels; opening the recording
        // alone reads it back, the derivation's region kept aside.
        const QString csv = folder.filePath(QFileInfo(firstPath).completeBaseName() + "_regions.csv");
        std::vector<std::string> names;
        const auto recorded = io::Recording::open(firstPath.toStdString());  // outlives the list it holds
        for (const auto& sig : widgets::signalList(*recorded)) names.push_back(sig.displayName);
        const std::vector<io::Region> file = io::readRegionsCsv(csv.toStdString(), names, true);
        const io::Region* onF7 = findNote(file, "hidden on F7-T7");
        const io::Region* onDerivation = findNote(file, "on the derivation");
        QVERIFY(onF7 && onDerivation);
        QCOMPARE(names.at(std::size_t(onF7->channel)), std::string("F7-T7"));
        QCOMPARE(onDerivation->channelLabel, std::string("FP1-F7-T7-P7"));
        auto w = newWindow();
        QVERIFY(w->openFile(firstPath));
        QVERIFY(findNote(w->document()->regions(), "hidden on F7-T7"));
        QCOMPARE(int(w->document()->parkedRegions().size()), 1);
        QCOMPARE(w->document()->parkedRegions()[0].channel, std::string("FP1-F7-T7-P7"));
    }

    // A recording opened beside an open study (not one of its own): Save writes its regions
    // beside it too, not only those of the study's recordings.
    void recordingBesideAStudyIsSaved() {
        QTemporaryDir folder, elsewhere;
        QVERIFY(QFile::copy(kSeizure, folder.filePath("a.edf")));
        QVERIFY(QFile::copy(kOther, elsewhere.filePath("c.edf")));
        auto w = newWindow();
        w->studyController()->setConfirm([](const QString&, const QString&) { return true; });
        QVERIFY(w->openStudy(folder.path()));
        QVERIFY(w->openFile(elsewhere.filePath("c.edf")));
        QCOMPARE(w->studyController()->currentRecording(), -1);
        w->document()->addRegion({io::RegionKind::Query, 1, 2.0, 3.0, "beside the study"});
        QVERIFY(w->unsavedGuard()->save());
        std::vector<std::string> names;
        for (const auto& sig : widgets::signalList(*w->document()->recording())) names.push_back(sig.displayName);
        const auto file = io::readRegionsCsv(elsewhere.filePath("c_regions.csv").toStdString(), names);
        QVERIFY(findNote(file, "beside the study"));
    }
};

QTEST_MAIN(TestHiddenRegions)
#include "test_hidden_regions.moc"
