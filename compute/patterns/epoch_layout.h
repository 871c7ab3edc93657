// Where epochs, seizures and patterns lie in one channel (METRICS.md, "Seizure pattern
// discovery"): epoch count and labels, the seizure query as a concatenation of sample spans,
// and the map from a query offset back to the recording.
#pragma once
#include <cstddef>
#include <vector>

namespace warplab::compute {

// Seconds from the recording start; `end` exclusive.
struct SecondsSpan {
    double start = 0, end = 0;
};

// Samples [begin, end) of the channel.
struct SampleSpan {
    long long begin = 0, end = 0;
    long long length() const { return end - begin; }
};

// n_e = floor((n - e)/s) + 1, or 0 when the channel is shorter than one epoch.
long long epochCount(long long samples, long long epoch, long long stride);

// Seizure seconds -> sample spans: [round(start*rate), round(end*rate)), sorted by time and
// merged where they overlap or touch, so that no sample enters the query twice.
// Throws EngineError naming "seizures[i]" for a region that is empty, not finite, or
// outside [0, samples/rate].
std::vector<SampleSpan> seizureSampleSpans(const std::vector<SecondsSpan>& seizures, double rateHz,
                                           long long samples);

// 1 for an ictal epoch: at least half of it (2*overlap >= e) lies inside the seizure spans.
std::vector<unsigned char> ictalEpochs(const std::vector<SampleSpan>& seizures, long long epochs,
                                       long long epoch, long long stride);

// Total samples of the query (the concatenated spans).
long long queryLength(const std::vector<SampleSpan>& seizures);

// Recording sample of query offset `q` (0 <= q < queryLength), through the concatenation.
long long queryToRecordingSample(const std::vector<SampleSpan>& seizures, long long q);

}  // namespace warplab::compute
