// The main window's frequency parts, kept out of main_window.cpp: the spectrogram under the
// traces (View ▸ Spectrogram), the Spectrum and Bands docks, and the per-band analyses.
// SpectraController and BandJobs do the work; this only places and connects them.
#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>

#include "app/gui/band_jobs.h"
#include "app/gui/dock_layout.h"
#include "app/gui/document.h"
#include "app/gui/main_window.h"
#include "app/gui/spectra_controller.h"
#include "widgets/band_comparison_view.h"
#include "widgets/patterns_view.h"
#include "widgets/psd_view.h"
#include "widgets/signal_view.h"
#include "widgets/spectrogram_view.h"

namespace warplab::app {
namespace {
constexpr const char* kSpectrogramShown = "view/spectrogram";
}

void MainWindow::buildSpectra() {
    psd_ = new widgets::PsdView;
    spectrogram_ = new widgets::SpectrogramView;
    bandView_ = new widgets::BandComparisonView;
    // The spectrogram under the traces, in the central area, so that its time axis lines up
    // with theirs (a bottom dock would span the side panels too).
    auto* split = new QSplitter(Qt::Vertical);
    split->setObjectName("tracesSplit");
    split->setChildrenCollapsible(false);
    split->addWidget(takeCentralWidget());
    split->addWidget(spectrogram_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    setCentralWidget(split);
    spectrogram_->setVisible(QSettings().value(kSpectrogramShown, false).toBool());

    for (auto [w, title, name, full] : {std::tuple<QWidget*, QString, QString, QString>{psd_, tr("Spectrum"), "spectrumDock", tr("Power spectrum of the visible channels")},
                                  {bandView_, tr("Bands"), "bandsDock", tr("Band comparison: one analysis per frequency band")}}) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setProperty("tabToolTip", full);
        d->setProperty(DockLayout::kOpensWithItsResult, true);  // not an empty tab on first use
        d->setWidget(w);
        addDockWidget(Qt::RightDockWidgetArea, d);
        if (!resultDocks_.isEmpty()) tabifyDockWidget(resultDocks_.front(), d);
        resultDocks_ << d;
    }
    spectra_ = new SpectraController(doc_, runner_, signal_, metric_, psd_, spectrogram_, this);
    bandJobs_ = new BandJobs(doc_, runner_, signal_, metric_, search_, bandView_, this);
    connect(spectra_, &SpectraController::errorOccurred, this, &MainWindow::showError);
    connect(bandJobs_, &BandJobs::errorOccurred, this, &MainWindow::showError);
    connect(spectra_, &SpectraController::viewRequested, this, &MainWindow::showView);
    connect(bandJobs_, &BandJobs::viewRequested, this, &MainWindow::showView);
    connect(bandView_, &widgets::BandComparisonView::matchActivated, signal_, &widgets::SignalView::setHighlight);
    connect(bandView_, &widgets::BandComparisonView::patternActivated, this, [this](int, double start, double length) {
        signal_->setHighlight(signal_->currentChannel(), start, start + length);
    });
}

void MainWindow::addSpectraActions(const QString& view, const QString& analysis) {
    actions_.add({"view.spectrogram", view, tr("Show or hide the spectro&gram under the traces"),
                  {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G)}, [this] {
                      const bool on = spectrogram_->isHidden();
                      spectrogram_->setVisible(on);
                      QSettings().setValue(kSpectrogramShown, on);
                  }, false, {}});
    actions_.add({"analysis.spectrum", analysis, tr("Power spectru&m (Welch)"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P)},
                  [this] { spectra_->computeSpectrum(); }, false, {}});
    actions_.add({"analysis.bandsPatterns", analysis, tr("Seizure patterns per frequency &band"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B)},
                  [this] { bandJobs_->findPatterns(std::max(0, signal_->currentChannel())); }, false, {}});
    actions_.add({"analysis.bandsSearch", analysis, tr("Search the query per frequency band"), {},
                  [this] { bandJobs_->searchQuery(); }, false, {}});
    actions_.add({"analysis.bandsMatrix", analysis, tr("Distance matrices of channels per frequency band"), {},
                  [this] { bandJobs_->channelDistanceMatrix(); }, false, {}});
}

}  // namespace warplab::app
