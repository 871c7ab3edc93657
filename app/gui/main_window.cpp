#include "app/gui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

#include "app/gui/analysis_controller.h"
#include "app/gui/annotated_seizures.h"
#include "app/gui/montage_dialog.h"
#include "app/gui/dock_layout.h"
#include "app/gui/dock_tabs.h"
#include "app/gui/document.h"
#include "app/gui/error_dialogs.h"
#include "app/gui/focus_return.h"
#include "app/gui/result_sources.h"
#include "app/gui/job_runner.h"
#include "app/gui/channel_dialog.h"
#include "app/gui/copy_as_script.h"
#include "app/gui/filter_dialog.h"
#include "app/gui/region_edit_dialog.h"
#include "app/gui/region_exchange.h"
#include "app/gui/session_bridge.h"
#include "app/gui/shortcut_help_dialog.h"
#include "app/gui/view_units.h"
#include "app/gui/study_controller.h"
#include "app/gui/recovery_journal.h"
#include "app/gui/status_text.h"
#include "app/gui/unsaved_guard.h"
#include "widgets/alignment_view.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/job_progress_widget.h"
#include "widgets/kernel_comparison_view.h"
#include "widgets/metric_panel.h"
#include "widgets/patterns_view.h"
#include "widgets/region_list.h"
#include "widgets/search_results_view.h"
#include "widgets/signal_view.h"
#include "widgets/counted.h"

namespace warplab::app {
namespace {
constexpr int kMaxRecent = 8;
const char* kOpenFilter =
    "Recordings and series (*.edf *.EDF *.bdf *.BDF *.rec *.txt *.csv *.tsv *.npy);;EDF/BDF (*.edf *.bdf *.rec);;"
    "Series files (*.txt *.csv *.tsv *.npy);;All files (*)";
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName("mainWindow");
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks);
    // The result area (right) takes the whole height, the study strip (top) only the width
    // beside it: the result tabs, beside the docks when they do not fit across, need the
    // height (dock_tabs.h).
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    doc_ = new Document(this);
    runner_ = new JobRunner(this);

    signal_ = new widgets::SignalView;
    setCentralWidget(signal_);  // buildSpectra puts the spectrogram under it
    metric_ = new widgets::MetricPanel;
    cost_ = new widgets::CostMatrixView;
    alignment_ = new widgets::AlignmentView;
    distances_ = new widgets::DistanceMatrixView;
    search_ = new widgets::SearchResultsView;
    patterns_ = new widgets::PatternsView;
    kernels_ = new widgets::KernelComparisonView;
    regionList_ = new widgets::RegionList;
    progress_ = new widgets::JobProgressWidget;
    statusBar()->addPermanentWidget(progress_);

