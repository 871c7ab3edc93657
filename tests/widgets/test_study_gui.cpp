// The study GUI, offscreen on the real main window: a generated
// study of three short EDF files (io::EdfWriter) with a gap and a CHB-MIT style summary with a
// seizure; the navigator shows the three recordings and the gap; a click opens that recording
// at that time; missing files are listed and the user may cancel or go on; study-wide search
// and pattern discovery (tiny parameters) and a click on a result open the right recording at
// the right time; a session keeps the study and the regions of each recording.
// Before any Qt header: its constructor has a parameter named `signals` (a Qt macro).
#include "io/edf_writer.h"

#include <QDir>
#include <QDockWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/study_controller.h"
#include "app/gui/study_missing_dialog.h"
#include "app/gui/unsaved_guard.h"
#include "widgets/search_options_bar.h"
#include "widgets/search_results_view.h"
#include "widgets/signal_view.h"
#include "widgets/study_access.h"
#include "widgets/study_navigator.h"
#include "widgets/study_results_view.h"

using namespace warplab;

namespace {
constexpr int kRate = 64;
struct FileSpec {
    const char* name;
    int minute, second, seconds;  // start 2021-05-06 10:mm:ss, duration
    double burstAt;               // a 1-s 5 Hz burst here (-1: none)
    double seizureStart, seizureEnd;
};
// a: 10:00:00 +60 s; b: 10:01:00 +40 s (no gap); c: 10:03:00 +50 s (gap of 80 s after b).
// The burst of a (5 s) is the query; its twin in c (40 s) is what the study search must find.
const FileSpec kFiles[] = {{"s_a.edf", 0, 0, 60, 5, 20, 30}, {"s_b.edf", 1, 0, 40, -1, 0, 0}, {"s_c.edf", 3, 0, 50, 40, 10, 25}};

double value(int f, int c, long k, const FileSpec& s) {
    const double t = double(k) / kRate;
    std::uint32_t h = std::uint32_t(k * 2654435761u) ^ std::uint32_t((f * 31 + c) * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    double v = 20 * std::sin(2 * M_PI * (7 + c) * t) + 10 * (double(h % 2001) / 1000.0 - 1.0);
    if (t >= s.seizureStart && t < s.seizureEnd) v = 2.5 * v + 60 * std::sin(2 * M_PI * 3 * t + f);
    if (s.burstAt >= 0 && t >= s.burstAt && t < s.burstAt + 1) {
        const double u = t - s.burstAt;
        v += 200 * std::sin(2 * M_PI * 5 * u) * std::sin(M_PI * u);
    }
    return v;
}

void writeStudy(const QString& dir, bool missingEntry) {
    for (int f = 0; f < 3; ++f) {
        const FileSpec& s = kFiles[f];
        std::vector<io::EdfWriterSignal> sig = {{"FP1-F7", "uV", "", "", -500, 500, -32768, 32767, kRate},
                                                {"CZ", "uV", "", "", -500, 500, -32768, 32767, kRate}};
        io::EdfWriterHeader h;
        h.year = 2021, h.month = 5, h.day = 6, h.hour = 10, h.minute = s.minute, h.second = s.second;
        io::EdfWriter w((dir + "/" + s.name).toStdString(), h, sig);
        std::vector<double> rec(sig.size() * kRate);
        for (int r = 0; r < s.seconds; ++r) {
            for (int c = 0; c < 2; ++c)
                for (int q = 0; q < kRate; ++q) rec[std::size_t(c * kRate + q)] = value(f, c, long(r) * kRate + q, s);
            w.writeRecordPhysical(rec.data());
        }
        w.close();
    }
    QString t = "Data Sampling Rate: 64 Hz\n\nChannels in EDF Files:\n**********************\nChannel 1: FP1-F7\nChannel 2: CZ\n\n";
    for (const FileSpec& s : kFiles) {
        const int start = 10 * 3600 + s.minute * 60 + s.second, end = start + s.seconds;
        auto hms = [](int x) { return QString::asprintf("%02d:%02d:%02d", x / 3600, x / 60 % 60, x % 60); };
        t += QString("File Name: %1\nFile Start Time: %2\nFile End Time: %3\n").arg(s.name, hms(start), hms(end));
        if (s.seizureEnd > s.seizureStart)
            t += QString("Number of Seizures in File: 1\nSeizure Start Time: %1 seconds\nSeizure End Time: %2 seconds\n\n")
                     .arg(int(s.seizureStart)).arg(int(s.seizureEnd));
        else
            t += "Number of Seizures in File: 0\n\n";
    }
    if (missingEntry) t += "File Name: s_x.edf\nFile Start Time: 10:05:00\nFile End Time: 10:06:00\nNumber of Seizures in File: 0\n\n";
    QFile out(dir + (missingEntry ? "/missing-summary.txt" : "/study-summary.txt"));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(t.toUtf8());
}

void snap(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS");
    if (dir.isEmpty()) return;
    QTest::qWait(100);
    w->grab().save(dir + "/" + name + ".png");
}

QString fileOf(const app::MainWindow& w) { return QFileInfo(w.document()->path()).fileName(); }
bool shows(const widgets::SignalView& v, double t) { return v.windowStart() <= t && t <= v.windowStart() + v.windowLength(); }
}  // namespace

class TestStudyGui : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_study_gui");
        QVERIFY(dir_.isValid());
        writeStudy(dir_.path(), false);
        writeStudy(dir_.path(), true);
    }
    void init() {
        w_ = new app::MainWindow;
        w_->resize(1400, 900);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_));
        w_->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });  // test_unsaved_marks asks
        w_->studyController()->setConfirm([this](const QString&, const QString& text) {
            asked_ << text;
            return goOn_;
        });
        asked_.clear();
        goOn_ = true;
    }
    void cleanup() {
        w_->jobs()->cancelAll();
        w_->jobs()->waitForIdle(60000);
        delete w_;
        w_ = nullptr;
    }

    void navigatorShowsRecordingsAndGap() {
        QVERIFY(w_->openStudy(dir_.path()));
        auto* nav = w_->studyNavigator();
        QCOMPARE(nav->recordingCount(), 3);
        QCOMPARE(nav->gapCount(), 1);
        QVERIFY(w_->findChild<QDockWidget*>("studyDock")->isVisible());
        QCOMPARE(fileOf(*w_), QString("s_a.edf"));  // the first recording is open
        QCOMPARE(nav->currentRecording(), 0);
        QVERIFY(asked_.isEmpty());  // nothing missing: no question
        // The gap lies between b's end and c's start on the time line.
        const int bEnd = nav->xOf(1, 40), cStart = nav->xOf(2, 0);
        QVERIFY2(cStart - bEnd > 20, qPrintable(QString("gap of %1 px").arg(cStart - bEnd)));
        QCOMPARE(nav->placeAt((bEnd + cStart) / 2).first, 2);  // a click in the gap: the next recording
        QCOMPARE(nav->placeAt((bEnd + cStart) / 2).second, 0.0);
        snap(w_, "study-navigator");
    }

    void clickOpensRecordingAtTime() {
        QVERIFY(w_->openStudy(dir_.path()));
        auto* nav = w_->studyNavigator();
        const int x = nav->xOf(2, 30);
        QTest::mouseClick(nav, Qt::LeftButton, {}, QPoint(x, nav->height() / 2));
        QCOMPARE(fileOf(*w_), QString("s_c.edf"));
        QCOMPARE(nav->currentRecording(), 2);
        const auto [rec, t] = nav->placeAt(x);
        QCOMPARE(rec, 2);
        QVERIFY(std::abs(t - 30) < 1.0);  // a pixel is about 0.25 s here
        QVERIFY2(shows(*w_->signalView(), t), qPrintable(QString("window %1 + %2, t %3").arg(w_->signalView()->windowStart())
                                                            .arg(w_->signalView()->windowLength()).arg(t)));
        // And back to b.
        QTest::mouseClick(nav, Qt::LeftButton, {}, QPoint(nav->xOf(1, 10), nav->height() / 2));
        QCOMPARE(fileOf(*w_), QString("s_b.edf"));
        QVERIFY(shows(*w_->signalView(), 10));
    }

    void missingFilesAsked() {
        goOn_ = false;
        QVERIFY(!w_->openStudy(dir_.path() + "/missing-summary.txt"));  // the user cancels
        QCOMPARE(asked_.size(), 1);
        QVERIFY(asked_[0].contains("s_x.edf"));
        QVERIFY(!w_->studyController()->study());
        goOn_ = true;
        QVERIFY(w_->openStudy(dir_.path() + "/missing-summary.txt"));  // the user goes on
        QCOMPARE(w_->studyNavigator()->recordingCount(), 4);
        QCOMPARE(w_->studyController()->study()->missing().size(), std::size_t(1));
        // A click on the missing recording opens nothing and says why.
        QSignalSpy errors(w_, &app::MainWindow::errorShown);
        QVERIFY(!w_->studyController()->goTo(3, 1));
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors[0][1].toString().contains("missing"));
        QVERIFY(fileOf(*w_) != "s_x.edf");
    }

    void studySearchJumpsToMatch() {
        QVERIFY(w_->openStudy(dir_.path() + "/study-summary.txt"));
        QCOMPARE(fileOf(*w_), QString("s_a.edf"));
        w_->document()->addRegion({io::RegionKind::Query, 0, 5, 6, "burst"});
        QVERIFY(w_->studyController()->searchQuery(app::SearchScope::StudyChannel, 5) != 0);
        auto* view = w_->studyResults();
        QTRY_VERIFY_WITH_TIMEOUT(!view->rows().empty(), 60000);
        QVERIFY(view->description().contains("every recording"));
        // The query does not find itself: its own place in a is excluded and
        // the header says so, so the best match is the twin burst of c at 40 s.
        QVERIFY2(view->description().contains("its own place excluded"), qPrintable(view->description()));
        // The query is samples 320..383 of a's FP1-F7 (64 Hz): no match there overlaps it, i.e.
        // none starts before 6 s and ends after 5 s.
        auto isSelf = [](const widgets::StudyResultRow& r) {
            return r.recordingName == "s_a.edf" && r.channel == "FP1-F7" && r.startS < 6 - 1e-9 && r.endS > 5 + 1e-9;
        };
        for (const auto& r : view->rows())
            QVERIFY2(!isSelf(r), qPrintable(QString("the query itself at %1-%2").arg(r.startS).arg(r.endS)));
        // The best match outside the query's own recording is the twin burst of c at 40 s.
        int row = -1;
        for (int i = 0; i < int(view->rows().size()) && row < 0; ++i)
            if (view->rows()[std::size_t(i)].recordingName != "s_a.edf") row = i;
        QVERIFY(row >= 0);
        const auto r = view->rows()[std::size_t(row)];
        QCOMPARE(r.recordingName, QString("s_c.edf"));
        QCOMPARE(r.channel, QString("FP1-F7"));
        QVERIFY2(std::abs(r.startS - 40) < 0.2 && std::abs(r.endS - 41) < 0.2, qPrintable(QString("%1-%2").arg(r.startS).arg(r.endS)));
        QVERIFY(r.clock.startsWith("2021-05-06T10:03:40"));
        view->activate(row);
        QCOMPARE(fileOf(*w_), QString("s_c.edf"));
        QCOMPARE(w_->studyNavigator()->currentRecording(), 2);
        QVERIFY(shows(*w_->signalView(), r.startS) && shows(*w_->signalView(), r.endS));
        snap(w_, "study-search");
        // The query's region stayed with a: back there, it is still marked.
        QVERIFY(w_->studyController()->goTo(0, 0));
        QCOMPARE(w_->document()->regions().size(), std::size_t(2));  // the summary's seizure and the query
    }

    void allChannelsSearch() {
        QVERIFY(w_->openStudy(dir_.path()));
        w_->document()->addRegion({io::RegionKind::Query, 0, 5, 6, "burst"});
        QVERIFY(w_->studyController()->searchQuery(app::SearchScope::StudyAllChannels, 6) != 0);
        auto* view = w_->studyResults();
        QTRY_VERIFY_WITH_TIMEOUT(!view->rows().empty(), 60000);
        QSet<QString> channels;
        for (const auto& r : view->rows()) channels << r.channel;
        QVERIFY(channels.contains("FP1-F7"));
        QVERIFY(view->description().contains("its own place excluded"));
        for (const auto& r : view->rows())  // nothing overlaps the query (5-6 s) in a's FP1-F7
            QVERIFY(!(r.recordingName == "s_a.edf" && r.channel == "FP1-F7" && r.startS < 6 - 1e-9 && r.endS > 5 + 1e-9));
        for (std::size_t i = 1; i < view->rows().size(); ++i) QVERIFY(view->rows()[i - 1].value <= view->rows()[i].value);
    }

    // "Every channel" of one open recording (no study): one list over its channels, ranked by
    // cost, the query's own place excluded in its own channel only, progress reported, and a
    // click on a match in another channel shows that time in that recording.
    void allChannelsOfTheOpenRecording() {
        QVERIFY(w_->openFile(QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf")));
        w_->document()->addRegion({io::RegionKind::Query, 0, 10, 11, "query"});
        QSignalSpy progress(w_->jobs(), &app::JobRunner::jobProgress);
        QVERIFY(w_->studyController()->searchQuery(app::SearchScope::AllChannels, 8) != 0);
        auto* view = w_->studyResults();
        QTRY_VERIFY_WITH_TIMEOUT(!view->rows().empty(), 60000);
        QVERIFY(progress.count() > 0);
        QVERIFY2(view->description().contains("every channel of") && view->description().contains("its own place excluded"),
                 qPrintable(view->description()));
        QCOMPARE(view->rows().size(), std::size_t(8));
        QSet<QString> channels;
        const QString own = w_->document()->channelName(0);
        for (const auto& r : view->rows()) {
            channels << r.channel;
            QCOMPARE(r.recordingName, QString("chb01_03_Seizure.edf"));
            // The recording's own clock (its header starts at 14:32:59 on 06.11.76, read as 2076
            // by EDF's rule), as the signal view's clock axis shows it.
            QVERIFY2(r.clock.startsWith("2076-11-06T14:3"), qPrintable(r.clock));
            // 256 samples from 10 s at 256 Hz: in its own channel no match overlaps 10-11 s.
            QVERIFY2(!(r.channel == own && r.startS < 11 - 1e-9 && r.endS > 10 + 1e-9),
                     qPrintable(QString("the query itself at %1-%2").arg(r.startS).arg(r.endS)));
        }
        QVERIFY2(channels.size() > 1, "matches from several channels");
        for (std::size_t i = 1; i < view->rows().size(); ++i) QVERIFY(view->rows()[i - 1].value <= view->rows()[i].value);
        int other = -1;
        for (int i = 0; i < int(view->rows().size()) && other < 0; ++i)
            if (view->rows()[std::size_t(i)].channel != own) other = i;
        QVERIFY(other >= 0);
        const auto r = view->rows()[std::size_t(other)];
        view->activate(other);
        QCOMPARE(fileOf(*w_), QString("chb01_03_Seizure.edf"));
        QVERIFY(shows(*w_->signalView(), r.startS) && shows(*w_->signalView(), r.endS));
        snap(w_, "all-channels-search");
    }

    // The Search panel's options hold for the study-wide search too: window mode (z-normalised,
    // band 5 %) with the query's own place excluded around its start, then "include the query
    // itself", which finds it at its own place with cost 0 (its z is the window's z, exactly).
    void studySearchFollowsSearchPanel() {
        QVERIFY(w_->openStudy(dir_.path() + "/study-summary.txt"));
        w_->document()->addRegion({io::RegionKind::Query, 0, 5, 6, "burst"});
        widgets::SearchChoice choice;
        choice.window = true;
        choice.bandPercent = 5;
        w_->searchView()->options()->setChoice(choice);
        QVERIFY(w_->studyController()->searchQuery(app::SearchScope::StudyChannel, 5) != 0);
        auto* view = w_->studyResults();
        QTRY_VERIFY_WITH_TIMEOUT(!view->rows().empty(), 60000);
        QVERIFY2(view->description().contains("z-normalised window search, band 3"), qPrintable(view->description()));
        QVERIFY2(view->description().contains("its own place excluded"), qPrintable(view->description()));
        // 64 samples at 64 Hz from sample 320: no window of a's FP1-F7 overlaps them (starts 257..383).
        for (const auto& r : view->rows()) {
            QVERIFY2(!(r.recordingName == "s_a.edf" && r.channel == "FP1-F7" && r.startS > 4 + 1e-9 && r.startS < 6 - 1e-9),
                     qPrintable(QString("the query itself at %1").arg(r.startS)));
            QVERIFY2(std::abs(r.endS - r.startS - 1.0) < 1e-9, "a window match is as long as the query");
        }
        for (std::size_t i = 1; i < view->rows().size(); ++i) QVERIFY(view->rows()[i - 1].value <= view->rows()[i].value);
        bool twin = false;  // the twin burst of c at 40 s is among the matches
        for (const auto& r : view->rows()) twin = twin || (r.recordingName == "s_c.edf" && std::abs(r.startS - 40) < 0.2);
        QVERIFY(twin);
        snap(w_, "study-search-window");

        choice.includeSelf = true;
        w_->searchView()->options()->setChoice(choice);
        QVERIFY(w_->studyController()->searchQuery(app::SearchScope::StudyChannel, 5) != 0);
        QTRY_VERIFY_WITH_TIMEOUT(!view->description().contains("its own place excluded") && !view->rows().empty(), 60000);
        const auto best = view->rows().front();
        QCOMPARE(best.recordingName, QString("s_a.edf"));
        QVERIFY2(std::abs(best.startS - 5) < 1e-9 && best.value < 1e-6, qPrintable(QString("%1 at %2").arg(best.value).arg(best.startS)));
        w_->searchView()->options()->setChoice(widgets::SearchChoice{});
    }

    void studyPatternsJumpToPattern() {
        QVERIFY(w_->openStudy(dir_.path() + "/study-summary.txt"));
        QVERIFY(w_->studyController()->findPatterns(0, 64, 32) != 0);
        auto* view = w_->studyResults();
        QTRY_VERIFY_WITH_TIMEOUT(!view->rows().empty(), 120000);
        QVERIFY2(view->description().contains("over 3 recordings"), qPrintable(view->description()));
        // Patterns come from the seizures: a 20-30 s, c 10-25 s (one-second patterns inside).
        QSet<QString> from;
        for (const auto& r : view->rows()) {
            from << r.recordingName;
            const double lo = r.recordingName == "s_a.edf" ? 20 : 10, hi = r.recordingName == "s_a.edf" ? 30 : 25;
            QVERIFY2(r.startS >= lo - 1e-9 && r.endS <= hi + 1e-9, qPrintable(QString("%1 %2").arg(r.recordingName).arg(r.startS)));
        }
        QVERIFY(from.contains("s_a.edf") && from.contains("s_c.edf") && !from.contains("s_b.edf"));
        int row = 0;
        while (view->rows()[std::size_t(row)].recordingName != "s_c.edf") ++row;
        view->activate(row);
        QCOMPARE(fileOf(*w_), QString("s_c.edf"));
        QVERIFY(shows(*w_->signalView(), view->rows()[std::size_t(row)].startS));
        snap(w_, "study-patterns");
        // A seizure the user marks on b counts in the next run: b gives patterns too.
        QVERIFY(w_->studyController()->goTo(1, 0));
        w_->document()->addRegion({io::RegionKind::Seizure, -1, 5, 9, "mine"});
        QCOMPARE(w_->studyNavigator()->seizures().size(), std::size_t(3));
        QVERIFY(w_->studyController()->findPatterns(0, 64, 32) != 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->description().contains("ictal") && [&] {
            for (const auto& r : view->rows())
                if (r.recordingName == "s_b.edf") return true;
            return false;
        }(), 120000);
    }

    // Study-wide jobs name their recordings: opening another recording while one runs (or
    // before its result is delivered) does not cancel it; a single-recording job is cancelled.
    void studyJobOutlivesRecordingChange() {
        QVERIFY(w_->openStudy(dir_.path() + "/study-summary.txt"));
        QSignalSpy cancelled(w_->jobs(), &app::JobRunner::jobCancelled);
        const quint64 id = w_->studyController()->findPatterns(0, 64, 32);
        QVERIFY(id != 0);
        QVERIFY(w_->studyController()->goTo(1, 5));  // before the event loop can deliver the result
        QCOMPARE(fileOf(*w_), QString("s_b.edf"));
        QTRY_VERIFY_WITH_TIMEOUT(!w_->studyResults()->rows().empty(), 120000);
        QCOMPARE(cancelled.size(), 0);
    }

    // The two CHB-MIT excerpts of tests/data as a two-file study (23 channels, 256 Hz): a
    // search of every channel of both recordings finds the query itself first (cost 0, at its
    // place), and a click on another match opens its recording at its time.
    void realTwoFileStudySearch() {
        const QString folder = QStringLiteral(WARPLAB_TEST_DATA "/chbmit");
        QVERIFY2(QFile::exists(folder + "/chb01_03_Seizure.edf"), qPrintable(folder + "/chb01_03_Seizure.edf is missing (tests/data)"));
        QVERIFY(w_->openStudy(folder));
        QCOMPARE(w_->studyNavigator()->recordingCount(), 2);
        QCOMPARE(w_->studyNavigator()->gapCount(), 1);
        const auto study = w_->studyController()->study();
        const int open = w_->studyController()->currentRecording();
        w_->document()->addRegion({io::RegionKind::Query, 0, 2, 3, "q"});
        QVERIFY(w_->studyController()->searchQuery(app::SearchScope::StudyAllChannels, 5) != 0);
        auto* view = w_->studyResults();
        QTRY_VERIFY_WITH_TIMEOUT(!view->rows().empty(), 120000);
        QVERIFY(view->description().contains("46 series"));  // 2 recordings x 23 channels
        // The query (2-3 s of channel 0, 256 Hz: samples 512..767) does not find itself: in its own
        // recording and channel no match overlaps 2-3 s.
        QVERIFY2(view->description().contains("its own place excluded"), qPrintable(view->description()));
        for (const auto& r : view->rows())
            QVERIFY2(!(r.recording == open && r.channel == w_->document()->channelName(0) && r.startS < 3 - 1e-9 &&
                       r.endS > 2 + 1e-9),
                     qPrintable(QString("%1 %2-%3").arg(r.channel).arg(r.startS).arg(r.endS)));
        const auto other = view->rows()[1];
        view->activate(1);
        QCOMPARE(fileOf(*w_), QString::fromStdString(study->recordings()[std::size_t(other.recording)].name));
        QVERIFY(shows(*w_->signalView(), other.startS));
        QCOMPARE(w_->document()->channelName(w_->signalView()->currentChannel()), other.channel);
        snap(w_, "study-search-chbmit");
    }

    // File > Open study on a folder that holds a CHB-MIT summary: its seizures come from it. The
    // CHB-MIT excerpts are not named by the summary (chb01_03.edf is); each is placed by its
    // clock start: chb01_03_Seizure.edf starts 2995 s into chb01_03, so the summary's seizure
    // (2996-3036 s) is 1-41 s there; chb01_03_NonSeizure.edf (0-41 s) has none.
    void folderWithSummaryUsesIt() {
        const QString folder = QStringLiteral(WARPLAB_TEST_DATA "/chbmit");
        QVERIFY2(QFile::exists(folder + "/chb01-summary.txt"), "chb01-summary.txt is missing (tests/data/chbmit)");
        QVERIFY(w_->openStudy(folder));
        const auto st = w_->studyController()->study();
        QVERIFY(w_->studyController()->summaryUsed().endsWith("chb01-summary.txt"));
        QCOMPARE(st->seizures().size(), std::size_t(1));
        const auto& sz = st->seizures().front();
        QCOMPARE(QString::fromStdString(st->recordings()[std::size_t(sz.recording)].name), QString("chb01_03_Seizure.edf"));
        QCOMPARE(sz.startS, 1.0);
        QCOMPARE(sz.endS, 41.0);
        const QString msg = w_->statusBar()->currentMessage();
        QVERIFY2(msg.contains("1 seizure,") || msg.contains("1 seizure (") && msg.contains("(from chb01-summary.txt)"), qPrintable(msg));
        // Opening that recording shows the seizure as a region.
        QVERIFY(w_->studyController()->goTo(sz.recording, 0));
        bool marked = false;
        for (const auto& r : w_->document()->regions())
            marked = marked || (r.kind == io::RegionKind::Seizure && r.startS == 1.0 && r.endS == 41.0);
        QVERIFY(marked);
    }

    // A summary copied without its recordings: the message names the summary and its folder,
    // the 42 paths come one per line (never wrapped), and the way on is to choose the folder
    // where the recordings are, which then opens with the summary's seizures.
    void summaryWithoutRecordingsOffersFolder() {
        const QString data = QStringLiteral(WARPLAB_TEST_DATA "/chbmit");
        QVERIFY2(QFile::exists(data + "/chb01-summary.txt"), "chb01-summary.txt is missing (tests/data/chbmit)");
        QTemporaryDir alone;
        const QString summary = alone.path() + "/chb01-summary.txt";
        QVERIFY(QFile::copy(data + "/chb01-summary.txt", summary));
        QString title, text, start;
        QStringList paths;
        QString answer;
        w_->studyController()->setChooseFolder([&](const QString& t, const QString& x, const QStringList& p, const QString& s) {
            title = t;
            text = x;
            paths = p;
            start = s;
            return answer;
        });
        QSignalSpy errors(w_, &app::MainWindow::errorShown);
        QVERIFY(!w_->openStudy(summary));  // the user closes the box: nothing opens
        QVERIFY(!w_->studyController()->study());
        QVERIFY2(title.contains("chb01-summary.txt"), qPrintable(title));
        QVERIFY2(text.contains("named by the summary chb01-summary.txt") && text.contains(QDir::toNativeSeparators(alone.path())),
                 qPrintable(text));
        QCOMPARE(paths.size(), 42);
        QCOMPARE(paths.front(), QDir::toNativeSeparators(alone.path() + "/chb01_01.edf"));
        for (const QString& p : paths) QVERIFY(!p.contains('\n') && p.endsWith(".edf"));
        QCOMPARE(start, alone.path());
        QCOMPARE(errors.size(), 0);  // the box was the message; no second one
        // The dialog itself: the paths one per line, unwrapped, and the button beside Close.
        app::StudyMissingDialog box(title, text, paths, start);
        QCOMPARE(box.pathList()->lineWrapMode(), QPlainTextEdit::NoWrap);
        QCOMPARE(box.pathList()->blockCount(), 42);
        QVERIFY(box.findChild<QPushButton*>("chooseFolder"));
        // Choosing the folder with the recordings opens it with the summary's seizures.
        answer = data;
        QVERIFY(w_->openStudy(summary));
        const auto st = w_->studyController()->study();
        QVERIFY(st);
        QCOMPARE(st->recordings().size(), std::size_t(2));
        QCOMPARE(st->seizures().size(), std::size_t(1));
        QCOMPARE(w_->studyController()->summaryUsed(), summary);
    }

    void sessionKeepsStudy() {
        const QString session = dir_.path() + "/s.warplab.json";
        QVERIFY(w_->openStudy(dir_.path() + "/study-summary.txt"));
        QVERIFY(w_->studyController()->goTo(2, 0));
        w_->document()->addRegion({io::RegionKind::Query, 1, 3, 4, "in c"});
        QVERIFY(w_->studyController()->goTo(1, 0));
        w_->document()->addRegion({io::RegionKind::Reference, 0, 2, 7, "in b"});
        QVERIFY(w_->saveSession(session));
        cleanup();
        init();
        QVERIFY(w_->openSession(session));
        QVERIFY(w_->studyController()->study());
        QCOMPARE(w_->studyNavigator()->recordingCount(), 3);
        QCOMPARE(fileOf(*w_), QString("s_b.edf"));
        QCOMPARE(w_->studyController()->currentRecording(), 1);
        QCOMPARE(w_->document()->regions().size(), std::size_t(1));
        QCOMPARE(w_->document()->regions()[0].note, std::string("in b"));
        QVERIFY(w_->studyController()->goTo(2, 0));
        const auto& c = w_->document()->regions();
        QVERIFY(std::any_of(c.begin(), c.end(), [](const io::Region& r) { return r.note == "in c" && r.channel == 1 && r.startS == 3; }));
        // A session without a study (an older file) closes the study.
        w_->studyController()->close();
        QVERIFY(w_->saveSession(session));
        cleanup();
        init();
        QVERIFY(w_->openSession(session));
        QVERIFY(!w_->studyController()->study());
        QVERIFY(!w_->findChild<QDockWidget*>("studyDock")->isVisible());
    }

private:
    QTemporaryDir dir_;
    app::MainWindow* w_ = nullptr;
    QStringList asked_;
    bool goOn_ = true;
};

QTEST_MAIN(TestStudyGui)
#include "test_study_gui.moc"
