#include "compute/scoring/scoring.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "compute/core/error.h"

namespace warplab::compute {

namespace {

using Kind = EngineError::Kind;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// round(x) as the reference implementation rounds (halves to even): the default rounding mode.
long long gridIndex(double seconds, double rate) { return static_cast<long long>(std::nearbyint(seconds * rate)); }

// Samples [round(start*rate), round(end*rate)) of a mask of n, clipped as a slice is.
struct Slice {
    long long begin = 0, end = 0;
};
Slice sliceOf(const TimedEvent& e, double rate, long long n) {
    Slice s{std::clamp(gridIndex(e.startS, rate), 0LL, n), std::clamp(gridIndex(e.endS, rate), 0LL, n)};
    if (s.end < s.begin) s.end = s.begin;
    return s;
}

std::vector<unsigned char> maskOf(const std::vector<TimedEvent>& events, double rate, long long n) {
    std::vector<unsigned char> mask(std::size_t(n), 0);
    for (const auto& e : events) {
        const Slice s = sliceOf(e, rate, n);
        std::fill(mask.begin() + s.begin, mask.begin() + s.end, 1);
    }
    return mask;
}

void checkPositive(double v, const char* field, bool allowZero) {
    if (!std::isfinite(v) || v < 0 || (!allowZero && v == 0))
        throw EngineError(Kind::BadParameter, field,
                          std::string("must be a finite number ") + (allowZero ? ">= 0" : "> 0") + ", got " +
                              std::to_string(v));
}

long long gridLength(double durationS, double rate) {
    checkPositive(durationS, "duration", true);
    checkPositive(rate, "rate", false);
    const double n = std::nearbyint(durationS * rate);
    if (n < 1) throw EngineError(Kind::BadParameter, "duration", "shorter than one label sample at this rate");
    if (n > 1e10) throw EngineError(Kind::BadParameter, "duration", "too long for a label grid at this rate");
    return static_cast<long long>(n);
}

// Events separated by less than `gap` become one (the later one's end closes it).
std::vector<TimedEvent> merged(const std::vector<TimedEvent>& events, double gap) {
    std::vector<TimedEvent> out;
    for (const auto& e : events) {
        if (!out.empty() && e.startS - out.back().endS < gap)
            out.back().endS = std::max(out.back().endS, e.endS);
        else
            out.push_back(e);
    }
    return out;
}

// Pieces of at most `maxS`, each starting where the previous one ended.
std::vector<TimedEvent> split(const std::vector<TimedEvent>& events, double maxS) {
    if (!(maxS > 0)) return events;
    std::vector<TimedEvent> out;
    for (TimedEvent e : events) {
        while (e.endS - e.startS > maxS) {
            out.push_back({e.startS, e.startS + maxS});
            e.startS = e.startS + maxS;
        }
        out.push_back(e);
    }
    return out;
}

DetectionScores ratios(long long tp, long long fp, long long reference, long long gridSamples, double rate) {
    DetectionScores s;
    s.tp = tp;
    s.fp = fp;
    s.reference = reference;
    s.durationS = double(gridSamples) / rate;
    s.sensitivity = reference > 0 ? double(tp) / double(reference) : kNaN;
    s.precision = tp + fp > 0 ? double(tp) / double(tp + fp) : kNaN;
    s.f1 = reference + fp == 0 ? kNaN : double(2 * tp) / double(2 * tp + fp + (reference - tp));
    // The same order of operations as the reference implementation, for the same last bit.
    s.fpPerDay = double(fp) / (double(gridSamples) / rate / 3600 / 24);
    return s;
}

}  // namespace

std::vector<TimedEvent> normalizedEvents(const std::vector<TimedEvent>& events, const char* what) {
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        const std::string field = std::string(what) + "[" + std::to_string(i) + "]";
        if (!std::isfinite(e.startS) || !std::isfinite(e.endS))
            throw EngineError(Kind::BadInput, field, "onset and end must be finite numbers");
        if (e.startS < 0)
            throw EngineError(Kind::BadInput, field, "starts before the recording (" + std::to_string(e.startS) + " s)");
        if (e.endS < e.startS) throw EngineError(Kind::BadInput, field, "ends before it starts");
    }
    std::vector<TimedEvent> sorted = events;
    std::stable_sort(sorted.begin(), sorted.end(), [](const TimedEvent& a, const TimedEvent& b) {
        return a.startS < b.startS || (a.startS == b.startS && a.endS < b.endS);
    });
    std::vector<TimedEvent> out;
    for (const auto& e : sorted) {
        if (!out.empty() && e.startS < out.back().endS)
            out.back().endS = std::max(out.back().endS, e.endS);
        else
            out.push_back(e);
    }
    return out;
}

