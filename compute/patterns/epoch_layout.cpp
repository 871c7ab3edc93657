#include "compute/patterns/epoch_layout.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "compute/core/error.h"

namespace warplab::compute {

long long epochCount(long long samples, long long epoch, long long stride) {
    if (epoch <= 0 || stride <= 0 || samples < epoch) return 0;
    return (samples - epoch) / stride + 1;
}

std::vector<SampleSpan> seizureSampleSpans(const std::vector<SecondsSpan>& seizures, double rateHz,
                                           long long samples) {
    using K = EngineError::Kind;
    const double duration = double(samples) / rateHz;
    std::vector<SampleSpan> spans;
    for (std::size_t i = 0; i < seizures.size(); ++i) {
        const auto& s = seizures[i];
        const std::string field = "seizures[" + std::to_string(i) + "]";
        if (!std::isfinite(s.start) || !std::isfinite(s.end))
            throw EngineError(K::BadInput, field, "start and end must be finite seconds");
        if (!(s.end > s.start))
            throw EngineError(K::BadInput, field, "empty region (" + std::to_string(s.start) + " s to " +
                                                      std::to_string(s.end) + " s): end must be after start");
        // A small slack absorbs the rounding of "end of recording" written in seconds.
        const double slack = 0.5 / rateHz;
        if (s.start < 0 || s.end > duration + slack)
            throw EngineError(K::BadInput, field,
                              "lies outside the recording (" + std::to_string(s.start) + " s to " +
                                  std::to_string(s.end) + " s, recording is " + std::to_string(duration) + " s)");
        SampleSpan span{std::llround(s.start * rateHz), std::min(samples, (long long)std::llround(s.end * rateHz))};
        if (span.length() > 0) spans.push_back(span);
    }
    std::sort(spans.begin(), spans.end(), [](const SampleSpan& a, const SampleSpan& b) { return a.begin < b.begin; });
    std::vector<SampleSpan> merged;
    for (const auto& s : spans) {
        if (!merged.empty() && s.begin <= merged.back().end)
            merged.back().end = std::max(merged.back().end, s.end);
        else
            merged.push_back(s);
    }
    return merged;
}

std::vector<unsigned char> ictalEpochs(const std::vector<SampleSpan>& seizures, long long epochs,
                                       long long epoch, long long stride) {
    std::vector<unsigned char> ictal(std::size_t(std::max(0LL, epochs)), 0);
    // Spans are sorted and disjoint: walk them alongside the epochs.
    std::size_t first = 0;
    for (long long j = 0; j < epochs; ++j) {
        const long long b = j * stride, e = b + epoch;
        while (first < seizures.size() && seizures[first].end <= b) ++first;
        long long overlap = 0;
        for (std::size_t k = first; k < seizures.size() && seizures[k].begin < e; ++k)
            overlap += std::min(e, seizures[k].end) - std::max(b, seizures[k].begin);
        ictal[std::size_t(j)] = 2 * overlap >= epoch ? 1 : 0;
    }
    return ictal;
}

long long queryLength(const std::vector<SampleSpan>& seizures) {
    long long n = 0;
    for (const auto& s : seizures) n += s.length();
    return n;
}

long long queryToRecordingSample(const std::vector<SampleSpan>& seizures, long long q) {
    for (const auto& s : seizures) {
        if (q < s.length()) return s.begin + q;
        q -= s.length();
    }
    return -1;
}

}  // namespace warplab::compute
