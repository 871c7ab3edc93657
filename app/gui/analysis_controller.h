// Turns what the user marked into engine jobs and sends their results to the views: align a
// query and a reference region (cost matrix + alignment), the distance matrix of the channels
// over the visible window, a subsequence search of the query region. Checks the memory a job
// needs before it starts.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include <QObject>
#include <QString>

#include "app/gui/analysis_recipe.h"
#include "compute/core/params.h"
#include "compute/core/series.h"

namespace warplab::widgets {
class SignalView;
class MetricPanel;
class CostMatrixView;
class AlignmentView;
class DistanceMatrixView;
class SearchResultsView;
class PatternsView;
class KernelComparisonView;
}  // namespace warplab::widgets

namespace warplab::app {

class Document;
class JobRunner;

struct Views {
    widgets::SignalView* signal = nullptr;
    widgets::MetricPanel* metric = nullptr;
    widgets::CostMatrixView* cost = nullptr;
    widgets::AlignmentView* alignment = nullptr;
    widgets::DistanceMatrixView* distances = nullptr;
    widgets::SearchResultsView* search = nullptr;
    widgets::PatternsView* patterns = nullptr;
    widgets::KernelComparisonView* kernels = nullptr;
};

class AnalysisController : public QObject {
    Q_OBJECT
public:
    AnalysisController(Document* doc, JobRunner* runner, Views views, QObject* parent = nullptr);

    // Each returns the job id, or 0 when the job was refused (errorOccurred says why).
    quint64 alignMarkedRegions();
    quint64 alignSegments(int channelX, double startX, double endX, int channelY, double startY, double endY);
    quint64 channelDistanceMatrix();
    quint64 epochDistanceMatrix(int channel, double epochS, double strideS);  // whole channel, epochs x epochs
    quint64 searchQuery(int topK = 5);
    // Seizure pattern discovery on one channel from the seizure regions marked on it (or on
    // all channels): epochs of `epoch` samples every `stride`, cdtw with the panel's band.
    quint64 findPatterns(int channel, int epoch = 1024, int stride = 256);
    // The kernel benchmark the kernel-comparison view describes (compute/bench/bench.h).
    quint64 runKernelComparison();
    // Marks a query and a reference region on the first channel when none exist (first start,
    // screenshots) and aligns them.
    quint64 alignExample();
    // Opens the pair behind a cell of the distance matrix shown last in the pair views.
    quint64 openMatrixCell(int row, int col);

    const Views& views() const { return v_; }
    // What the result shown in `view` (one of Views) was computed from; null when it shows none.
    const AnalysisRecipe* shownRecipe(const QObject* view) const {
        const auto it = shown_.find(view);
        return it == shown_.end() ? nullptr : &it->second;
    }

    // Bytes a full accumulated-cost matrix of n x m needs, and what the application allows.
    static std::uint64_t costMatrixBytes(std::size_t n, std::size_t m);
    static std::uint64_t memoryBudget();
    // Overrides memoryBudget() (0: back to the default); lets tests reach the low-memory path.
    void setMemoryBudget(std::uint64_t bytes) { budgetOverride_ = bytes; }
    std::uint64_t budget() const { return budgetOverride_ ? budgetOverride_ : memoryBudget(); }

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);
    void viewRequested(QWidget* view);  // bring the dock showing this view forward

private:
    compute::Params params() const;
    int channelOf(int regionChannel) const;

    Document* doc_;
    JobRunner* runner_;
    Views v_;
    // What the rows and columns of the shown distance matrix are: (channel, start, end).
    struct Segment { int channel; double start, end; };
    // Runs all pairs of `set` (rows named by the series) into the distance-matrix view; a click
    // on a cell then opens the pair of `segments` it came from.
    std::vector<std::string> regionLabels(const std::vector<Segment>& segments) const;
    quint64 submitAllPairsMatrix(const compute::SeriesSet& set, const std::vector<Segment>& segments,
                                 const compute::Params& p, const QString& title, const AnalysisRecipe& recipe);
    std::vector<Segment> matrixRows_;
    std::map<const QObject*, AnalysisRecipe> shown_;  // view -> its result's recipe (the GUI thread's)
    std::uint64_t budgetOverride_ = 0;
};

}  // namespace warplab::app