    auto dock = [this](QWidget* w, const QString& title, const QString& name, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    QDockWidget* metricDock = dock(metric_, tr("Metric"), "metricDock", Qt::LeftDockWidgetArea);
    dock(regionList_, tr("Regions"), "regionsDock", Qt::LeftDockWidgetArea);
    QDockWidget* costDock = dock(cost_, tr("Cost"), "costDock", Qt::RightDockWidgetArea);
    resultDocks_ << costDock;
    costDock->setProperty("tabToolTip", tr("Cost matrix of the aligned pair (accumulated cost and warping path)"));
    // Titles as short as the toolbar's words, so that the tabs fit the result area at
    // 1280 x 800 (dock_tabs.h); the tab's tooltip says it in full.
    for (auto [w, title, name, full] : {std::tuple<QWidget*, QString, QString, QString>{alignment_, tr("Alignment"), "alignmentDock", tr("Alignment of the query and the reference")},
                                  {distances_, tr("Distances"), "distanceDock", tr("Distance matrix of channels or epochs")},
                                  {search_, tr("Search"), "searchDock", tr("Search results: the query's best matches")},
                                  {patterns_, tr("Patterns"), "patternsDock", tr("Seizure patterns: ranking, distances and nearest epochs")},
                                  {kernels_, tr("Kernels"), "kernelsDock", tr("Kernel comparison: throughput of each kernel")}}) {
        QDockWidget* d = dock(w, title, name, Qt::RightDockWidgetArea);
        d->setProperty("tabToolTip", full);
        tabifyDockWidget(costDock, d);
        resultDocks_ << d;
    }
    costDock->raise();

    analysis_ = new AnalysisController(doc_, runner_, Views{signal_, metric_, cost_, alignment_, distances_, search_, patterns_, kernels_}, this);
    errors_ = new ErrorDialogs(this);
    new ResultSources(doc_, runner_, {metric_, cost_, alignment_, distances_, search_, patterns_}, this);
    new FocusReturn(this, signal_);
    new DockTabs(this);
    new StatusText(statusBar());

    // Document -> views.
    connect(doc_, &Document::recordingChanged, this, [this] {
        // Results of the previous recording must not land in the views; study-wide jobs
        // ("study.*" slots) name their recordings and go on, and the kernel comparison
        // ("bench") times synthetic series, not the recording.
        runner_->cancelAllBut({QStringLiteral("study."), QStringLiteral("bench")});
        signal_->setRecording(doc_->recording());
        cost_->clear();
        alignment_->clear();
        updateTitle();
    });
    connect(doc_, &Document::regionsChanged, this, [this] {
        signal_->setRegions(doc_->regions());
        QStringList names;
        if (auto rec = doc_->recording())
            for (const auto& s : widgets::signalList(*rec)) names << QString::fromStdString(s.displayName);
        regionList_->setRegions(doc_->regions(), names);
    });
    connect(regionList_, &widgets::RegionList::regionSelected, signal_, &widgets::SignalView::selectRegion);
    connect(regionList_, &widgets::RegionList::editRequested, this, &MainWindow::editRegion);
    connect(regionList_, &widgets::RegionList::deleteRequested, doc_, &Document::removeRegion);
    connect(signal_, &widgets::SignalView::regionSelected, regionList_, &widgets::RegionList::selectRegion);
    connect(doc_, &Document::errorOccurred, this, &MainWindow::showError);
    connect(kernels_, &widgets::KernelComparisonView::runRequested, analysis_, &AnalysisController::runKernelComparison);
    connect(doc_, &Document::filtersChanged, this, [this] { signal_->setFilters(doc_->filters()); });
    connect(patterns_, &widgets::PatternsView::epochActivated, this, [this](double t) { signal_->setWindow(t, signal_->windowLength()); });
    connect(patterns_, &widgets::PatternsView::patternSelected, this, [this](double start, double length) {
        const auto r = patterns_->ranking();
        const int ch = r ? doc_->recording() ? doc_->recording()->findSignal(r->channel) : -1 : -1;
        signal_->setHighlight(ch, start, start + length);
    });
    connect(analysis_, &AnalysisController::errorOccurred, this, [this](const QString& title, const QString& message) {
        errors_->show(title, message, ErrorDialogs::slotOfAnalysis(title));
        Q_EMIT errorShown(title, message);
    });
    connect(distances_, &widgets::DistanceMatrixView::matrixExported, this,
            [this](const QString& path) { statusBar()->showMessage(tr("Matrix exported to %1").arg(path), 10000); });
    connect(analysis_, &AnalysisController::viewRequested, this, &MainWindow::showView);
    // Signal view requests -> undoable edits.
    connect(signal_, &widgets::SignalView::regionDrawn, doc_, &Document::addRegion);
    connect(signal_, &widgets::SignalView::regionMoveRequested, doc_, &Document::moveRegion);
    connect(signal_, &widgets::SignalView::regionDeleteRequested, doc_, &Document::removeRegion);
    connect(signal_, &widgets::SignalView::regionEditRequested, this, &MainWindow::editRegion);
    // Results -> other views.
    connect(search_, &widgets::SearchResultsView::matchActivated, signal_, &widgets::SignalView::setHighlight);
    connect(distances_, &widgets::DistanceMatrixView::cellActivated, analysis_, &AnalysisController::openMatrixCell);
    // Jobs -> progress strip and error dialogs.
    connect(runner_, &JobRunner::jobStarted, progress_, [this](quint64 id, const QString&, const QString& title) { progress_->start(id, title); });
    connect(runner_, &JobRunner::jobStarted, this, [this](quint64, const QString& slot, const QString&) {
        errors_->closeForSlot(slot);  // what was missing is there now
        applyJobUnits(slot, metric_->params(), doc_->recording() ? commonSignalUnit(*doc_->recording()) : QString(), cost_, alignment_,
                      distances_, search_);
    });
    connect(runner_, &JobRunner::jobProgress, progress_, &widgets::JobProgressWidget::setProgress);
    connect(runner_, &JobRunner::jobFinished, this, [this](quint64 id, const QString&, qint64 ms) {
        progress_->finish(id);
        statusBar()->showMessage(tr("Finished in %1").arg(widgets::JobProgressWidget::formatDuration(ms)), 5000);
    });
    connect(runner_, &JobRunner::jobCancelled, this, [this](quint64 id, const QString&) {
        progress_->finish(id);
        statusBar()->showMessage(tr("Cancelled"), 5000);
    });
    connect(runner_, &JobRunner::jobFailed, this, [this](quint64 id, const QString&, const QString& title, const QString& message) {
        progress_->finish(id);
        // The views keep what they showed; say so, as a failed job may look like a lost result.
        showError(tr("%1 failed").arg(title), tr("%1\n\nEarlier results and your regions are unchanged.").arg(message));
    });
    connect(progress_, &widgets::JobProgressWidget::cancelRequested, runner_, &JobRunner::cancel);
    buildStudy();
    buildDetection();
    buildSpectra();

    buildActions();
    buildRecovery();
    // After the toolbar exists, so that its place is restored too; the traces get the room.
    layout_ = new DockLayout(this, resultDocks_, metricDock);
    updateTitle();
    resize(1400, 880);
}

MainWindow::~MainWindow() { runner_->cancelAll(); }

void MainWindow::buildActions() {
    auto add = [this](QString id, QString menu, QString text, QList<QKeySequence> keys, std::function<void()> h, bool tb = false) {
        actions_.add({std::move(id), std::move(menu), std::move(text), std::move(keys), std::move(h), tb, {}});
    };
    const QString file = tr("&File"), edit = tr("&Edit"), view = tr("&View"), analysis = tr("&Analysis"), help = tr("&Help");
    add("file.open", file, tr("&Open…"), {QKeySequence::Open}, [this] { promptOpen(); }, true);
    add("file.sample", file, tr("Open the samp&le recording"), {}, [this] { openSample(); });
    add("file.importAnnotations", file, tr("Import seizures from &annotations…"), {}, [this] { importAnnotations(); });
    add("file.importSummary", file, tr("Import seizures from a CHB-MIT su&mmary…"), {}, [this] { importSummary(); });
    const auto exchanged = [this](const QString& title) {
        return [this, title](const RegionExchangeResult& r) {
            if (r.ok) statusBar()->showMessage(r.message, 8000);
            else showError(title, r.message);
        };
    };
    add("file.exportRegions", file, tr("E&xport regions (CSV or EDF+)…"), {},
        [this, exchanged] { exportRegionsDialog(this, *doc_, exchanged(tr("Cannot export the regions"))); });
    add("file.importRegions", file, tr("Import re&gions (CSV or EDF+)…"), {},
        [this, exchanged] { importRegionsDialog(this, *doc_, exchanged(tr("Cannot import the regions"))); });
    addStudyFileActions(file);
    add("file.saveSession", file, tr("Save &session…"), {QKeySequence::Save}, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save session"), "session.warplab.json", tr("WarpLab sessions (*.json)"));
        if (!path.isEmpty()) saveSession(path);
    });
    add("file.openSession", file, tr("Open s&ession…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)}, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(), tr("WarpLab sessions (*.json);;All files (*)"));
        if (!path.isEmpty()) openSession(path);
    });
    add("file.quit", file, tr("&Quit"), {QKeySequence(Qt::CTRL | Qt::Key_Q)}, [this] { close(); });
    add("edit.undo", edit, tr("&Undo"), {QKeySequence::Undo}, [this] { doc_->undoStack()->undo(); }, true);
    add("edit.redo", edit, tr("&Redo"), {QKeySequence::Redo}, [this] { doc_->undoStack()->redo(); }, true);
    add("edit.editRegion", edit, tr("&Edit selected region…"), {QKeySequence(Qt::Key_F2)}, [this] { editRegion(signal_->selectedRegion()); });
    addCopyAsScriptActions(actions_, edit, this, analysis_);
    add("view.channels", view, tr("&Channels…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)}, [this] {
        auto rec = doc_->recording();
        if (!rec) return;
        QStringList names;
        for (const auto& s : widgets::signalList(*rec)) names << QString::fromStdString(s.displayName);
        ChannelDialog dialog(names, signal_->visibleChannels(), this);
        if (dialog.exec() == QDialog::Accepted) signal_->setVisibleChannels(dialog.selected());
    });
    add("view.montage", view, tr("&Montage…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M)}, [this] {
        montageDialog(this, *doc_, *signal_, [this](const QString& t) { statusBar()->showMessage(t, 15000); });
    });
    add("view.annotatedSeizures", view, tr("Mark annotated seizures on &open"), {}, [this] {
        setMarkAnnotatedSeizuresOnOpen(actions_.action("view.annotatedSeizures")->isChecked());
    });
    add("view.filters", view, tr("&Filters…"), {QKeySequence(Qt::CTRL | Qt::Key_T)}, [this] { editFilters(); });
    add("view.markSeizure", view, tr("Mark &seizures"), {QKeySequence(Qt::Key_S)}, [this] { signal_->setMarkKind(io::RegionKind::Seizure); });
    add("view.markQuery", view, tr("Mark &queries"), {QKeySequence(Qt::Key_Q)}, [this] { signal_->setMarkKind(io::RegionKind::Query); });
    add("view.markReference", view, tr("Mark &references"), {QKeySequence(Qt::Key_R)}, [this] { signal_->setMarkKind(io::RegionKind::Reference); });
    add("analysis.align", analysis, tr("&Align query × reference"), {QKeySequence(Qt::CTRL | Qt::Key_L)}, [this] { analysis_->alignMarkedRegions(); }, true);
    add("analysis.example", analysis, tr("Align an &example pair"), {}, [this] { analysis_->alignExample(); });
    add("analysis.matrix", analysis, tr("&Distance matrix of channels (visible window)"), {QKeySequence(Qt::CTRL | Qt::Key_M)}, [this] { analysis_->channelDistanceMatrix(); }, true);
    add("analysis.epochs", analysis, tr("Distance matrix of epoc&hs (current channel)…"), {}, [this] {
        bool ok = false;
        const double epoch = QInputDialog::getDouble(this, tr("Epochs"), tr("Epoch length (s):"), 2, 0.05, 600, 2, &ok);
        if (ok) analysis_->epochDistanceMatrix(std::max(0, signal_->currentChannel()), epoch, epoch / 2);
    });
    add("analysis.search", analysis, tr("&Search the query in its channel"), {QKeySequence(Qt::CTRL | Qt::Key_F)}, [this] { analysis_->searchQuery(); }, true);
    add("analysis.patterns", analysis, tr("Find seizure &patterns (current channel)"), {QKeySequence(Qt::CTRL | Qt::Key_P)},
        [this] { analysis_->findPatterns(std::max(0, signal_->currentChannel())); }, true);
    addStudyAnalysisActions(analysis);
    addDetectionActions(analysis);
    addSpectraActions(view, analysis);
    add("analysis.kernels", analysis, tr("Compare &kernels"), {QKeySequence(Qt::CTRL | Qt::Key_K)}, [this] { analysis_->runKernelComparison(); });
    add("analysis.cancel", analysis, tr("&Cancel running jobs"), {QKeySequence(Qt::CTRL | Qt::Key_Period)}, [this] { runner_->cancelAll(); }, true);
    // Short toolbar labels, so that the window fits on small screens.
    actions_.setToolbarText("analysis.align", tr("Align"));
    actions_.setToolbarText("analysis.matrix", tr("Distances"));
    actions_.setToolbarText("analysis.search", tr("Search"));
    actions_.setToolbarText("analysis.patterns", tr("Patterns"));
    actions_.setToolbarText("analysis.cancel", tr("Cancel"));
    add("help.shortcuts", help, tr("&Keyboard shortcuts"), {QKeySequence(Qt::Key_F1), QKeySequence(Qt::Key_Question)}, [this] { showShortcuts(); });
    add("help.about", help, tr("&About WarpLab"), {}, [this] {
        QMessageBox::about(this, tr("About WarpLab"), tr("WarpLab %1 — elastic time-series distances on EEG.").arg(QCoreApplication::applicationVersion()));
    });
    // Keys the signal view handles itself: listed so that the help shows them too.
    const QString sv = tr("Signal view");
    add("signal.scroll", sv, tr("Scroll by a quarter window"), {QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_Right)}, {});
    add("signal.page", sv, tr("Scroll by a window"), {QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::Key_PageDown)}, {});
    add("signal.ends", sv, tr("Start / end of the recording"), {QKeySequence(Qt::Key_Home), QKeySequence(Qt::Key_End)}, {});
    add("signal.amplitude", sv, tr("Larger / smaller amplitude"), {QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Minus)}, {});
    add("signal.window", sv, tr("Shorter / longer time window"), {QKeySequence(Qt::Key_Up), QKeySequence(Qt::Key_Down)}, {});
    add("signal.delete", sv, tr("Delete the selected region"), {QKeySequence(Qt::Key_Delete)}, {});
    auto mouse = [this](QString id, QString text, QString keys) {
        ActionSpec spec{std::move(id), tr("Signal view"), std::move(text), {}, {}, false, {}};
        spec.keysText = std::move(keys);
        actions_.add(std::move(spec));
    };
    mouse("signal.drag", tr("Mark a region on all channels"), tr("Drag"));
    mouse("signal.ctrlDrag", tr("Mark a region on one channel"), tr("Ctrl+Drag"));
    mouse("signal.move", tr("Move a region (a plain or Ctrl+drag inside it marks a new one)"), tr("Alt+Drag inside it"));
    mouse("signal.select", tr("Select a region"), tr("Click inside it"));
    mouse("signal.edit", tr("Edit a region"), tr("Double-click"));
    mouse("signal.wheel", tr("Scroll through the channels"), tr("Wheel"));
    mouse("signal.gain", tr("One channel larger / smaller"), tr("Right-click"));
    actions_.build(this);

    // Undo/redo availability follows the stack.
    QAction* undo = actions_.action("edit.undo");
    QAction* redo = actions_.action("edit.redo");
    connect(doc_->undoStack(), &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(doc_->undoStack(), &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    // The text stays short (it is on the toolbar); what would be undone goes in the tooltip.
    connect(doc_->undoStack(), &QUndoStack::undoTextChanged, undo, [undo](const QString& t) { undo->setToolTip(tr("Undo %1").arg(t)); });
    connect(doc_->undoStack(), &QUndoStack::redoTextChanged, redo, [redo](const QString& t) { redo->setToolTip(tr("Redo %1").arg(t)); });
    undo->setEnabled(false);
    redo->setEnabled(false);

    QAction* annotated = actions_.action("view.annotatedSeizures");
    annotated->setCheckable(true);
    annotated->setChecked(markAnnotatedSeizuresOnOpen());
    annotated->setToolTip(tr("Annotations whose text names a seizure (\"seizure\", \"sz\") become Seizure regions "
                             "when a recording opens"));

    QMenu* fileMenu = actions_.menu(file);
    QMenu* recent = new QMenu(tr("Open &recent"), this);
    recent->setObjectName("recentMenu");
    fileMenu->insertMenu(actions_.action("file.sample"), recent);
    connect(recent, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    QMenu* viewMenu = actions_.menu(view);
    viewMenu->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>()) viewMenu->addAction(d->toggleViewAction());
}

QString MainWindow::samplePath() {
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString& rel : {"/../../share/warplab/sample", "/../share/warplab/sample", "/share/warplab/sample"})
        for (const QString& name : {"chb01_03_sample.edf", "chb01_03_Seizure.edf"}) {
            const QString p = QDir::cleanPath(dir + rel + "/" + name);
            if (QFileInfo::exists(p)) return p;
        }
    return {};
}

