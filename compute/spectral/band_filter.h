// Zero-phase Butterworth band-pass filtering of what is analysed, the same filter as
// scipy.signal.butter(order, [lo, hi], btype="bandpass", fs=rate, output="sos") applied with
// scipy.signal.sosfiltfilt (tests/compute/test_spectral.cpp compares both on real EEG).
//
// Edges: as sosfiltfilt, the signal is extended at each end by odd reflection about its end
// sample (2*x[0] - x[k]) by zeroPhasePadLength() samples, each pass starts in the steady state
// of a constant input equal to the first sample it sees, and the padding is cut off again. The
// first and last few hundred milliseconds therefore depend on that extension (a guess about the
// signal outside the window), as in every zero-phase filter: views and tests treat them as
// less certain than the middle.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "compute/core/series.h"
#include "compute/spectral/frequency_band.h"

namespace warplab::compute::spectral {

// One second-order section, a0 normalised to 1: y = b0 x + b1 x1 + b2 x2 - a1 y1 - a2 y2
// (a row [b0 b1 b2 1 a1 a2] of scipy's sos array). A first-order section has b2 = a2 = 0.
struct Biquad {
    double b0 = 1, b1 = 0, b2 = 0, a1 = 0, a2 = 0;
};

// The sections of scipy's butter(order, [lowHz, highHz], "bandpass", fs=rateHz, output="sos")
// (same transfer function; section order and gain split may differ). Checks as validateBand.
std::vector<Biquad> butterworthBandpassSections(int order, double lowHz, double highHz, double rateHz);

// Samples sosfiltfilt pads each end with for these sections: 3 * (2 * n + 1 - first-order ones).
std::size_t zeroPhasePadLength(const std::vector<Biquad>& sections);

// Forward-backward filtering in place, computed in double: scipy's sosfiltfilt with
// padtype="odd" and its default padlen. A signal of padlen samples or fewer, which scipy
// refuses, is padded by n - 1 (the display filters of io/filters.h accept any window);
// validateBand refuses such signals for frequency bands.
void filterZeroPhase(std::span<float> x, const std::vector<Biquad>& sections);
void filterZeroPhase(std::span<double> x, const std::vector<Biquad>& sections);

// `x` filtered to `band` at `rateHz` (validateBand first: refused by the band's name).
std::vector<float> bandFilter(std::span<const float> x, double rateHz, const FrequencyBand& band,
                              int order = kDefaultBandOrder);
// Every channel of a series (dims > 1: each channel on its own), name and label kept.
Series bandFilterSeries(const Series& s, double rateHz, const FrequencyBand& band, int order = kDefaultBandOrder);
// Every series of a set. A series too short for the filter is refused naming `role`[i].
SeriesSet bandFilterSet(const SeriesSet& set, double rateHz, const FrequencyBand& band, int order = kDefaultBandOrder,
                     const std::string& role = "series");

}  // namespace warplab::compute::spectral