EventScoring scoreEvents(const std::vector<TimedEvent>& reference, const std::vector<TimedEvent>& hypothesis,
                         double durationS, const EventScoringOptions& o) {
    checkPositive(o.toleranceBeforeS, "tolerance-before", true);
    checkPositive(o.toleranceAfterS, "tolerance-after", true);
    checkPositive(o.mergeGapS, "merge-gap", true);
    if (!std::isfinite(o.maxEventS)) throw EngineError(Kind::BadParameter, "max-event", "must be a finite number");
    if (!std::isfinite(o.minOverlap) || o.minOverlap < 0 || o.minOverlap >= 1)
        throw EngineError(Kind::BadParameter, "min-overlap", "must lie in [0, 1)");
    const double fs = o.gridHz;
    const long long n = gridLength(durationS, fs);

    EventScoring out;
    const auto refMerged = merged(normalizedEvents(reference, "reference"), o.mergeGapS);
    out.reference = split(refMerged, o.maxEventS);
    out.hypothesis = split(merged(normalizedEvents(hypothesis, "hypothesis"), o.mergeGapS), o.maxEventS);
    const auto hypMask = maskOf(out.hypothesis, fs, n);
    const double fileS = double(n) / fs;

    auto widened = [&](const TimedEvent& e) {
        return TimedEvent{std::max(0.0, e.startS - o.toleranceBeforeS), std::min(fileS, e.endS + o.toleranceAfterS)};
    };

    std::vector<unsigned char> tpMask(std::size_t(n), 0);
    long long tp = 0;
    out.referenceDetected.assign(out.reference.size(), 0);
    for (std::size_t i = 0; i < out.reference.size(); ++i) {
        const TimedEvent w = widened(out.reference[i]);
        const Slice s = sliceOf(w, fs, n);
        long long covered = 0;
        for (long long k = s.begin; k < s.end; ++k) covered += hypMask[std::size_t(k)];
        const double overlap = double(covered) / fs / (w.endS - w.startS);
        if (overlap > o.minOverlap + 1e-6) {
            ++tp;
            out.referenceDetected[i] = 1;
            std::fill(tpMask.begin() + s.begin, tpMask.begin() + s.end, 1);
        }
    }
    long long fp = 0;
    out.hypothesisFalse.assign(out.hypothesis.size(), 0);
    for (std::size_t i = 0; i < out.hypothesis.size(); ++i) {
        const Slice s = sliceOf(out.hypothesis[i], fs, n);
        if (std::none_of(tpMask.begin() + s.begin, tpMask.begin() + s.end, [](unsigned char v) { return v != 0; })) {
            ++fp;
            out.hypothesisFalse[i] = 1;
        }
    }
    out.scores = ratios(tp, fp, static_cast<long long>(out.reference.size()), n, fs);

    // Latency per seizure: a merged reference event is detected when one of its split pieces is.
    std::size_t piece = 0;
    for (const auto& seizure : refMerged) {
        SeizureOutcome so{seizure, false, 0};
        const Slice whole = sliceOf(widened(seizure), fs, n);
        const std::size_t pieces = split({seizure}, o.maxEventS).size();
        for (std::size_t k = 0; k < pieces; ++k)
            if (out.referenceDetected[piece + k]) so.detected = true;
        piece += pieces;
        if (so.detected)
            for (long long k = whole.begin; k < whole.end; ++k)
                if (hypMask[std::size_t(k)]) {
                    so.latencyS = double(k) / fs - seizure.startS;
                    break;
                }
        out.seizures.push_back(so);
    }
    return out;
}

DetectionScores scoreSamples(const std::vector<TimedEvent>& reference, const std::vector<TimedEvent>& hypothesis,
                             double durationS, const SampleScoringOptions& o) {
    const double fs = o.sampleHz;
    const long long n = gridLength(durationS, fs);
    const auto ref = maskOf(normalizedEvents(reference, "reference"), fs, n);
    const auto hyp = maskOf(normalizedEvents(hypothesis, "hypothesis"), fs, n);
    long long tp = 0, fp = 0, refTrue = 0;
    for (std::size_t k = 0; k < ref.size(); ++k) {
        refTrue += ref[k];
        tp += ref[k] & hyp[k];
        fp += (!ref[k]) & hyp[k];
    }
    return ratios(tp, fp, refTrue, n, fs);
}

DetectionScores pooledScores(const std::vector<DetectionScores>& parts) {
    long long tp = 0, fp = 0, ref = 0;
    double seconds = 0;
    for (const auto& p : parts) {
        tp += p.tp;
        fp += p.fp;
        ref += p.reference;
        seconds += p.durationS;
    }
    DetectionScores s = ratios(tp, fp, ref, 1, 1);
    s.durationS = seconds;
    s.fpPerDay = double(fp) / (seconds / 3600 / 24);
    return s;
}

}  // namespace warplab::compute
