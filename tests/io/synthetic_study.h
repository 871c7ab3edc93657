// A small synthetic study for the detector's tests: recordings of 240 s at 256 Hz, each with
// (or without) one 30 s spike-and-wave seizure planted and marked (compute/patterns/
// synthetic_channel.h), as one channel's PatternRequest with one segment per recording.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compute/patterns/synthetic_channel.h"

namespace warplab::testing {

struct SyntheticStudy {
    std::vector<std::vector<float>> samples;  // owned; the request's segments view them
    std::vector<std::string> names;
    compute::PatternRequest request;
};

inline void addRecording(SyntheticStudy& s, std::vector<float> x, std::vector<compute::SecondsSpan> seizures,
                         const std::string& name) {
    s.samples.push_back(std::move(x));
    s.names.push_back(name);
    compute::PatternSegment seg;
    seg.sampleCount = static_cast<long long>(s.samples.back().size());
    seg.seizures = std::move(seizures);
    seg.recording = name;
    seg.recordingIndex = int(s.request.segments.size());
    s.request.segments.push_back(std::move(seg));
}

// Views are set once every recording is in (the vector of samples no longer moves).
inline void finish(SyntheticStudy& s, double rate) {
    s.request.rateHz = rate;
    s.request.channel = "EEG";
    for (std::size_t k = 0; k < s.samples.size(); ++k) s.request.segments[k].samples = s.samples[k];
}

// 240 s at 256 Hz; with `seizure`, a 30 s spike-and-wave planted and marked in `spans`.
inline std::vector<float> syntheticRecording(std::uint64_t seed, bool seizure, std::vector<compute::SecondsSpan>& spans) {
    compute::SyntheticChannel c;
    c.samples = 240 * 256;
    c.seizureSamples = 30 * 256;
    c.seizureCount = 1;
    c.seed = seed;
    if (seizure) {
        spans = compute::syntheticSeizures(c);
        return compute::syntheticSamples(c);
    }
    std::vector<float> x(std::size_t(c.samples));  // the same background, nothing planted
    for (long long k = 0; k < c.samples; ++k) x[std::size_t(k)] = compute::syntheticSample(c, {}, k);
    return x;
}

// Four recordings with a seizure (r0..r3, r1 from `heldOutSeed`) and a quiet one (from `quietSeed`).
inline SyntheticStudy syntheticStudy(std::uint64_t heldOutSeed = 101, std::uint64_t quietSeed = 200) {
    SyntheticStudy s;
    for (int i = 0; i < 4; ++i) {
        std::vector<compute::SecondsSpan> sz;
        auto x = syntheticRecording(i == 1 ? heldOutSeed : 100 + std::uint64_t(i), true, sz);
        addRecording(s, std::move(x), sz, "r" + std::to_string(i) + ".edf");
    }
    std::vector<compute::SecondsSpan> none;
    addRecording(s, syntheticRecording(quietSeed, false, none), {}, "quiet.edf");
    finish(s, 256);
    return s;
}

}  // namespace warplab::testing
