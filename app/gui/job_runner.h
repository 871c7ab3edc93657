// Runs engine work on worker threads (a QThreadPool) and brings results back to the GUI
// thread. Every job has an id and a slot (the view it writes to): a newer job for the same
// slot supersedes the older one, whose result is dropped (hotspot's pattern). Progress is
// throttled to ~25 updates/s. Workers never touch widgets: the work returns an `Apply`
// closure that the GUI thread collects (under the job's lock, woken by a queued call) and
// runs only if the job is still current.
// A job that fails (a device error, memory that ran out, anything thrown by the work or by its
// Apply) ends with jobFailed and its reason; it never takes the window down, and the views keep
// what they showed before it.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QThreadPool>

#include "compute/core/job.h"

namespace warplab::app {

class JobRunner : public QObject {
    Q_OBJECT
public:
    using Apply = std::function<void()>;
    // Runs on a worker thread with `options` carrying the job's progress and cancel token.
    using Work = std::function<Apply(const compute::RunOptions& options)>;

    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;  // cancels everything and waits for the workers

    quint64 submit(const QString& slot, const QString& title, compute::RunOptions options, Work work);
    void cancel(quint64 id);   // the job reports jobCancelled at once; its worker stops at the next check
    void cancelAll();
    // Cancels every job except those whose slot starts with one of `keepPrefixes` (jobs that
    // do not read the open recording outlive a change of it).
    void cancelAllBut(const QStringList& keepPrefixes);
    bool isActive(quint64 id) const { return jobs_.count(id) != 0; }
    int activeCount() const { return int(jobs_.size()); }
    int runningWorkers() const { return workers_; }
    bool waitForIdle(int msecs);  // for tests and shutdown: waits for the worker threads

    // Called on the worker thread with each progress report of every job, before it is
    // passed on. What it throws travels back through the engine's own threads as a failure
    // there would: tests inject device errors and allocation failures mid-job with it.
    using ProgressProbe = std::function<void(const QString& slot, double fraction)>;
    void setProgressProbe(ProgressProbe probe) { probe_ = std::make_shared<const ProgressProbe>(std::move(probe)); }

Q_SIGNALS:
    void jobStarted(quint64 id, const QString& slot, const QString& title);
    void jobProgress(quint64 id, double fraction, qint64 elapsedMs);
    void jobFinished(quint64 id, const QString& slot, qint64 elapsedMs);
    void jobFailed(quint64 id, const QString& slot, const QString& title, const QString& message);
    void jobCancelled(quint64 id, const QString& slot);
    void workerStopped(quint64 id);  // the worker thread of a job has returned (finished or not)

private:
    struct Job;
    // On the GUI thread, woken by the workers: passes on new progress and delivers ended jobs.
    Q_INVOKABLE void pollJobs();
    void deliver(const std::shared_ptr<Job>& job, Apply apply, QString error, bool cancelled);

    QThreadPool pool_;
    std::map<quint64, std::shared_ptr<Job>> jobs_;  // jobs whose result is still wanted
    std::map<QString, quint64> current_;            // slot -> newest job id
    std::vector<std::shared_ptr<Job>> running_;     // jobs whose worker has not been delivered
    quint64 nextId_ = 1;
    int workers_ = 0;
    std::shared_ptr<const ProgressProbe> probe_;  // shared with the jobs submitted while set
};

}  // namespace warplab::app
