// The Detection view, offscreen: built from a synthetic study with planted seizures
// (tests/io/synthetic_study.h), its hits, misses, detections and false alarms are the counts
// compute/scoring gives for the same events; moving the operating point or the votes re-scores
// without computing a single distance; its exports read back through io/. On the real main
// window: the same study written as EDF files with a CHB-MIT style summary, the job run from
// the window, and a click on a detection opens its recording there with the pattern drawn over
// the traces.
// Before any Qt header: the EDF writer's constructor has a parameter named `signals` (a Qt macro).
#include "tests/widgets/synthetic_edf_study.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/gui/detection_jobs.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/study_controller.h"
#include "app/gui/unsaved_guard.h"
#include "compute/detect/crossval.h"
#include "io/events_tsv.h"
#include "tests/io/synthetic_study.h"
#include "widgets/detection_view.h"
#include "widgets/signal_view.h"

using namespace warplab;
using widgets::EventKind;

namespace {

compute::RunOptions cpu() {
    compute::RunOptions o;
    o.backend = compute::Backend::Cpu;
    return o;
}

compute::CrossvalOptions smallOptions() {
    compute::CrossvalOptions o;
    o.build.top = 3;
    o.build.rule.votes = 1;
    return o;
}

// What compute/scoring says of the view's folds, counted independently of the view.
widgets::DetectionView::Counts scoredCounts(const compute::CrossvalResult& r) {
    widgets::DetectionView::Counts c;
    for (const auto& f : r.folds) {
        std::vector<compute::TimedEvent> ref, hyp;
        for (const auto& o : f.outcomes) ref.push_back(o.seizure);
        for (const auto& e : f.detections) hyp.push_back({e.startS, e.endS});
        const auto s = compute::scoreEvents(ref, hyp, f.durationS);
        c.hits += s.scores.tp;
        c.misses += s.scores.reference - s.scores.tp;
        c.falseAlarms += s.scores.fp;
        c.detections += (long long)(s.hypothesis.size()) - s.scores.fp;
    }
    return c;
}

void compareCounts(const widgets::DetectionView& view) {
    const auto shown = view.counts();
    const auto scored = scoredCounts(view.result());
    QCOMPARE(shown.hits, scored.hits);
    QCOMPARE(shown.misses, scored.misses);
    QCOMPARE(shown.falseAlarms, scored.falseAlarms);
    QCOMPARE(shown.detections, scored.detections);
    QCOMPARE(shown.hits, view.result().event.tp);
    QCOMPARE(shown.falseAlarms, view.result().event.fp);
}

using testing::writeEdfStudy;

}  // namespace

