// Keeps the result views honest about what they show. When a job fills a view, the view's
// source line names the recording, its channel set (as recorded or a montage), the metric and
// its band, the filters analysed and the time range (the job's title); when the recording or
// its montage changes, the recording-bound views are cleared, so that no hover, click or
// export speaks of channels or times that are no longer there.
#pragma once
#include <map>

#include <QObject>
#include <QString>

#include "compute/core/params.h"

namespace warplab::widgets {
class MetricPanel;
class CostMatrixView;
class AlignmentView;
class DistanceMatrixView;
class SearchResultsView;
class PatternsView;
}  // namespace warplab::widgets

namespace warplab::app {

class Document;
class JobRunner;

// "chb01_03.edf · 23 channels as recorded · dtw, no band": what a job of `slot` runs on.
QString resultContext(const Document& doc, const compute::Params& p, const QString& slot, const QString& what);
// "<what> · <context>": the title of a result (its view's first line, its exported plots).
QString resultSource(const Document& doc, const compute::Params& p, const QString& slot, const QString& what);

class ResultSources : public QObject {
    Q_OBJECT
public:
    struct Views {
        widgets::MetricPanel* metric;
        widgets::CostMatrixView* cost;
        widgets::AlignmentView* alignment;
        widgets::DistanceMatrixView* distances;
        widgets::SearchResultsView* search;
        widgets::PatternsView* patterns;
    };
    ResultSources(Document* doc, JobRunner* runner, Views views, QObject* parent = nullptr);

    void clearResults();  // every recording-bound view, with its source line

private:
    Document* doc_;
    Views v_;
    struct Pending { QString full, context; };
    std::map<quint64, Pending> pending_;  // job id -> its source, taken when it was submitted
};

}  // namespace warplab::app
