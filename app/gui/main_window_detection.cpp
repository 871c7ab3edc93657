// The main window's seizure detector parts, kept out of main_window.cpp: the Detection dock and
// the Analysis actions that cross-validate a detector over the open study, each asking its
// options first (CrossvalDialog). DetectionJobs does the work and DetectionView shows and
// re-scores it; this only places and connects them.
#include <QDockWidget>

#include "app/gui/crossval_dialog.h"
#include "app/gui/detection_jobs.h"
#include "app/gui/dock_layout.h"
#include "app/gui/document.h"
#include "app/gui/main_window.h"
#include "app/gui/study_controller.h"
#include "widgets/study_access.h"
#include "widgets/detection_view.h"
#include "widgets/metric_panel.h"
#include "widgets/signal_view.h"

namespace warplab::app {

void MainWindow::buildDetection() {
    detectionView_ = new widgets::DetectionView;
    auto* dock = new QDockWidget(tr("Detection"), this);
    dock->setObjectName("detectionDock");
    dock->setWidget(detectionView_);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    if (!resultDocks_.isEmpty()) tabifyDockWidget(resultDocks_.front(), dock);
    dock->setProperty(DockLayout::kOpensWithItsResult, true);  // not an empty tab on first use
    resultDocks_ << dock;
    detection_ = new DetectionJobs(study_, runner_, metric_, signal_, detectionView_, this);
    connect(detection_, &DetectionJobs::errorOccurred, this, &MainWindow::showError);
    connect(detection_, &DetectionJobs::viewRequested, this, &MainWindow::showView);
}

void MainWindow::addDetectionActions(const QString& analysis) {
    auto add = [this, &analysis](QString id, QString text, compute::CrossvalFolds folds) {
        actions_.add({std::move(id), analysis, std::move(text), {}, [this, folds] { askCrossValidation(folds); }, false, {}});
    };
    add("analysis.studyDetector", tr("Cross-validate a seizure de&tector over the study…"), compute::CrossvalFolds::Seizure);
    add("analysis.studyDetectorRecordings", tr("Cross-validate a seizure detector, every recording held out in turn…"),
        compute::CrossvalFolds::Recording);
}

quint64 MainWindow::askCrossValidation(compute::CrossvalFolds folds) {
    const auto study = study_->study();
    if (!study) return detection_->crossValidate(CrossvalSettings{});  // says to open one
    std::vector<CrossvalDialog::Channel> channels;
    for (const io::StudyChannel& c : study->channels())
        if (c.recordingCount > 0) channels.push_back({QString::fromStdString(c.name), c.rateHz});
    CrossvalDialog dialog(std::move(channels), doc_->channelName(std::max(0, signal_->currentChannel())), folds,
                          metric_->params().band, this);
    if (dialog.exec() != QDialog::Accepted) return 0;
    return detection_->crossValidate(dialog.settings());
}

}  // namespace warplab::app
