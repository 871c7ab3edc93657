// Power spectral density by Welch's method over FFTW (a maintained FFT, not our own; a GPU
// cuFFT path may come later behind the same functions): segments of `segmentLength` samples
// overlapping by `overlap`, each detrended, Hann-windowed and transformed; their one-sided
// periodograms are averaged. With the defaults it equals scipy.signal.welch(x, fs=rate,
// window="hann", nperseg=..., noverlap=..., detrend="constant", scaling="density",
// return_onesided=True, average="mean") (tests/compute/test_spectral.cpp on real EEG).
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace warplab::compute::spectral {

enum class Detrend { None, Constant, Linear };
enum class Scaling { Density, Spectrum };  // V^2/Hz, or V^2 (power per bin)

struct WelchOptions {
    std::size_t segmentLength = 256;  // scipy's nperseg; a signal shorter than it is one segment of its length
    // scipy's noverlap; kHalf means segmentLength / 2 (scipy's default).
    static constexpr std::size_t kHalf = std::size_t(-1);
    std::size_t overlap = kHalf;
    Detrend detrend = Detrend::Constant;
    Scaling scaling = Scaling::Density;
};

struct Spectrum {
    std::vector<double> frequencyHz;  // 0, rate/n, ..., rate/2 (n even) : n/2 + 1 bins
    std::vector<double> power;        // per bin, units^2/Hz (Density) or units^2 (Spectrum)
    std::size_t segments = 0;         // periodograms averaged
    std::size_t segmentLength = 0;    // n actually used
};

// Parse / print "none" | "constant" | "linear" and "density" | "spectrum" (CLI, Python, JSON).
// Throw EngineError(BadParameter, field) naming the text.
Detrend parseDetrend(const std::string& text, const std::string& field = "detrend");
Scaling parseScaling(const std::string& text, const std::string& field = "scaling");
const char* detrendName(Detrend d);
const char* scalingName(Scaling s);

// Welch's PSD of `x` sampled at `rateHz`. Throws EngineError(BadParameter) for overlap >=
// segmentLength, a zero segment length, a rate <= 0; BadInput for an empty or non-finite `x`.
Spectrum welch(std::span<const float> x, double rateHz, const WelchOptions& options = {});
// One spectrum of several stretches of a signal (e.g. every seizure region of a channel):
// segments are cut from each part on its own (none crosses from one part to the next) and all
// are averaged together, so a long part weighs by its number of segments. A part shorter than
// the segment length gives no segment; when no part has one the result is refused (BadInput).
Spectrum welch(const std::vector<std::span<const float>>& parts, double rateHz, const WelchOptions& options = {});

// The spectrum of the stretches [startS, endS) of a channel (e.g. its seizures, times in seconds
// from x[0]) and the spectrum of everything else, each as the several-parts welch() above (no
// segment crosses a stretch's edge). Overlapping or unsorted stretches are merged; stretches are
// clipped to the channel. A side with no whole segment comes back with segments == 0 and no
// bins rather than an error, so a view can draw the other side.
struct RegionSpectra {
    Spectrum inside, outside;
};
RegionSpectra regionSpectra(std::span<const float> x, double rateHz, std::vector<std::pair<double, double>> spansS,
                            const WelchOptions& options = {});

}  // namespace warplab::compute::spectral
