// Analyses over a set of frequency bands in one job (the Metric panel's Compare bands): the
// pattern discovery of the current channel, the search of the query region in its channel and
// the distance matrix of the channels over the visible window, each band on the series
// filtered to it (zero phase, after the analysis filters) exactly as the one-band analysis
// filters them, the results side by side in the band comparison view. A band the recording
// cannot hold is refused by name in its own row; the others still run.
#pragma once
#include <QObject>
#include <QString>

namespace warplab::widgets {
class SignalView;
class MetricPanel;
class SearchResultsView;
class BandComparisonView;
}  // namespace warplab::widgets

namespace warplab::app {

class Document;
class JobRunner;

class BandJobs : public QObject {
    Q_OBJECT
public:
    BandJobs(Document* doc, JobRunner* runner, widgets::SignalView* signal, widgets::MetricPanel* metric,
             widgets::SearchResultsView* search, widgets::BandComparisonView* view, QObject* parent = nullptr);

    // Each returns the job id, or 0 when refused (errorOccurred says why).
    quint64 findPatterns(int channel, int epoch = 1024, int stride = 256);
    quint64 searchQuery(int topK = 5);
    quint64 channelDistanceMatrix();

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);
    void viewRequested(QWidget* view);

private:
    QString bandList() const;

    Document* doc_;
    JobRunner* runner_;
    widgets::SignalView* signal_;
    widgets::MetricPanel* metric_;
    widgets::SearchResultsView* search_;
    widgets::BandComparisonView* view_;
};

}  // namespace warplab::app
