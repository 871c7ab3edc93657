// A generated EEG-like channel for the scale benchmark of pattern discovery: the
// published workload is one channel of 150,995,456 samples at 256 Hz (589,823 epochs of 1024
// at stride 256, about 164 h) with seizures totalling 107,263 samples (415 patterns), i.e.
// 244,776,545 band-DTW distances. No real recording of that size ships with WarpLab, so the
// channel is computed sample by sample from its index (no 600 MB array is ever built): a few
// background rhythms plus hashed noise, and a 3 Hz spike-and-wave inside the seizures.
#pragma once
#include <cstdint>
#include <vector>

#include "compute/patterns/pattern_discovery.h"

namespace warplab::compute {

struct SyntheticChannel {
    long long samples = 150995456;   // 589,823 epochs of 1024 at stride 256
    long long seizureSamples = 107263;  // 415 patterns of 1024 at stride 256
    int seizureCount = 3;            // the seizure samples are split over this many seizures
    double rateHz = 256;
    std::uint64_t seed = 1;
};

// The seizures of `c`, spread evenly over the channel, on whole samples; their lengths add up
// to exactly c.seizureSamples. Throws EngineError (BadParameter, "synthetic") when they do
// not fit.
std::vector<SecondsSpan> syntheticSeizures(const SyntheticChannel& c);

// Value of sample k (deterministic in c.seed and k).
float syntheticSample(const SyntheticChannel& c, const std::vector<SampleSpan>& seizures, long long k);

// A request over the generated channel (read through a callback), with its seizures marked.
PatternRequest syntheticRequest(const SyntheticChannel& c);

// The whole channel in memory, generated on all cores (600 MB for the published size), for a
// benchmark that should time the distances and not the generator: pass it as
// PatternRequest::samples in place of the reader.
std::vector<float> syntheticSamples(const SyntheticChannel& c);

}  // namespace warplab::compute