bool MainWindow::openSample() {
    const QString p = samplePath();
    if (p.isEmpty()) {
        showError(tr("Sample recording"), tr("The bundled sample recording was not found next to the program (share/warplab/sample)."));
        return false;
    }
    return openFile(p);
}

bool MainWindow::openFile(const QString& path) {
    if (!guard_->confirm(tr("before opening %1").arg(QFileInfo(path).fileName()))) return false;
    if (!doc_->open(path)) return false;
    addRecentFile(path);
    const int saved = guard_->opened();
    const auto rec = doc_->recording();
    const int seizures = markAnnotatedSeizures(*doc_);  // none when saved regions were read back
    const qint64 channels = qint64(widgets::signalList(*rec).size());
    statusBar()->showMessage(tr("Opened %1: %2, %3 s").arg(QFileInfo(path).fileName())
                                 .arg(widgets::counted(channels, tr("channel"), tr("channels"))).arg(rec->durationS(), 0, 'f', 1) +
                                 (saved > 0 ? tr("; %1").arg(widgets::counted(saved, tr("saved region"), tr("saved regions")))
                                            : QString()) +
                                 (seizures ? tr("; %1 marked from its annotations (View ▸ Mark annotated seizures on open)")
                                                 .arg(widgets::counted(seizures, tr("seizure"), tr("seizures")))
                                           : QString()), 8000);
    return true;
}

