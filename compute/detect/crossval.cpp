#include "compute/detect/crossval.h"

#include <algorithm>
#include <chrono>
#include <mutex>

#include "compute/core/error.h"
#include "compute/detect/crossval_folds.h"

namespace warplab::compute {

namespace {

using K = EngineError::Kind;

}  // namespace

std::vector<PatternRequest> withoutRecording(const std::vector<PatternRequest>& requests, int recordingIndex) {
    std::vector<PatternRequest> out = requests;
    for (auto& r : out)
        std::erase_if(r.segments, [&](const PatternSegment& s) { return s.recordingIndex == recordingIndex; });
    return out;
}

std::vector<const PatternSegment*> heldOutRecordings(const std::vector<PatternRequest>& requests, CrossvalFolds folds) {
    if (requests.empty() || requests.front().segments.empty())
        throw EngineError(K::BadInput, "study", "cross-validation needs a study (one segment per recording)");
    const PatternRequest& first = requests.front();
    const std::size_t withSeizures = std::size_t(std::count_if(first.segments.begin(), first.segments.end(),
                                                               [](const PatternSegment& s) { return !s.seizures.empty(); }));
    if (withSeizures < 2)
        throw EngineError(K::BadInput, "seizures",
                          "cross-validation needs seizures in at least two recordings (" + std::to_string(withSeizures) +
                              " has one): each fold trains on the others");
    std::vector<const PatternSegment*> held;
    for (const auto& s : first.segments)
        if (folds == CrossvalFolds::Recording || !s.seizures.empty()) held.push_back(&s);
    return held;
}

CachedFold foldOf(const PatternSegment& test, const std::vector<PatternRequest>& training, double rateHz) {
    CachedFold fold;
    fold.recordingIndex = test.recordingIndex;
    fold.recording = test.recording;
    for (const auto& s : test.seizures) fold.seizures.push_back({s.start, s.end});
    for (const auto& s : training.front().segments) fold.training.push_back(s.recording);
    fold.durationS = double(segmentLength(test)) / rateHz;
    return fold;
}

double studySeconds(const std::vector<PatternRequest>& requests) {
    double total = 0;
    for (const auto& s : requests.front().segments) total += double(segmentLength(s)) / requests.front().rateHz;
    return total;
}

std::vector<float> heldOutSamples(const std::vector<PatternRequest>& requests, const PatternSegment& test,
                                  const std::string& channel) {
    for (const auto& r : requests)
        if (r.channel == channel)
            for (const auto& s : r.segments)
                if (s.recordingIndex == test.recordingIndex) return segmentSamples(s);
    throw EngineError(K::BadInput, "channel", test.recording + " has no channel '" + channel + "'");
}

RunOptions JobProgress::stage(double lo, double hi) const {
    RunOptions r = run_;
    if (run_.progress)
        r.progress = [run = run_, state = state_, lo, hi](double f) {
            const double at = lo + (hi - lo) * std::clamp(f, 0.0, 1.0);
            std::lock_guard<std::mutex> lock(state->mutex);
            if (at > state->at) {
                state->at = at;
                run.progress(at);
            }
        };
    return r;
}

void checkCancelled(const RunOptions& run) {
    if (run.cancel && run.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");
}

CrossvalCache crossValidatePerFold(const std::vector<PatternRequest>& requests, const CrossvalOptions& o,
                                   const RunOptions& run) {
    const std::vector<const PatternSegment*> held = heldOutRecordings(requests, o.folds);
    const JobProgress progress(run);
    CrossvalCache cache;
    cache.options = o;
    cache.totalS = studySeconds(requests);
    const double n = double(held.size());
    for (std::size_t k = 0; k < held.size(); ++k) {
        const PatternSegment* test = held[k];
        // Each fold's share of the one progress bar: discovery most of it, then the training
        // sweep and the held-out one, each of which reports 0..1 again per block.
        auto stage = [&, k](double lo, double hi) { return progress.stage((double(k) + lo) / n, (double(k) + hi) / n); };
        const auto training = withoutRecording(requests, test->recordingIndex);
        CachedFold fold = foldOf(*test, training, requests.front().rateHz);
        const auto t0 = std::chrono::steady_clock::now();
        const auto rankings = findPatterns(training, stage(0.0, 0.7));
        const auto t1 = std::chrono::steady_clock::now();
        fold.detector = buildDetector(training, rankings, o.build, stage(0.7, 0.95), &fold.rocs);
        // The held-out recording, channel by channel, from the full requests only.
        fold.detection = applyDetector(
            fold.detector, [&](const std::string& channel) { return heldOutSamples(requests, *test, channel); },
            requests.front().rateHz, stage(0.95, 1.0));
        cache.matrixSeconds += std::chrono::duration<double>(t1 - t0).count();
        cache.foldSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        cache.folds.push_back(std::move(fold));
    }
    progress.done();
    return cache;
}

CrossvalResult rescore(const CrossvalCache& cache, const OperatingPoint& op, const DetectorRule& rule,
                       const EventScoringOptions& event, const SampleScoringOptions& sample) {
    CrossvalResult result;
    result.totalS = cache.totalS;
    std::vector<DetectionScores> events, samples;
    for (const CachedFold& c : cache.folds) {
        CrossvalFold fold;
        fold.recordingIndex = c.recordingIndex;
        fold.recording = c.recording;
        fold.training = c.training;
        fold.durationS = c.durationS;
        fold.seizures = c.seizures.size();
        fold.detector = c.detector;
        fold.detector.operatingPoint = op;
        fold.detector.rule = rule;
        for (std::size_t p = 0; p < fold.detector.patterns.size() && p < c.rocs.size(); ++p) {
            const RocPoint roc = thresholdAt(c.rocs[p], op);
            auto& dp = fold.detector.patterns[p];
            dp.threshold = roc.threshold;
            dp.trainingTpr = roc.tpr;
            dp.trainingFpr = roc.fpr;
        }
        validateDetector(fold.detector);
        std::vector<DetectedEvent> detected = decide(fold.detector, c.detection.distances);
        std::vector<TimedEvent> hyp;
        for (const auto& e : detected) hyp.push_back({e.startS, e.endS});
        fold.scoring = scoreEvents(c.seizures, hyp, fold.durationS, event);
        fold.event = fold.scoring.scores;
        fold.outcomes = fold.scoring.seizures;
        fold.sample = scoreSamples(c.seizures, hyp, fold.durationS, sample);
        fold.detections = std::move(detected);
        events.push_back(fold.event);
        samples.push_back(fold.sample);
        result.testedS += fold.durationS;
        result.folds.push_back(std::move(fold));
    }
    result.event = pooledScores(events);
    result.sample = pooledScores(samples);
    return result;
}

CrossvalResult rescore(const CrossvalCache& cache) {
    return rescore(cache, cache.options.build.operatingPoint, cache.options.build.rule, cache.options.event,
                   cache.options.sample);
}

CrossvalResult crossValidate(const std::vector<PatternRequest>& requests, const CrossvalOptions& o, const RunOptions& run) {
    CrossvalResult result = rescore(crossValidateCached(requests, o, run));
    if (!o.keepDetectors)
        for (auto& f : result.folds) f.detector = {};
    return result;
}

}  // namespace warplab::compute
