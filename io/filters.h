// The filters users expect of an EEG viewer, as plain functions on float vectors: Butterworth
// high-, low- and band-pass as cascaded second-order sections (bilinear transform with
// prewarping), a 50/60 Hz notch, applied causally for display or forward-backward (zero
// phase, squared magnitude) for analysis.
#pragma once
#include <vector>

#include "compute/spectral/band_filter.h"

namespace warplab::io {

// One second-order section, a0 normalised to 1: y = b0 x + b1 x1 + b2 x2 - a1 y1 - a2 y2.
using Biquad = compute::spectral::Biquad;

// Butterworth designs of `order` (1..16) at `cutoffHz` (0 < cutoff < rate/2). Odd orders end
// with a first-order section (b2 = a2 = 0). Throw EngineError(BadParameter) naming the field.
std::vector<Biquad> butterworthLowpass(int order, double cutoffHz, double rateHz);
std::vector<Biquad> butterworthHighpass(int order, double cutoffHz, double rateHz);
// High-pass at lowHz followed by low-pass at highHz, each of `order`.
std::vector<Biquad> butterworthBandpass(int order, double lowHz, double highHz, double rateHz);
// Notch (band-stop) at freqHz with quality q (bandwidth freqHz / q).
Biquad notchFilter(double freqHz, double rateHz, double q = 30.0);

// Causal filtering in place (display), starting from rest.
void filterCausal(std::vector<float>& x, const std::vector<Biquad>& sections);
// Forward-backward filtering in place (zero phase), with odd-reflection padding and
// steady-state initial conditions as scipy's sosfiltfilt, so the ends do not ring
// (compute::spectral::filterZeroPhase, which the frequency bands use too).
void filterZeroPhase(std::vector<float>& x, const std::vector<Biquad>& sections);

struct FilterSettings {
    double highpassHz = 0;   // 0: off
    double lowpassHz = 0;    // 0: off
    double notchHz = 0;      // 0: off; usually 50 or 60
    int order = 4;
    bool applyToAnalysis = false;  // also filter what is analysed (zero phase), not only the view
    bool enabled() const { return highpassHz > 0 || lowpassHz > 0 || notchHz > 0; }
};

// The sections of `s` at `rateHz` (empty when nothing is on).
std::vector<Biquad> designFilters(const FilterSettings& s, double rateHz);
// Filters a copy: zero phase for analysis, causal for the view.
std::vector<float> applyFilters(std::vector<float> x, double rateHz, const FilterSettings& s, bool zeroPhase = true);

}  // namespace warplab::io
