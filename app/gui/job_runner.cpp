#include "app/gui/job_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <new>
#include <utility>

#include "compute/core/error.h"

namespace warplab::app {
namespace {
constexpr qint64 kProgressIntervalMs = 40;  // about 25 updates per second
}

// What the worker hands the GUI thread goes through `mutex` (a lock ThreadSanitizer sees), and
// the worker only wakes the GUI thread up (pollJobs); a queued lambda carrying the data would
// be built on the worker and run on the GUI thread through Qt's event queue, a hand-off that
// uninstrumented Qt hides from the race checks.
struct JobRunner::Job {
    quint64 id = 0;
    QString slot, title;
    compute::CancelToken token;
    QElapsedTimer timer;
    std::atomic<qint64> lastProgressMs{-kProgressIntervalMs};

    std::mutex mutex;
    bool progressNew = false;  // guarded by mutex, as everything below
    double progress = 0;
    qint64 progressMs = 0;
    bool done = false;
    Apply apply;
    QString error;
    bool cancelled = false;
};

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
    // Engine work is itself parallel (oneTBB); two job threads keep one job from blocking another.
    pool_.setMaxThreadCount(2);
}

JobRunner::~JobRunner() {
    cancelAll();
    pool_.waitForDone();
}

quint64 JobRunner::submit(const QString& slot, const QString& title, compute::RunOptions options, Work work) {
    if (auto it = current_.find(slot); it != current_.end()) {
        // Superseded: stop the older job's worker and forget it without a signal of failure.
        if (auto old = jobs_.find(it->second); old != jobs_.end()) {
            old->second->token.cancel();
            jobs_.erase(old);
        }
    }
    auto job = std::make_shared<Job>();
    job->id = nextId_++;
    job->slot = slot;
    job->title = title;
    job->timer.start();
    jobs_[job->id] = job;
    current_[slot] = job->id;

    options.cancel = &job->token;
    options.progress = [this, job, probe = probe_](double fraction) {
        if (probe && *probe) (*probe)(job->slot, fraction);
        const qint64 now = job->timer.elapsed();
        qint64 last = job->lastProgressMs.load();
        if (now - last < kProgressIntervalMs && fraction < 1.0) return;
        if (!job->lastProgressMs.compare_exchange_strong(last, now)) return;
        {
            std::lock_guard<std::mutex> lock(job->mutex);
            job->progressNew = true;
            job->progress = fraction;
            job->progressMs = now;
        }
        QMetaObject::invokeMethod(this, "pollJobs", Qt::QueuedConnection);
    };
    ++workers_;
    running_.push_back(job);
    Q_EMIT jobStarted(job->id, slot, title);
    pool_.start([this, job, options, work = std::move(work)] {
        Apply apply;
        QString error;
        bool cancelled = false;
        try {
            apply = work(options);
            cancelled = job->token.cancelled();
        } catch (const compute::EngineError& e) {
            if (e.kind() == compute::EngineError::Kind::Cancelled) cancelled = true;
            else error = QString::fromStdString(e.what());
        } catch (const std::bad_alloc&) {
            error = tr("out of memory: the job needed more memory than is free (choose shorter regions or a band)");
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        } catch (...) {
            error = tr("an unknown error stopped the job");
        }
        {
            std::lock_guard<std::mutex> lock(job->mutex);
            job->done = true;
            job->apply = std::move(apply);
            job->error = std::move(error);
            job->cancelled = cancelled;
        }
        QMetaObject::invokeMethod(this, "pollJobs", Qt::QueuedConnection);
    });
    return job->id;
}

void JobRunner::pollJobs() {
    // Progress first, so that a job's last report comes before its end; a job delivered here
    // leaves running_ before its Apply runs (an Apply may submit the next job).
    std::vector<std::shared_ptr<Job>> ended;
    for (auto it = running_.begin(); it != running_.end();) {
        const std::shared_ptr<Job> job = *it;
        bool report = false, done = false;
        double fraction = 0;
        qint64 ms = 0;
        {
            std::lock_guard<std::mutex> lock(job->mutex);
            report = std::exchange(job->progressNew, false);
            fraction = job->progress;
            ms = job->progressMs;
            done = job->done;
        }
        if (report && jobs_.count(job->id)) Q_EMIT jobProgress(job->id, fraction, ms);
        if (done) {
            ended.push_back(job);
            it = running_.erase(it);
        } else {
            ++it;
        }
    }
    for (const auto& job : ended) {
        Apply apply;
        QString error;
        bool cancelled = false;
        {
            std::lock_guard<std::mutex> lock(job->mutex);
            apply = std::move(job->apply);
            error = job->error;
            cancelled = job->cancelled;
        }
        deliver(job, std::move(apply), error, cancelled);
    }
}

void JobRunner::deliver(const std::shared_ptr<Job>& job, Apply apply, QString error, bool cancelled) {
    --workers_;
    Q_EMIT workerStopped(job->id);
    auto it = jobs_.find(job->id);
    if (it == jobs_.end()) return;  // cancelled or superseded earlier: nobody wants this result
    jobs_.erase(it);
    if (current_[job->slot] == job->id) current_.erase(job->slot);
    if (cancelled) {
        Q_EMIT jobCancelled(job->id, job->slot);
    } else if (!error.isEmpty()) {
        Q_EMIT jobFailed(job->id, job->slot, job->title, error);
    } else {
        // Showing a result allocates too (images, tables): a failure there is the job's.
        QString applyError;
        try {
            if (apply) apply();
        } catch (const std::bad_alloc&) {
            applyError = tr("out of memory while showing the result");
        } catch (const std::exception& e) {
            applyError = tr("the result could not be shown: %1").arg(QString::fromStdString(e.what()));
        }
        if (applyError.isEmpty()) Q_EMIT jobFinished(job->id, job->slot, job->timer.elapsed());
        else Q_EMIT jobFailed(job->id, job->slot, job->title, applyError);
    }
}

void JobRunner::cancel(quint64 id) {
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return;
    auto job = it->second;
    job->token.cancel();
    jobs_.erase(it);
    if (current_[job->slot] == id) current_.erase(job->slot);
    Q_EMIT jobCancelled(id, job->slot);
}

void JobRunner::cancelAll() {
    std::vector<quint64> ids;
    for (const auto& [id, job] : jobs_) ids.push_back(id);
    for (quint64 id : ids) cancel(id);
}

void JobRunner::cancelAllBut(const QStringList& keepPrefixes) {
    std::vector<quint64> ids;
    for (const auto& [id, job] : jobs_)
        if (std::none_of(keepPrefixes.begin(), keepPrefixes.end(), [&](const QString& p) { return job->slot.startsWith(p); }))
            ids.push_back(id);
    for (quint64 id : ids) cancel(id);
}

bool JobRunner::waitForIdle(int msecs) { return pool_.waitForDone(msecs); }

}  // namespace warplab::app
