// The main window's study parts, kept out of main_window.cpp:
// the navigator strip, the study results dock, the File ▸ Open study actions and the
// study-wide analyses. StudyController does the work; this only places and connects it.
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>

#include "app/gui/analysis_controller.h"
#include "app/gui/dock_layout.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/study_controller.h"
#include "app/gui/unsaved_guard.h"
#include "widgets/counted.h"
#include "widgets/search_options_bar.h"
#include "widgets/search_results_view.h"
#include "widgets/study_access.h"
#include "widgets/signal_view.h"
#include "widgets/study_navigator.h"
#include "widgets/study_results_view.h"

namespace warplab::app {
using widgets::counted;

void MainWindow::buildStudy() {
    studyNav_ = new widgets::StudyNavigator;
    studyResults_ = new widgets::StudyResultsView;
    // The navigator is a strip above the signal view, shown once a study is open.
    studyDock_ = new QDockWidget(tr("Study timeline"), this);  // "Study: <name>" once open
    studyDock_->setObjectName("studyDock");
    studyDock_->setWidget(studyNav_);
    studyDock_->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::TopDockWidgetArea, studyDock_);
    studyDock_->hide();
    // "Study", short for the tabs of the result area at 1280 x 800 (dock_tabs.h); its tab's
    // tooltip says what it holds.
    auto* results = new QDockWidget(tr("Study"), this);
    results->setObjectName("studyResultsDock");
    results->setProperty("tabToolTip", tr("Study results: searches and patterns over every recording of the study"));
    results->setProperty(DockLayout::kOpensWithItsResult, true);  // not an empty tab on first use
    results->setWidget(studyResults_);
    addDockWidget(Qt::RightDockWidgetArea, results);
    if (!resultDocks_.isEmpty()) tabifyDockWidget(resultDocks_.front(), results);
    resultDocks_ << results;

    study_ = new StudyController(doc_, runner_, signal_, metric_, studyNav_, studyResults_, this);
    // All-channel and study-wide searches follow the Search panel's options like the one-channel search.
    study_->setSearchChoice([this] { return search_->options()->choice(); });
    connect(study_, &StudyController::errorOccurred, this, &MainWindow::showError);
    connect(study_, &StudyController::viewRequested, this, &MainWindow::showView);
    connect(study_, &StudyController::warningsReady, this, [this](const QString& title, const QString& message) {
        auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
        box->setTextFormat(Qt::PlainText);  // warnings quote file contents: never read them as HTML
        box->setObjectName("studyWarnings");
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setModal(false);
        box->show();
    });
    connect(study_, &StudyController::studyChanged, this, [this] {
        studyDock_->setVisible(study_->study() != nullptr);
        if (const auto st = study_->study())
            studyDock_->setWindowTitle(tr("Study: %1").arg(QFileInfo(QString::fromStdString(st->sourcePath())).fileName()));
    });
}

bool MainWindow::openStudy(const QString& path) {
    if (!guard_->confirm(tr("before opening the study %1").arg(QFileInfo(path).fileName()))) return false;
    if (!study_->open(path)) return false;
    guard_->markClean();
    const auto st = study_->study();
    const QString summary = study_->summaryUsed();
    statusBar()->showMessage(tr("Opened the study %1: %2, %3, %4")
                                 .arg(QFileInfo(QString::fromStdString(st->sourcePath())).fileName())
                                 .arg(counted(st->recordings().size(), tr("recording"), tr("recordings")))
                                 .arg(counted(st->channels().size(), tr("channel"), tr("channels")))
                                 .arg(counted(st->seizures().size(), tr("seizure"), tr("seizures"))) +
                                 (summary.isEmpty() ? QString() : tr(" (from %1)").arg(QFileInfo(summary).fileName())),
                             8000);
    return true;
}

void MainWindow::addStudyFileActions(const QString& menu) {
    auto add = [this, &menu](QString id, QString text, std::function<void()> h) {
        actions_.add({std::move(id), menu, std::move(text), {}, std::move(h), false, {}});
    };
    add("file.openStudy", tr("Open s&tudy (folder)…"), [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open study: a folder of EDF/BDF recordings"));
        if (!dir.isEmpty()) openStudy(dir);
    });
    add("file.openStudySummary", tr("Open study from a CHB-MIT s&ummary…"), [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open study: a CHB-MIT summary"), QString(),
                                                          tr("Summary (*summary*.txt);;Text (*.txt);;All files (*)"));
        if (!path.isEmpty()) openStudy(path);
    });
    add("file.closeStudy", tr("Close the stud&y"), [this] {
        if (guard_->confirm(tr("before closing the study"))) study_->close();
    });
}

void MainWindow::addStudyAnalysisActions(const QString& menu) {
    auto add = [this, &menu](QString id, QString text, std::function<void()> h) {
        actions_.add({std::move(id), menu, std::move(text), {}, std::move(h), false, {}});
    };
    add("analysis.searchAllChannels", tr("Search the query in a&ll channels"), [this] { study_->searchQuery(SearchScope::AllChannels); });
    add("analysis.searchStudy", tr("Search the query in its channel of the &whole study"),
        [this] { study_->searchQuery(SearchScope::StudyChannel); });
    add("analysis.searchStudyAll", tr("Search the query in every channel of the whole stud&y"),
        [this] { study_->searchQuery(SearchScope::StudyAllChannels); });
    add("analysis.studyPatterns", tr("Find seizure patterns in the whole study (current channel)"),
        [this] { study_->findPatterns(std::max(0, signal_->currentChannel())); });
}

}  // namespace warplab::app
