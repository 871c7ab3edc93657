// Scoring a seizure detector the way the field does (SzCORE): events of a hypothesis (the
// detections) against the events of a reference (the marked seizures) over one recording.
//
// Event-based: both event lists are put on a grid of `gridHz` (10 Hz), events closer than
// `mergeGapS` (90 s) are merged and events longer than `maxEventS` (5 min) split into pieces
// of at most that length. A reference event, widened by `toleranceBeforeS` (30 s) before and
// `toleranceAfterS` (60 s) after (clipped to the recording), is detected (a true positive)
// when the hypothesis covers more than `minOverlap` of the widened span (0: any overlap). A
// hypothesis event that touches no detected widened span is a false positive.
//
// Sample-based: the two lists as masks at `sampleHz` (1 Hz); a sample is a true positive when
// both mark it, a false positive when only the hypothesis does; the reference count is the
// number of reference samples.
//
// Both follow the rules of the published reference implementation (timescoring), to the
// rounding: a time t lies on grid sample round(t * rate) (halves to even), an event covers
// samples [round(start*rate), round(end*rate)), the recording round(duration*rate) samples.
// One difference: events are sorted and overlapping ones joined before scoring, so a nested
// event never shortens the one around it.
#pragma once
#include <cstddef>
#include <vector>

namespace warplab::compute {

// Seconds from the recording start; `endS` exclusive.
struct TimedEvent {
    double startS = 0, endS = 0;
};

struct EventScoringOptions {
    double toleranceBeforeS = 30;
    double toleranceAfterS = 60;
    double minOverlap = 0;        // fraction of the widened reference span; 0 = any overlap
    double maxEventS = 300;       // longer events are split; <= 0: never
    double mergeGapS = 90;        // events separated by less are merged; 0: never
    double gridHz = 10;           // time resolution of the event rules
};

struct SampleScoringOptions {
    double sampleHz = 1;          // rate of the label masks
};

// What SzCORE reports. Undefined ratios are NaN: sensitivity without reference events,
// precision without detections, F1 with neither.
struct DetectionScores {
    long long tp = 0, fp = 0;
    long long reference = 0;      // reference events (sample-based: reference samples)
    double sensitivity = 0, precision = 0, f1 = 0;
    double fpPerDay = 0;
    double durationS = 0;         // the recording time scored: grid samples / rate
};

// Per reference seizure (after merging, before splitting): whether it was detected and the
// onset delay of its first detection (first hypothesis grid sample inside the widened span,
// minus the seizure's start; negative when the detection came early, within the tolerance).
struct SeizureOutcome {
    TimedEvent seizure;
    bool detected = false;
    double latencyS = 0;          // meaningful when detected
};

struct EventScoring {
    DetectionScores scores;
    std::vector<TimedEvent> reference, hypothesis;   // as scored: merged and split
    std::vector<unsigned char> referenceDetected;    // per reference event
    std::vector<unsigned char> hypothesisFalse;      // per hypothesis event: a false positive
    std::vector<SeizureOutcome> seizures;
};

// Throws EngineError (BadInput naming "reference[i]" / "hypothesis[i]") for an event that is
// not finite, starts before 0 or ends before it starts; BadParameter for a duration or an
// option out of range.
EventScoring scoreEvents(const std::vector<TimedEvent>& reference, const std::vector<TimedEvent>& hypothesis,
                         double durationS, const EventScoringOptions& options = {});
DetectionScores scoreSamples(const std::vector<TimedEvent>& reference, const std::vector<TimedEvent>& hypothesis,
                             double durationS, const SampleScoringOptions& options = {});

// Pools several recordings' scores: counts and durations add, ratios recomputed.
DetectionScores pooledScores(const std::vector<DetectionScores>& parts);

// Sorted by start, overlapping or touching events joined. Throws as scoreEvents (`what`
// names the list).
std::vector<TimedEvent> normalizedEvents(const std::vector<TimedEvent>& events, const char* what);

}  // namespace warplab::compute