class TestDetectionView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_detection_view");
        study_ = testing::syntheticStudy();
        QVERIFY(edfDir_.isValid());
        writeEdfStudy(edfDir_.path(), study_);
        // For a person to open in the application: the same study as EDF files and a summary.
        if (const QString out = qEnvironmentVariable("WARPLAB_TEST_DETECTION_STUDY"); !out.isEmpty()) {
            QDir().mkpath(out);
            writeEdfStudy(out, study_);
        }
        cache_ = std::make_shared<const compute::CrossvalCache>(compute::crossValidateCached({study_.request}, smallOptions(), cpu()));
    }

    void coloursAreTheScoresOfCompute() {
        widgets::DetectionView view;
        view.resize(1000, 600);
        view.show();
        view.setCache(cache_, "synthetic");
        QCoreApplication::processEvents();
        QCOMPARE(view.result().folds.size(), std::size_t(4));
        QCOMPARE(view.foldTable()->rowCount(), 4);
        compareCounts(view);
        const auto c = view.counts();
        QCOMPARE(c.hits + c.misses, 4LL);  // one planted seizure per held-out recording
        QVERIFY(c.hits >= 3);
        // Each event is drawn in its kind's colour, where it lies.
        QImage image = view.timeline()->grab().toImage();
        for (const auto& e : view.timeline()->events()) {
            const QRect r = view.timeline()->eventRect(e);
            QCOMPARE(image.pixelColor(r.center() * image.devicePixelRatio()), widgets::eventColor(e.kind));
        }
        // And the same over a sweep of operating points and votes.
        for (double fpr : {0.0001, 0.01, 0.3}) {
            view.setOperatingPoint({compute::OperatingPoint::Kind::FalsePositiveRate, fpr});
            for (int v = 1; v <= 3; ++v) {
                view.setVotes(v);
                compareCounts(view);
            }
        }
    }

    void missesAndFalseAlarmsAreDrawnAsSuch() {
        // The synthetic seizures are all found; to see the other colours, folds 0 and 1 are made
        // blind (no epoch near any pattern) and fold 1 then flags only its first 13 s, far
        // from its seizure (105-135 s, scored from 75 s on).
        auto edited = std::make_shared<compute::CrossvalCache>(*cache_);
        for (int f : {0, 1})
            for (auto& d : edited->folds[std::size_t(f)].detection.distances) std::fill(d.begin(), d.end(), 1e30);
        for (auto& d : edited->folds[1].detection.distances)
            for (std::size_t j = 0; j < 10 && j < d.size(); ++j) d[j] = 0;
        widgets::DetectionView view;
        view.resize(1000, 600);
        view.show();
        view.setCache(edited, "edited");
        QCoreApplication::processEvents();
        compareCounts(view);
        const auto c = view.counts();
        QVERIFY(c.misses >= 1);
        QVERIFY(c.falseAlarms >= 1);
        QImage image = view.timeline()->grab().toImage();
        int seen[4] = {0, 0, 0, 0};
        for (const auto& e : view.timeline()->events()) {
            const QRect r = view.timeline()->eventRect(e);
            QCOMPARE(image.pixelColor(r.center() * image.devicePixelRatio()), widgets::eventColor(e.kind));
            ++seen[int(e.kind)];
        }
        for (int k = 0; k < 4; ++k) QVERIFY(seen[k] > 0);  // hit, miss, detection, false alarm all drawn
        QCOMPARE(view.foldTable()->item(0, 3)->text(), QString("0"));  // fold 0 found nothing
        if (!qEnvironmentVariableIsEmpty("WARPLAB_TEST_SCREENSHOTS"))
            view.grab().save(qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS") + "/detection_colours.png");
    }

    void thresholdRescoresWithoutDistances() {
        widgets::DetectionView view;
        view.setCache(cache_, "synthetic");
        const long long distances = compute::epochDistanceCalls();
        const int rescores = view.rescoreCount();
        auto* slider = view.findChild<QSlider*>("detectionFprSlider");
        QVERIFY(slider);
        slider->setValue(0);  // 0.01 %: hardly any epoch may pass
        QCOMPARE(view.operatingPoint().kind, compute::OperatingPoint::Kind::FalsePositiveRate);
        const auto strict = view.counts();
        const long long strictSamples = view.result().sample.fp;
        slider->setValue(slider->maximum() * 3 / 4);  // 10 %
        const auto loose = view.counts();
        const long long looseSamples = view.result().sample.fp;
        view.findChild<QSpinBox*>("detectionVotes")->setValue(2);
        view.findChild<QComboBox*>("detectionOperatingPoint")->setCurrentIndex(0);
        QVERIFY(view.rescoreCount() >= rescores + 4);
        QCOMPARE(compute::epochDistanceCalls(), distances);  // not one DTW sweep
        // The control changes what is shown: more of the recordings flagged outside the seizures
        // (SzCORE merges events 90 s apart, so in these 4-minute recordings the event counts may not move).
        QVERIFY(looseSamples > strictSamples);
        QVERIFY(loose.hits >= strict.hits);
        // And what it shows is compute::rescore's at that setting.
        const auto expected = compute::rescore(*cache_, {}, {2, 1, 0}, {}, {});
        QCOMPARE(view.result().event.tp, expected.event.tp);
        QCOMPARE(view.result().event.fp, expected.event.fp);
        QVERIFY(view.lastRescoreMs() < 100);
        qInfo("re-scored %d times, the last in %.2f ms", view.rescoreCount(), view.lastRescoreMs());
    }

    void exportsReadBack() {
        widgets::DetectionView view;
        view.setCache(cache_, "synthetic");
        view.setOperatingPoint({compute::OperatingPoint::Kind::FalsePositiveRate, 0.05});
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(view.exportEvents(dir.path()), QString());
        for (const auto& f : view.result().folds) {
            const QString path = dir.filePath(QFileInfo(QString::fromStdString(f.recording)).completeBaseName() + "_events.tsv");
            const io::EventTable t = io::readEventsTsv(path.toStdString());
            QCOMPARE(t.rows.size(), f.detections.size());
            QVERIFY(t.recordingDurationS && std::abs(*t.recordingDurationS - f.durationS) < 1e-6);
            const auto back = io::seizureEvents(t);
            for (std::size_t i = 0; i < back.size(); ++i) {
                QVERIFY(std::abs(back[i].startS - f.detections[i].startS) < 1e-5);
                QVERIFY(std::abs(back[i].endS - f.detections[i].endS) < 1e-5);
                QCOMPARE(t.rows[i].channels, std::string("EEG"));
                QVERIFY(std::abs(*t.rows[i].confidence - f.detections[i].confidence) < 1e-5);
            }
            // Scored again from the file, it gives the view's fold.
            std::vector<compute::TimedEvent> ref;
            for (const auto& o : f.outcomes) ref.push_back(o.seizure);
            const auto again = compute::scoreEvents(ref, back, f.durationS);
            QCOMPARE(again.scores.tp, f.event.tp);
            QCOMPARE(again.scores.fp, f.event.fp);
        }
        const QString json = dir.filePath("scores.json");
        QCOMPARE(view.exportScores(json), QString());
        std::ifstream in(json.toStdString());
        const auto j = nlohmann::json::parse(in);
        QCOMPARE(j["operating_point"].get<std::string>(), std::string("fpr:0.05"));
        QCOMPARE(j["folds"].size(), view.result().folds.size());
        QCOMPARE(j["event"]["tp"].get<long long>(), view.result().event.tp);
        QCOMPARE(j["event"]["fp"].get<long long>(), view.result().event.fp);
        const QString csv = dir.filePath("scores.csv");
        QCOMPARE(view.exportScores(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), int(view.result().folds.size()) + 2);  // header, folds, pooled
        QVERIFY(lines.last().startsWith("\"pooled\","));
        // A folder that is not there is said, and nothing is written.
        QVERIFY(!view.exportEvents(dir.filePath("absent")).isEmpty());
    }

    void cancelledJobLeavesTheViewEmpty() {
        app::MainWindow w;
        w.show();
        w.unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w.openStudy(edfDir_.filePath("syn-summary.txt")));
        QSignalSpy cancelled(w.jobs(), &app::JobRunner::jobCancelled);
        QSignalSpy progress(w.jobs(), &app::JobRunner::jobProgress);
        const quint64 id = w.detectionJobs()->crossValidate("EEG", smallOptions());
        QVERIFY(id != 0);
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 60000);  // it runs, and says how far it is
        w.jobs()->cancel(id);
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(w.jobs()->waitForIdle(120000));
        QCoreApplication::processEvents();
        QVERIFY(w.detectionView()->cache() == nullptr);
        // A study with a seizure in one recording only is refused before any job runs.
        QSignalSpy errors(&w, &app::MainWindow::errorShown);
        QVERIFY(w.openStudy(QStringLiteral(WARPLAB_TEST_DATA "/chbmit")));
        QCOMPARE(w.detectionJobs()->crossValidate("FP1-F7", smallOptions()), quint64(0));
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.at(0).at(1).toString().contains("at least two recordings"));
    }

    void mainWindowRunsTheJobAndShowsAnEvent() {
        QTemporaryDir& dir = edfDir_;
        app::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w.openStudy(dir.filePath("syn-summary.txt")));
        QSignalSpy started(w.jobs(), &app::JobRunner::jobStarted);
        compute::CrossvalOptions o = smallOptions();
        QVERIFY(w.detectionJobs()->crossValidate("EEG", o) != 0);
        auto* view = w.detectionView();
        // Seconds in a release build; over 3 min under ASan on a loaded 2-core machine.
        QTRY_VERIFY_WITH_TIMEOUT(view->cache() != nullptr, 600000);
        QCOMPARE(started.count(), 1);
        QCOMPARE(view->result().folds.size(), std::size_t(4));
        compareCounts(*view);
        // The same study read from EDF gives the in-memory study's counts (16-bit samples aside,
        // the planted seizures are found alike).
        QVERIFY(view->counts().hits >= 3);
        const long long distances = compute::epochDistanceCalls();
        view->setOperatingPoint({compute::OperatingPoint::Kind::FalsePositiveRate, 0.02});
        view->setVotes(2);
        QCOMPARE(started.count(), 1);  // no job ran for the new operating point
        QCOMPARE(compute::epochDistanceCalls(), distances);
        // A click on a hit opens its recording there, with the matched pattern over the traces.
        view->setOperatingPoint({});
        view->setVotes(1);
        const auto& events = view->timeline()->events();
        auto hit = std::find_if(events.begin(), events.end(), [](const widgets::TimelineEvent& e) { return e.kind == EventKind::Detection; });
        QVERIFY(hit != events.end());
        const widgets::TimelineEvent e = *hit;
        w.detectionView()->timeline()->show();
        QTest::mouseClick(view->timeline(), Qt::LeftButton, {}, view->timeline()->eventRect(e).center());
        const auto& fold = view->result().folds[std::size_t(e.fold)];
        QTRY_COMPARE(QFileInfo(w.document()->path()).fileName(), QString::fromStdString(fold.recording));
        QVERIFY(w.signalView()->hasOverlayTrace());
        const double mid = (e.startS + e.endS) / 2;
        QVERIFY(w.signalView()->windowStart() <= e.endS && mid <= w.signalView()->windowStart() + w.signalView()->windowLength() + e.endS - e.startS);
        const auto place = view->placeOf(e);
        QCOMPARE(place.channel, QString("EEG"));
        QVERIFY(place.patternStartS + 4 > e.startS && place.patternStartS < e.endS);
        QVERIFY(place.distance <= place.threshold);  // a detection's best epoch voted
        if (!qEnvironmentVariableIsEmpty("WARPLAB_TEST_SCREENSHOTS"))
            w.grab().save(qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS") + "/detection_view.png");
        w.jobs()->cancelAll();
        w.jobs()->waitForIdle(60000);
    }

private:
    testing::SyntheticStudy study_;
    QTemporaryDir edfDir_;
    std::shared_ptr<const compute::CrossvalCache> cache_;
};

QTEST_MAIN(TestDetectionView)
#include "test_detection_view.moc"
