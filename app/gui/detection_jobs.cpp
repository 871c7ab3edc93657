#include "app/gui/detection_jobs.h"

#include <algorithm>

#include "app/gui/job_runner.h"
#include "app/gui/study_controller.h"
#include "compute/patterns/pattern_discovery.h"
#include "io/io_error.h"
#include "widgets/detection_view.h"
#include "widgets/metric_panel.h"
#include "widgets/signal_view.h"
#include "widgets/study_access.h"

namespace warplab::app {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

DetectionJobs::DetectionJobs(StudyController* study, JobRunner* runner, widgets::MetricPanel* metric,
                             widgets::SignalView* signal, widgets::DetectionView* view, QObject* parent)
    : QObject(parent), study_(study), runner_(runner), metric_(metric), signal_(signal), view_(view) {
    connect(view_, &widgets::DetectionView::placeActivated, this, [this](const widgets::DetectionPlace& p) { show(p); });
    // A result names the recordings of its study: another study (or none) makes it meaningless.
    connect(study_, &StudyController::studyChanged, this, [this] { view_->clear(); });
}

QString crossvalSettingsProblem(const CrossvalSettings& s) {
    if (s.channels.isEmpty()) return QObject::tr("Choose at least one channel: its patterns make the detector.");
    const long long patterns = (long long)(s.options.build.top) * s.channels.size();
    if (s.options.build.top < 1) return QObject::tr("Patterns per channel must be at least 1.");
    if (s.options.build.rule.votes < 1) return QObject::tr("Votes needed must be at least 1.");
    if (s.options.build.rule.votes > patterns)
        return QObject::tr("Votes needed (%1) cannot exceed the detector's patterns: %2 per channel × %3 = %4. Lower "
                           "the votes, or keep more patterns or channels.")
            .arg(s.options.build.rule.votes).arg(s.options.build.top).arg(s.channels.size()).arg(patterns);
    return {};
}

quint64 DetectionJobs::crossValidate(const QString& channelName, compute::CrossvalOptions options, int epoch, int stride) {
    CrossvalSettings s;
    s.channels = QStringList{channelName};
    s.epoch = epoch;
    s.stride = stride;
    s.options = std::move(options);
    return crossValidate(s);
}

quint64 DetectionJobs::crossValidate(const CrossvalSettings& settings) {
    const auto study = study_->study();
    const QString title = tr("Seizure detector");
    if (!study) {
        Q_EMIT errorOccurred(title, tr("Open a study first (File ▸ Open study)."));
        return 0;
    }
    QStringList channels;
    for (const QString& c : settings.channels)
        if (!channels.contains(c)) channels << c;
    CrossvalSettings s = settings;
    s.channels = channels;
    if (const QString problem = crossvalSettingsProblem(s); !problem.isEmpty()) {
        Q_EMIT errorOccurred(title, problem);
        return 0;
    }
    const int band = s.band >= 0 ? s.band : metric_->params().band;
    std::vector<compute::PatternRequest> requests;
    std::vector<std::string> skipped;
    int withSeizures = 0;
    try {
        for (const QString& channelName : channels) {
            const int sc = study->findChannel(channelName.toStdString());
            if (sc < 0)
                throw io::IoError(study->sourcePath(), "channel", "the study has no channel " + channelName.toStdString());
            std::vector<std::string> skippedHere;
            compute::PatternRequest req = io::studyPatternRequest(*study, sc, &skippedHere);
            for (auto& k : skippedHere)
                if (std::find(skipped.begin(), skipped.end(), k) == skipped.end()) skipped.push_back(std::move(k));
            int seizures = 0;
            for (compute::PatternSegment& seg : req.segments) {
                seg.seizures.clear();
                const int signal = study->channels()[std::size_t(sc)].signalOf[std::size_t(seg.recordingIndex)];
                for (const io::Region& r : study_->regionsOf(seg.recordingIndex))
                    if (r.kind == io::RegionKind::Seizure && (r.channel < 0 || r.channel == signal))
                        seg.seizures.push_back({r.startS, r.endS});
                seizures += seg.seizures.empty() ? 0 : 1;
            }
            // Folds are held-out recordings: the first channel's count is what they are made of.
            if (requests.empty()) withSeizures = seizures;
            req.epoch = s.epoch;
            req.stride = s.stride;
            req.band = band;
            req.keepMatrixUpToBytes = 0;
            compute::validatePatternRequest(req);
            // Said now rather than after the pattern matrices: the detector would refuse them.
            if (!requests.empty() && req.rateHz != requests.front().rateHz)
                throw io::IoError(study->sourcePath(), "channel",
                                  "channels that vote together must share one sampling rate: " + requests.front().channel +
                                      " is sampled at " + QString::number(requests.front().rateHz).toStdString() +
                                      " Hz, " + req.channel + " at " + QString::number(req.rateHz).toStdString() + " Hz");
            requests.push_back(std::move(req));
        }
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(title, q(e.what()));
        return 0;
    }
    if (withSeizures < 2) {
        Q_EMIT errorOccurred(title, tr("Cross-validation needs seizures marked in at least two recordings of the study "
                                       "(recordings with a seizure now: %1): each fold trains on the others. Mark "
                                       "seizures as Seizure regions, or open the study with its summary.")
                                        .arg(withSeizures));
        return 0;
    }
    QString skippedText;
    for (const auto& k : skipped) skippedText += (skippedText.isEmpty() ? "" : ", ") + q(k);
    const compute::CrossvalOptions options = s.options;
    const bool byRecording = options.folds == compute::CrossvalFolds::Recording;
    const QString desc =
        tr("%1 cross-validation of a detector on %2 over %3 recordings (%4 with seizures): top %5 patterns per channel, "
           "%6, %7 %8 needed, e = %9, s = %10, w = %11")
            .arg(byRecording ? tr("Leave-one-recording-out") : tr("Leave-one-seizure-out"), channels.join(", "))
            .arg(requests.front().segments.size()).arg(withSeizures).arg(options.build.top)
            .arg(q(compute::operatingPointName(options.build.operatingPoint)))
            .arg(options.build.rule.votes).arg(options.build.rule.votes == 1 ? tr("vote") : tr("votes"))
            .arg(s.epoch).arg(s.stride).arg(band) +
        (skippedText.isEmpty() ? QString() : tr("; skipped: %1").arg(skippedText));
    auto* view = view_;
    Q_EMIT viewRequested(view);
    // The requests read through the study: the job keeps it alive.
    return runner_->submit("study.detection", desc, metric_->runOptions(),
                           [=](const compute::RunOptions& o) -> JobRunner::Apply {
                               auto cache = std::make_shared<const compute::CrossvalCache>(
                                   compute::crossValidateCached(requests, options, o));
                               (void)study;
                               return [=] { view->setCache(cache, desc); };
                           });
}

void DetectionJobs::show(const widgets::DetectionPlace& place) {
    if (place.recording < 0) return;
    if (!study_->goTo(place.recording, place.startS, place.endS, place.channel)) return;
    if (place.pattern.empty()) {
        signal_->clearOverlayTrace();
        return;
    }
    const auto study = study_->study();
    int channel = -1;
    if (study && study_->currentRecording() == place.recording)
        channel = signal_->currentChannel();
    // The matched epoch in the middle of the window (an event may be longer than the window).
    const double epochS = double(place.pattern.size()) / place.rateHz, len = signal_->windowLength();
    signal_->setWindow(std::max(0.0, place.patternStartS + epochS / 2 - len / 2), len);
    signal_->setOverlayTrace(channel, place.patternStartS, place.rateHz, place.pattern,
                             tr("matched pattern: distance %1, threshold %2").arg(place.distance, 0, 'g', 3).arg(place.threshold, 0, 'g', 3));
}

}  // namespace warplab::app
