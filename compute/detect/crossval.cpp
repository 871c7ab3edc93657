#include "compute/detect/crossval.h"

#include <algorithm>

#include "compute/core/error.h"

namespace warplab::compute {

namespace {

using K = EngineError::Kind;

std::vector<float> samplesOf(const PatternSegment& s) {
    if (!s.samples.empty()) return {s.samples.begin(), s.samples.end()};
    std::vector<float> out(std::size_t(std::max(0LL, s.sampleCount)));
    if (s.sampleCount > 0) s.reader(0, s.sampleCount, out.data());
    return out;
}

}  // namespace

std::vector<PatternRequest> withoutRecording(const std::vector<PatternRequest>& requests, int recordingIndex) {
    std::vector<PatternRequest> out = requests;
    for (auto& r : out)
        std::erase_if(r.segments, [&](const PatternSegment& s) { return s.recordingIndex == recordingIndex; });
    return out;
}

CrossvalResult crossValidate(const std::vector<PatternRequest>& requests, const CrossvalOptions& o, const RunOptions& run) {
    if (requests.empty() || requests.front().segments.empty())
        throw EngineError(K::BadInput, "study", "cross-validation needs a study (one segment per recording)");
    const PatternRequest& first = requests.front();
    std::vector<const PatternSegment*> held;
    for (const auto& s : first.segments)
        if (!s.seizures.empty()) held.push_back(&s);
    if (held.size() < 2)
        throw EngineError(K::BadInput, "seizures",
                          "cross-validation needs seizures in at least two recordings (" + std::to_string(held.size()) +
                              " has one): each fold trains on the others");
    CrossvalResult result;
    for (const auto& s : first.segments) result.totalS += double(s.sampleCount) / first.rateHz;
    std::vector<DetectionScores> events, samples;
    for (const PatternSegment* test : held) {
        CrossvalFold fold;
        fold.recordingIndex = test->recordingIndex;
        fold.recording = test->recording;
        fold.seizures = test->seizures.size();
        const auto training = withoutRecording(requests, test->recordingIndex);
        for (const auto& s : training.front().segments) fold.training.push_back(s.recording);
        const auto rankings = findPatterns(training, run);
        const Detector d = buildDetector(training, rankings, o.build, run);
        // The held-out recording, channel by channel, from the full requests only.
        const Detection det = applyDetector(
            d,
            [&](const std::string& channel) {
                for (const auto& r : requests)
                    if (r.channel == channel)
                        for (const auto& s : r.segments)
                            if (s.recordingIndex == test->recordingIndex) return samplesOf(s);
                throw EngineError(K::BadInput, "channel", test->recording + " has no channel '" + channel + "'");
            },
            first.rateHz, run);
        fold.durationS = double(test->sampleCount) / first.rateHz;
        std::vector<TimedEvent> ref, hyp;
        for (const auto& s : test->seizures) ref.push_back({s.start, s.end});
        for (const auto& e : det.events) hyp.push_back({e.startS, e.endS});
        const auto ev = scoreEvents(ref, hyp, fold.durationS, o.event);
        fold.event = ev.scores;
        fold.outcomes = ev.seizures;
        fold.sample = scoreSamples(ref, hyp, fold.durationS, o.sample);
        fold.detections = det.events;
        if (o.keepDetectors) fold.detector = d;
        events.push_back(fold.event);
        samples.push_back(fold.sample);
        result.testedS += fold.durationS;
        result.folds.push_back(std::move(fold));
    }
    result.event = pooledScores(events);
    result.sample = pooledScores(samples);
    return result;
}

}  // namespace warplab::compute
