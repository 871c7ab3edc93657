// The options of the detector's cross-validation, offscreen: the dialog opens with
// `warplab-cli crossval`'s defaults, the channel in view and the metric panel's band; settings
// that cannot run (no channel, more votes than patterns, channels of different rates) are said
// and OK stays off; on the real main window, what is set in the dialog opened by the Analysis
// action reaches the job's result (each fold's detector: its channels, patterns per channel,
// epoch, stride, band, operating point and rule; the folds and the scoring rules) and is
// offered again the next time.
// Before any Qt header: the EDF writer's constructor has a parameter named `signals` (a Qt macro).
#include "tests/widgets/synthetic_edf_study.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <functional>

#include "app/gui/crossval_dialog.h"
#include "app/gui/detection_jobs.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/unsaved_guard.h"
#include "compute/detect/crossval.h"
#include "widgets/detection_view.h"
#include "widgets/metric_panel.h"

using namespace warplab;
using app::CrossvalDialog;

namespace {

std::vector<CrossvalDialog::Channel> twoChannels() { return {{"EEG", 256}, {"EEG2", 256}}; }

void check(QListWidget* list, const QStringList& names) {
    for (int i = 0; i < list->count(); ++i)
        list->item(i)->setCheckState(names.contains(list->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
}

QPushButton* okButton(QDialog* d) { return d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok); }

// Runs `fill` on the dialog the action opens, once it is shown (the action waits in exec());
// a dialog that `fill` leaves open (a check failed) is cancelled, so that the test goes on.
void whenDialogOpens(const std::function<void(CrossvalDialog*)>& fill) {
    QTimer::singleShot(0, [fill] {
        auto* d = qobject_cast<CrossvalDialog*>(QApplication::activeModalWidget());
        QVERIFY2(d, "the action opened no cross-validation dialog");
        fill(d);
        if (d->isVisible()) d->reject();
    });
}

}  // namespace

class TestCrossvalDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_crossval_dialog");
        QSettings().remove("crossval");
        study_ = testing::syntheticStudy();
        QVERIFY(dir_.isValid());
        testing::writeEdfStudy(dir_.path(), study_, 2);
    }

    void opensWithTheCliDefaults() {
        CrossvalDialog d(twoChannels(), "EEG2", compute::CrossvalFolds::Recording, 12);
        const app::CrossvalSettings s = d.settings();
        const compute::CrossvalOptions cli;  // what `warplab-cli crossval` runs without options
        QCOMPARE(s.channels, QStringList{"EEG2"});
        QCOMPARE(s.epoch, 1024);
        QCOMPARE(s.stride, 256);
        QCOMPARE(s.band, 12);  // the metric panel's
        QCOMPARE(s.options.folds, compute::CrossvalFolds::Recording);  // the action's
        QCOMPARE(s.options.build.top, cli.build.top);
        QCOMPARE(s.options.build.operatingPoint.kind, compute::OperatingPoint::Kind::Youden);
        QCOMPARE(s.options.build.rule.votes, cli.build.rule.votes);
        QCOMPARE(s.options.build.rule.minEpochs, cli.build.rule.minEpochs);
        QCOMPARE(s.options.build.rule.mergeGapS, cli.build.rule.mergeGapS);
        QCOMPARE(s.options.event.toleranceBeforeS, cli.event.toleranceBeforeS);
        QCOMPARE(s.options.event.toleranceAfterS, cli.event.toleranceAfterS);
        QCOMPARE(s.options.event.mergeGapS, cli.event.mergeGapS);
        QCOMPARE(s.options.event.maxEventS, cli.event.maxEventS);
        QCOMPARE(s.options.event.minOverlap, cli.event.minOverlap);
        QCOMPARE(s.options.sample.sampleHz, cli.sample.sampleHz);
        QVERIFY(d.problem().isEmpty());
        QVERIFY(okButton(&d)->isEnabled());
        // The epoch in seconds, for a person.
        QVERIFY(d.findChildren<QLabel*>().size() > 0);
        bool said = false;
        for (QLabel* l : d.findChildren<QLabel*>()) said = said || l->text().contains("4.00 s epochs every 1.00 s at 256 Hz");
        QVERIFY(said);
    }

    void invalidSettingsAreRefused() {
        QSettings().remove("crossval");
        CrossvalDialog d(twoChannels(), "EEG", compute::CrossvalFolds::Seizure, 16);
        d.show();
        auto* label = d.findChild<QLabel*>("crossvalProblem");
        QVERIFY(label);
        d.findChild<QSpinBox*>("crossvalTop")->setValue(2);
        check(d.findChild<QListWidget*>("crossvalChannels"), {"EEG", "EEG2"});
        d.findChild<QSpinBox*>("crossvalVotes")->setValue(4);  // 2 x 2: the most there can be
        QVERIFY(d.problem().isEmpty());
        QVERIFY(okButton(&d)->isEnabled());
        d.findChild<QSpinBox*>("crossvalVotes")->setValue(5);
        QVERIFY(!okButton(&d)->isEnabled());
        QVERIFY(label->isVisible());
        QVERIFY2(label->text().contains("Votes needed (5)") && label->text().contains("2 per channel × 2 = 4"),
                 qPrintable(label->text()));
        if (!qEnvironmentVariableIsEmpty("WARPLAB_TEST_SCREENSHOTS"))
            d.grab().save(qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS") + "/crossval_dialog_refused.png");
        d.accept();  // as Enter would: refused, nothing kept
        QVERIFY(d.isVisible());
        QCOMPARE(d.result(), int(QDialog::Rejected));
        QVERIFY(!QSettings().contains("crossval/votes"));
        // No channel at all.
        check(d.findChild<QListWidget*>("crossvalChannels"), {});
        QVERIFY(!okButton(&d)->isEnabled());
        QVERIFY2(label->text().contains("at least one channel"), qPrintable(label->text()));
        // Back to runnable settings: the message goes.
        check(d.findChild<QListWidget*>("crossvalChannels"), {"EEG"});
        d.findChild<QSpinBox*>("crossvalVotes")->setValue(2);
        QVERIFY(okButton(&d)->isEnabled());
        QVERIFY(!label->isVisible());
        // Channels of different rates cannot vote together (the detector would refuse them after
        // the pattern matrices; the dialog says so before).
        CrossvalDialog mixed({{"EEG", 256}, {"EMG", 512}}, "EEG", compute::CrossvalFolds::Seizure, 16);
        QVERIFY(mixed.problem().isEmpty());
        check(mixed.findChild<QListWidget*>("crossvalChannels"), {"EEG", "EMG"});
        QVERIFY2(mixed.problem().contains("EEG is sampled at 256 Hz, EMG at 512 Hz"), qPrintable(mixed.problem()));
        QVERIFY(!okButton(&mixed)->isEnabled());
        // The job refuses the same settings given past the dialog, with the same words.
        app::MainWindow w;
        w.unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w.openStudy(dir_.filePath("syn-summary.txt")));
        QSignalSpy errors(w.detectionJobs(), &app::DetectionJobs::errorOccurred);
        app::CrossvalSettings bad;
        bad.channels = {"EEG", "EEG2"};
        bad.options.build.top = 1;
        bad.options.build.rule.votes = 3;
        QCOMPARE(w.detectionJobs()->crossValidate(bad), quint64(0));
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.at(0).at(1).toString().contains("1 per channel × 2 = 2"));
        bad.options.build.rule.votes = 1;
        bad.channels = {"EEG", "nowhere"};
        QCOMPARE(w.detectionJobs()->crossValidate(bad), quint64(0));
        QCOMPARE(errors.count(), 2);
        QVERIFY2(errors.at(1).at(1).toString().contains("nowhere"), qPrintable(errors.at(1).at(1).toString()));
    }

    void theDialogsOptionsReachTheResult() {
        QSettings().remove("crossval");
        app::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w.openStudy(dir_.filePath("syn-summary.txt")));
        QAction* action = w.actions().action("analysis.studyDetectorRecordings");
        QVERIFY(action);
        whenDialogOpens([](CrossvalDialog* d) {
            QCOMPARE(d->settings().options.folds, compute::CrossvalFolds::Recording);
            check(d->findChild<QListWidget*>("crossvalChannels"), {"EEG", "EEG2"});
            d->findChild<QSpinBox*>("crossvalTop")->setValue(2);
            d->findChild<QSpinBox*>("crossvalVotes")->setValue(3);
            d->findChild<QComboBox*>("crossvalOperatingPoint")->setCurrentIndex(1);
            d->findChild<QDoubleSpinBox*>("crossvalFpr")->setValue(5);
            d->findChild<QSpinBox*>("crossvalMinEpochs")->setValue(2);
            d->findChild<QDoubleSpinBox*>("crossvalEventGap")->setValue(4);
            d->findChild<QSpinBox*>("crossvalEpoch")->setValue(768);
            d->findChild<QSpinBox*>("crossvalStride")->setValue(384);
            d->findChild<QSpinBox*>("crossvalBand")->setValue(8);
            d->findChild<QDoubleSpinBox*>("crossvalToleranceBefore")->setValue(20);
            d->findChild<QDoubleSpinBox*>("crossvalMaxEvent")->setValue(0);
            if (!qEnvironmentVariableIsEmpty("WARPLAB_TEST_SCREENSHOTS"))
                d->grab().save(qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS") + "/crossval_dialog.png");
            QVERIFY(okButton(d)->isEnabled());
            QTest::mouseClick(okButton(d), Qt::LeftButton);
        });
        action->trigger();
        if (QTest::currentTestFailed()) return;
        auto* view = w.detectionView();
        QTRY_VERIFY_WITH_TIMEOUT(view->cache() != nullptr, 600000);
        const compute::CrossvalCache& cache = *view->cache();
        QCOMPARE(cache.options.folds, compute::CrossvalFolds::Recording);
        QCOMPARE(cache.folds.size(), study_.samples.size());  // the quiet recording is held out too
        QCOMPARE(cache.options.event.toleranceBeforeS, 20.0);
        QCOMPARE(cache.options.event.maxEventS, 0.0);
        for (const compute::CachedFold& f : cache.folds) {
            const compute::Detector& d = f.detector;
            QCOMPARE(d.channels(), (std::vector<std::string>{"EEG", "EEG2"}));
            QCOMPARE(d.patterns.size(), std::size_t(4));
            for (const auto& p : d.patterns) QCOMPARE(p.samples.size(), std::size_t(768));
            QCOMPARE(int(std::count_if(d.patterns.begin(), d.patterns.end(), [](const auto& p) { return p.channel == "EEG"; })), 2);
            QCOMPARE(d.epoch, 768);
            QCOMPARE(d.stride, 384);
            QCOMPARE(d.band, 8);
            QCOMPARE(d.operatingPoint.kind, compute::OperatingPoint::Kind::FalsePositiveRate);
            QVERIFY(std::abs(d.operatingPoint.target - 0.05) < 1e-12);
            QCOMPARE(d.rule.votes, 3);
            QCOMPARE(d.rule.minEpochs, 2);
            QCOMPARE(d.rule.mergeGapS, 4.0);
            // Each pattern's epoch false-positive rate is within the target on its training epochs.
            for (const auto& p : d.patterns) QVERIFY(p.trainingFpr <= 0.05 + 1e-12);
        }
        // The view starts from the chosen operating point and votes.
        QCOMPARE(view->votes(), 3);
        QCOMPARE(view->operatingPoint().kind, compute::OperatingPoint::Kind::FalsePositiveRate);
        // The next time, the dialog offers what was chosen (the band is the panel's again).
        whenDialogOpens([&w](CrossvalDialog* d) {
            const app::CrossvalSettings s = d->settings();
            QCOMPARE(s.channels, (QStringList{"EEG", "EEG2"}));
            QCOMPARE(s.options.build.top, std::size_t(2));
            QCOMPARE(s.options.build.rule.votes, 3);
            QCOMPARE(s.options.build.operatingPoint.kind, compute::OperatingPoint::Kind::FalsePositiveRate);
            QCOMPARE(s.epoch, 768);
            QCOMPARE(s.stride, 384);
            QCOMPARE(s.band, w.metricPanel()->params().band);
            QCOMPARE(s.options.folds, compute::CrossvalFolds::Seizure);  // this action's
            d->reject();
        });
        QSignalSpy started(w.jobs(), &app::JobRunner::jobStarted);
        w.actions().action("analysis.studyDetector")->trigger();
        QCoreApplication::processEvents();
        QCOMPARE(started.count(), 0);  // cancelled: nothing runs
        w.jobs()->cancelAll();
        w.jobs()->waitForIdle(60000);
    }

private:
    testing::SyntheticStudy study_;
    QTemporaryDir dir_;
};

QTEST_MAIN(TestCrossvalDialog)
#include "test_crossval_dialog.moc"
