// Spectrograms for the view under the traces: Hann-windowed FFTW periodograms of frames on a
// fixed grid of the channel (frame k starts at sample k * hop of the recording), so the frames
// of a scrolled window are the same frames as before and a cache keeps them. The GUI asks
// SpectrogramCache::window for the visible window on each redraw; only frames not computed yet
// are computed. A frame equals the matching column of scipy.signal.spectrogram(x, fs=rate,
// window="hann", nperseg=segmentLength, noverlap=segmentLength - hop, detrend="constant",
// scaling="density", mode="psd") (tests/compute/test_spectral.cpp).
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compute/spectral/welch.h"

namespace warplab::compute::spectral {

struct SpectrogramOptions {
    std::size_t segmentLength = 256;  // samples per frame (scipy's nperseg); 1 s at 256 Hz
    std::size_t hop = 128;            // samples between frame starts (nperseg - noverlap), 1..segmentLength
    Detrend detrend = Detrend::Constant;
    Scaling scaling = Scaling::Density;
    friend bool operator==(const SpectrogramOptions&, const SpectrogramOptions&) = default;
};

struct Spectrogram {
    std::size_t frames = 0;         // columns in time
    std::size_t bins = 0;           // segmentLength / 2 + 1 rows in frequency, 0 .. rate/2
    long long firstFrame = 0;       // grid index of frame 0: it covers samples [firstFrame * hop, + segmentLength)
    std::size_t segmentLength = 0, hop = 0;
    double rateHz = 0;
    std::vector<float> power;       // frames x bins, frame-major: power[f * bins + b], units^2/Hz (Density)

    float at(std::size_t frame, std::size_t bin) const { return power[frame * bins + bin]; }
    double binHz(std::size_t bin) const { return double(bin) * rateHz / double(segmentLength); }
    // Time of a frame's centre in seconds from the channel's first sample.
    double frameCentreS(std::size_t frame) const {
        return (double(firstFrame + (long long)frame) * double(hop) + double(segmentLength) / 2.0) / rateHz;
    }
};

// The frames of the grid that lie wholly inside `x`, where x[0] is sample `offset` of the
// channel (frame k starts at sample k * hop; the first is ceil(offset / hop)). No frame when x
// is shorter than a segment. Throws EngineError(BadParameter) for a bad rate or options,
// BadInput for non-finite samples.
Spectrogram spectrogram(std::span<const float> x, double rateHz, const SpectrogramOptions& options = {},
                        long long offset = 0);

// A cache of spectrogram frames per channel, for a view that redraws while the user scrolls.
// Frames are computed in blocks of the grid; a block is read, computed and kept once, and the
// least recently used blocks are dropped beyond `maxBytes`. Thread-safe: several views (or a
// worker thread) may share one cache; the reader runs without the cache's lock held.
class SpectrogramCache {
public:
    // Reads `count` samples of the channel from sample `start` (the range lies inside the
    // channel), as the view shows them (montage and display filters already applied).
    using Reader = std::function<std::vector<float>(long long start, long long count)>;

    explicit SpectrogramCache(std::size_t maxBytes = std::size_t(256) << 20);
    ~SpectrogramCache();
    SpectrogramCache(const SpectrogramCache&) = delete;
    SpectrogramCache& operator=(const SpectrogramCache&) = delete;

    // The frames wholly inside samples [startSample, endSample) of the channel called `channel`
    // (channelSamples long), on the grid of `options`. `channel` must name what the samples
    // are: the same key with other samples (another montage, filter or recording) gives stale
    // frames, so include those in it or call forget(). Throws as spectrogram().
    Spectrogram window(const std::string& channel, double rateHz, const SpectrogramOptions& options,
                       long long startSample, long long endSample, long long channelSamples, const Reader& read);

    void forget(const std::string& channel);  // drops that channel's frames
    void clear();
    std::size_t bytes() const;                // frames held now
    std::size_t blocksComputed() const;       // blocks computed since construction (tests, benchmarks)

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace warplab::compute::spectral