void MainWindow::promptOpen() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open recording or series"), QString(), tr(kOpenFilter));
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::importAnnotations() {
    bool ok = false;
    const QString pattern = QInputDialog::getText(this, tr("Import seizures"), tr("Annotations whose text contains:"), QLineEdit::Normal, "seizure", &ok);
    if (!ok) return;
    const int n = doc_->importAnnotationSeizures(pattern);
    statusBar()->showMessage(tr("%1 imported").arg(widgets::counted(n, tr("seizure region"), tr("seizure regions"))), 5000);
}

void MainWindow::importSummary() {
    const QString path = QFileDialog::getOpenFileName(this, tr("CHB-MIT summary"), QString(), tr("Summary (*summary*.txt);;All files (*)"));
    if (path.isEmpty()) return;
    const int n = doc_->importChbSummary(path);
    statusBar()->showMessage(tr("%1 imported").arg(widgets::counted(n, tr("seizure region"), tr("seizure regions"))), 5000);
}

void MainWindow::editRegion(int index) {
    auto rec = doc_->recording();
    if (!rec || index < 0 || index >= int(doc_->regions().size())) return;
    QStringList channels;
    for (const auto& s : widgets::signalList(*rec)) channels << QString::fromStdString(s.displayName);
    RegionEditDialog dialog(doc_->regions()[std::size_t(index)], channels, rec->durationS(), this);
    if (dialog.exec() == QDialog::Accepted) doc_->replaceRegion(index, dialog.region(), tr("Edit region"));
}

