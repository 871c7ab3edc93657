#include "compute/patterns/synthetic_channel.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <tbb/parallel_for.h>

#include "compute/core/error.h"

namespace warplab::compute {

namespace {

// splitmix64: a stateless hash of (seed, index), so any sample can be generated on its own.
std::uint64_t mix(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Roughly normal noise in [-3, 3): the sum of three uniforms, centred.
float noise(std::uint64_t seed, long long k) {
    const std::uint64_t h = mix(seed * 0x100000001b3ULL ^ std::uint64_t(k));
    const float a = float(h & 0x1fffff) / float(0x200000);
    const float b = float((h >> 21) & 0x1fffff) / float(0x200000);
    const float c = float((h >> 42) & 0x1fffff) / float(0x200000);
    return (a + b + c - 1.5f) * 2.0f;
}

constexpr double kTwoPi = 6.283185307179586;

}  // namespace

std::vector<SecondsSpan> syntheticSeizures(const SyntheticChannel& c) {
    const int k = std::max(1, c.seizureCount);
    if (c.seizureSamples <= 0 || c.samples < 2 * c.seizureSamples)
        throw EngineError(EngineError::Kind::BadParameter, "synthetic",
                          "the seizures (" + std::to_string(c.seizureSamples) + " samples) must be positive and fill at most half of the channel (" +
                              std::to_string(c.samples) + " samples)");
    std::vector<SecondsSpan> out;
    long long left = c.seizureSamples;
    for (int i = 0; i < k; ++i) {
        const long long len = left / (k - i);
        left -= len;
        // Centred in the i-th of k equal parts of the channel.
        const long long centre = (long long)((double(c.samples) * (2 * i + 1)) / (2.0 * k));
        // Start on a whole second: the spike-and-wave is a rigid 3 Hz rhythm in absolute time,
        // so spans a whole second apart are in phase. A seizure starting half a cycle off the
        // 1-s epoch grid would put its patterns out of phase with every ictal epoch, and under
        // a 16-sample band that is farther than plain background (every quality 0).
        const long long second = std::max(1LL, (long long)std::llround(c.rateHz));
        const long long begin = std::clamp((centre - len / 2) / second * second, 0LL, c.samples - len);
        out.push_back({double(begin) / c.rateHz, double(begin + len) / c.rateHz});
    }
    return out;
}

float syntheticSample(const SyntheticChannel& c, const std::vector<SampleSpan>& seizures, long long k) {
    const double t = double(k) / c.rateHz;
    // Background: alpha (10 Hz) and theta (6 Hz) rhythms whose amplitude drifts slowly, plus noise.
    double v = 20.0 * (1.0 + 0.5 * std::sin(kTwoPi * t / 37.0)) * std::sin(kTwoPi * 10.0 * t) +
               12.0 * std::sin(kTwoPi * 6.0 * t + 1.0) + 8.0 * noise(c.seed, k);
    for (const auto& s : seizures) {
        if (k >= s.begin && k < s.end) {
            // 3 Hz spike-and-wave: a sharp spike then a slow wave each cycle.
            const double phase = std::fmod(t * 3.0, 1.0);
            v += 150.0 * std::exp(-std::pow((phase - 0.1) / 0.03, 2)) - 60.0 * std::sin(kTwoPi * phase);
            break;
        }
    }
    return float(v);
}

PatternRequest syntheticRequest(const SyntheticChannel& c) {
    PatternRequest r;
    r.rateHz = c.rateHz;
    r.sampleCount = c.samples;
    r.channel = "synthetic";
    r.seizures = syntheticSeizures(c);
    const auto spans = seizureSampleSpans(r.seizures, c.rateHz, c.samples);
    r.reader = [c, spans](long long start, long long count, float* out) {
        for (long long k = 0; k < count; ++k) out[k] = syntheticSample(c, spans, start + k);
    };
    return r;
}

std::vector<float> syntheticSamples(const SyntheticChannel& c) {
    const auto spans = seizureSampleSpans(syntheticSeizures(c), c.rateHz, c.samples);
    std::vector<float> x(std::size_t(c.samples));
    tbb::parallel_for(tbb::blocked_range<long long>(0, c.samples, 1 << 16), [&](const tbb::blocked_range<long long>& b) {
        for (long long k = b.begin(); k < b.end(); ++k) x[std::size_t(k)] = syntheticSample(c, spans, k);
    });
    return x;
}

}  // namespace warplab::compute
