// The main window: creates the document, the job runner, the views and the action table,
// and connects them. It holds no analysis logic of its own.
#pragma once
#include <QMainWindow>
#include <QStringList>

#include "app/gui/action_table.h"
#include "io/session.h"

class QDockWidget;

namespace warplab::compute {
enum class CrossvalFolds;
}  // namespace warplab::compute

namespace warplab::widgets {
class SignalView;
class MetricPanel;
class CostMatrixView;
class AlignmentView;
class DistanceMatrixView;
class SearchResultsView;
class JobProgressWidget;
class PatternsView;
class KernelComparisonView;
class RegionList;
class StudyNavigator;
class StudyResultsView;
class PsdView;
class SpectrogramView;
class BandComparisonView;
class DetectionView;
}  // namespace warplab::widgets

namespace warplab::app {

class Document;
class JobRunner;
class AnalysisController;
class DockLayout;
class StudyController;
class SpectraController;
class BandJobs;
class DetectionJobs;
class ErrorDialogs;
class UnsavedGuard;
struct RecoveryEntry;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    bool openFile(const QString& path);  // shows the error dialog on failure
    bool openSample();                   // the bundled recording (first start)
    static QString samplePath();         // "" when not found

    Document* document() const { return doc_; }
    JobRunner* jobs() const { return runner_; }
    AnalysisController* analysis() const { return analysis_; }
    widgets::SignalView* signalView() const { return signal_; }
    widgets::MetricPanel* metricPanel() const { return metric_; }
    widgets::CostMatrixView* costView() const { return cost_; }
    widgets::AlignmentView* alignmentView() const { return alignment_; }
    widgets::DistanceMatrixView* distanceView() const { return distances_; }
    widgets::SearchResultsView* searchView() const { return search_; }
    widgets::PatternsView* patternsView() const { return patterns_; }
    widgets::KernelComparisonView* kernelView() const { return kernels_; }
    widgets::RegionList* regionList() const { return regionList_; }
    // The frequency side (main_window_spectra.cpp): spectrum dock, spectrogram under the
    // traces, per-band comparison dock.
    widgets::PsdView* psdView() const { return psd_; }
    widgets::SpectrogramView* spectrogramView() const { return spectrogram_; }
    widgets::BandComparisonView* bandView() const { return bandView_; }
    SpectraController* spectra() const { return spectra_; }
    BandJobs* bandJobs() const { return bandJobs_; }
    // Studies: File ▸ Open study, the navigator strip, study-wide results.
    bool openStudy(const QString& path);  // a folder or a CHB-MIT summary; errors in the dialog
    StudyController* studyController() const { return study_; }
    widgets::StudyNavigator* studyNavigator() const { return studyNav_; }
    widgets::StudyResultsView* studyResults() const { return studyResults_; }
    // The study's seizure detector (main_window_detection.cpp): cross-validation and its view.
    widgets::DetectionView* detectionView() const { return detectionView_; }
    DetectionJobs* detectionJobs() const { return detection_; }

    // Session files (io/session.h); both show the error dialog on failure.
    bool saveSession(const QString& path);
    bool openSession(const QString& path);
    const ActionTable& actions() const { return actions_; }
    // Unsaved marks and the recovery journal (main_window_recovery.cpp).
    UnsavedGuard* unsavedGuard() const { return guard_; }
    // At start: offers the states a crash left (RecoveryDialog); returns its choice.
    int offerRecovery();
    bool restoreRecovery(const RecoveryEntry& entry);
    QStringList recentFiles() const;

    // Non-modal, so the window stays live and tests can find it (object name "errorDialog").
    void showError(const QString& title, const QString& message);

Q_SIGNALS:
    void errorShown(const QString& title, const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildActions();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void showView(QWidget* view);
    void editRegion(int index);
    void promptOpen();
    void importAnnotations();
    void importSummary();
    void showShortcuts();
    void editFilters();
    void updateTitle();
    void buildStudy();  // main_window_study.cpp
    void addStudyFileActions(const QString& menu);
    void addStudyAnalysisActions(const QString& menu);
    void buildRecovery();  // main_window_recovery.cpp
    void buildSpectra();   // main_window_spectra.cpp: before buildActions
    void addSpectraActions(const QString& view, const QString& analysis);
    void buildDetection();  // main_window_detection.cpp: after buildStudy
    void addDetectionActions(const QString& analysis);
    // Asks the detector's options (CrossvalDialog), then runs; the job id, 0 when none runs.
    quint64 askCrossValidation(compute::CrossvalFolds folds);

    Document* doc_;
    JobRunner* runner_;
    AnalysisController* analysis_ = nullptr;
    widgets::SignalView* signal_;
    widgets::MetricPanel* metric_;
    widgets::CostMatrixView* cost_;
    widgets::AlignmentView* alignment_;
    widgets::DistanceMatrixView* distances_;
    widgets::SearchResultsView* search_;
    widgets::PatternsView* patterns_;
    widgets::KernelComparisonView* kernels_;
    widgets::RegionList* regionList_;
    widgets::JobProgressWidget* progress_;
    widgets::StudyNavigator* studyNav_ = nullptr;
    widgets::StudyResultsView* studyResults_ = nullptr;
    StudyController* study_ = nullptr;
    widgets::PsdView* psd_ = nullptr;
    widgets::SpectrogramView* spectrogram_ = nullptr;
    widgets::BandComparisonView* bandView_ = nullptr;
    SpectraController* spectra_ = nullptr;
    BandJobs* bandJobs_ = nullptr;
    widgets::DetectionView* detectionView_ = nullptr;
    DetectionJobs* detection_ = nullptr;
    QDockWidget* studyDock_ = nullptr;
    io::Session session_;  // the last session read or written: unknown fields survive
    QList<QDockWidget*> resultDocks_;
    DockLayout* layout_ = nullptr;  // result docks collapsed until a result; saved layout
    ActionTable actions_;
    ErrorDialogs* errors_ = nullptr;  // error_dialogs.h: replaced, closed once obsolete
    UnsavedGuard* guard_ = nullptr;
};

}  // namespace warplab::app