void MainWindow::editFilters() {
    FilterDialog dialog(doc_->filters(), this);
    if (dialog.exec() == QDialog::Accepted) doc_->setFilters(dialog.settings());
}

bool MainWindow::saveSession(const QString& path) {
    if (!doc_->recording()) return false;
    try {
        session_ = captureSession(*doc_, *metric_, *signal_, session_);
        study_->capture(session_);
        io::saveSession(path.toStdString(), session_);
        guard_->markClean();  // the session holds the marks
        guard_->journal()->remove();
    } catch (const std::exception& e) {
        showError(tr("Cannot save the session"), QString::fromStdString(e.what()));
        return false;
    }
    statusBar()->showMessage(tr("Session saved to %1").arg(path), 5000);
    return true;
}

bool MainWindow::openSession(const QString& path) {
    if (!guard_->confirm(tr("before opening the session %1").arg(QFileInfo(path).fileName()))) return false;
    io::Session s;
    try {
        s = io::loadSession(path.toStdString());
    } catch (const std::exception& e) {
        showError(tr("Cannot open the session"), QString::fromStdString(e.what()));
        return false;
    }
    if (!study_->restoreStudy(s)) return false;
    if (!restoreSession(s, *doc_, *metric_, *signal_)) return false;
    study_->restoreRegions(s);
    session_ = s;
    guard_->markClean();
    addRecentFile(doc_->path());
    // A session is data: what it names outside its own folder is opened for reading only, and
    // said, so that a session from elsewhere cannot quietly point the application anywhere.
    QString note = tr("Session opened from %1: %2, %3")
                       .arg(path, QFileInfo(doc_->path()).fileName(),
                            widgets::counted(qint64(doc_->regions().size()), tr("region"), tr("regions")));
    if (const auto hidden = qint64(doc_->parkedRegions().size()); hidden > 0)
        note += tr(" (and %1 on channels the montage hides)")
                    .arg(widgets::counted(hidden, tr("one-channel region"), tr("one-channel regions")));
    if (const auto outside = io::sessionPathsOutside(s, path.toStdString()); !outside.empty()) {
        QStringList names;
        for (const auto& p : outside) names << QString::fromStdString(p);
        note += tr("; it opened %1 (outside the session's folder)").arg(names.join(", "));
    }
    statusBar()->showMessage(note, 15000);
    return true;
}

