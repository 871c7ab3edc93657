// The study's seizure detector on the JobRunner: leave-one-out cross-validation of a detector
// over the open study (compute::crossValidateCached) on a worker thread with progress and
// cancel, its result handed to the Detection view, which re-scores it on its own when the user
// moves the operating point. Each recording's seizures are its region list as the user keeps
// it (StudyController::regionsOf), as pattern discovery over the study takes them.
#pragma once
#include <QObject>
#include <QString>
#include <QStringList>

#include "compute/detect/crossval.h"

namespace warplab::widgets {
class DetectionView;
class MetricPanel;
class SignalView;
struct DetectionPlace;
}  // namespace warplab::widgets

namespace warplab::app {

class JobRunner;
class StudyController;

// What a cross-validation is asked for (crossval_dialog.h fills it, with `warplab-cli
// crossval`'s defaults): the study's channels whose patterns vote together, epoch and stride in
// samples, the band (< 0: the metric panel's), and how the detector is built and scored.
struct CrossvalSettings {
    QStringList channels;
    int epoch = 1024, stride = 256;
    int band = -1;
    compute::CrossvalOptions options;
};
// Why `settings` cannot run ("" when they can): no channel, or more votes than the detector
// has patterns (top x channels), said so that a person knows what to change.
QString crossvalSettingsProblem(const CrossvalSettings& settings);

class DetectionJobs : public QObject {
    Q_OBJECT
public:
    DetectionJobs(StudyController* study, JobRunner* runner, widgets::MetricPanel* metric, widgets::SignalView* signal,
                  widgets::DetectionView* view, QObject* parent = nullptr);

    // Cross-validates a detector of the study's channels named in `settings` (one request per
    // channel, their patterns voting together). Returns the job id, or 0 with errorOccurred
    // saying why (no study, a channel it lacks, votes beyond the patterns, too few seizures).
    quint64 crossValidate(const CrossvalSettings& settings);
    // The same for one channel, with the metric panel's band.
    quint64 crossValidate(const QString& channelName, compute::CrossvalOptions options = {}, int epoch = 1024,
                          int stride = 256);

    // Opens the event's recording at the event, on its pattern's channel, with the pattern
    // drawn over the epoch it matched.
    void show(const widgets::DetectionPlace& place);

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);
    void viewRequested(QWidget* view);

private:
    StudyController* study_;
    JobRunner* runner_;
    widgets::MetricPanel* metric_;
    widgets::SignalView* signal_;
    widgets::DetectionView* view_;
};

}  // namespace warplab::app