void MainWindow::showShortcuts() {
    ShortcutHelpDialog dialog(actions_, this);
    dialog.exec();
}

void MainWindow::showView(QWidget* view) {
    for (QDockWidget* d : resultDocks_)
        if (d->widget() == view) layout_->reveal(d);
}

void MainWindow::showError(const QString& title, const QString& message) {
    errors_->show(title, message);
    Q_EMIT errorShown(title, message);
}

QStringList MainWindow::recentFiles() const { return QSettings().value("recentFiles").toStringList(); }

void MainWindow::addRecentFile(const QString& path) {
    QStringList list = recentFiles();
    const QString abs = QFileInfo(path).absoluteFilePath();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent) list.removeLast();
    QSettings().setValue("recentFiles", list);
}

void MainWindow::rebuildRecentMenu() {
    auto* menu = qobject_cast<QMenu*>(sender());
    if (!menu) return;
    menu->clear();
    const QStringList list = recentFiles();
    for (const QString& p : list) menu->addAction(QFileInfo(p).fileName(), this, [this, p] { openFile(p); })->setToolTip(p);
    if (list.isEmpty()) menu->addAction(tr("(none)"))->setEnabled(false);
}

void MainWindow::updateTitle() {
    const QString name = doc_->path().isEmpty() ? tr("no recording") : QFileInfo(doc_->path()).fileName();
    setWindowTitle(tr("%1[*] — WarpLab").arg(name));  // [*]: unsaved marks
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) {
            openFile(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!guard_->confirm(tr("before closing"))) {
        event->ignore();
        return;
    }
    runner_->cancelAll();
    layout_->save();
    QMainWindow::closeEvent(event);
}

}  // namespace warplab::app
