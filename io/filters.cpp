#include "io/filters.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "compute/core/error.h"

namespace warplab::io {

namespace {

using compute::EngineError;

void checkDesign(int order, double cutoffHz, double rateHz, const char* field) {
    if (!(rateHz > 0) || !std::isfinite(rateHz))
        throw EngineError(EngineError::Kind::BadParameter, "rate", "must be > 0 to filter, got " + std::to_string(rateHz));
    if (order < 1 || order > 16)
        throw EngineError(EngineError::Kind::BadParameter, "filters.order", "must be 1..16, got " + std::to_string(order));
    if (!(cutoffHz > 0) || !(cutoffHz < rateHz / 2))
        throw EngineError(EngineError::Kind::BadParameter, field,
                          "must lie between 0 and the Nyquist frequency " + std::to_string(rateHz / 2) + " Hz, got " +
                              std::to_string(cutoffHz));
}

// Q of the k-th conjugate pole pair of an order-n Butterworth prototype.
double sectionQ(int n, int k) { return 1.0 / (2.0 * std::sin((2 * k + 1) * M_PI / (2.0 * n))); }

std::vector<Biquad> butterworth(int order, double cutoffHz, double rateHz, bool high) {
    std::vector<Biquad> out;
    const double w0 = 2 * M_PI * cutoffHz / rateHz, c = std::cos(w0), s = std::sin(w0);
    for (int k = 0; k < order / 2; ++k) {
        const double alpha = s / (2 * sectionQ(order, k)), a0 = 1 + alpha;
        Biquad b;
        if (high) {
            b.b0 = (1 + c) / 2 / a0;
            b.b1 = -(1 + c) / a0;
        } else {
            b.b0 = (1 - c) / 2 / a0;
            b.b1 = (1 - c) / a0;
        }
        b.b2 = b.b0;
        b.a1 = -2 * c / a0;
        b.a2 = (1 - alpha) / a0;
        out.push_back(b);
    }
    if (order % 2) {  // the real pole: a first-order section
        const double K = std::tan(w0 / 2);
        Biquad b;
        b.b0 = high ? 1 / (1 + K) : K / (1 + K);
        b.b1 = high ? -b.b0 : b.b0;
        b.a1 = (K - 1) / (K + 1);
        out.push_back(b);
    }
    return out;
}

// The cascade over `x` from rest (the causal view filter).
void runSections(std::vector<double>& x, const std::vector<Biquad>& sections) {
    for (const Biquad& b : sections) {
        double z1 = 0, z2 = 0;
        for (double& v : x) {
            const double in = v, y = b.b0 * in + z1;
            z1 = b.b1 * in - b.a1 * y + z2;
            z2 = b.b2 * in - b.a2 * y;
            v = y;
        }
    }
}

}  // namespace

std::vector<Biquad> butterworthLowpass(int order, double cutoffHz, double rateHz) {
    checkDesign(order, cutoffHz, rateHz, "filters.lowpass_hz");
    return butterworth(order, cutoffHz, rateHz, false);
}

std::vector<Biquad> butterworthHighpass(int order, double cutoffHz, double rateHz) {
    checkDesign(order, cutoffHz, rateHz, "filters.highpass_hz");
    return butterworth(order, cutoffHz, rateHz, true);
}

std::vector<Biquad> butterworthBandpass(int order, double lowHz, double highHz, double rateHz) {
    if (!(lowHz < highHz))
        throw EngineError(EngineError::Kind::BadParameter, "filters.highpass_hz",
                          "the band-pass needs high-pass " + std::to_string(lowHz) + " Hz below low-pass " +
                              std::to_string(highHz) + " Hz");
    auto out = butterworthHighpass(order, lowHz, rateHz);
    auto lp = butterworthLowpass(order, highHz, rateHz);
    out.insert(out.end(), lp.begin(), lp.end());
    return out;
}

Biquad notchFilter(double freqHz, double rateHz, double q) {
    checkDesign(2, freqHz, rateHz, "filters.notch_hz");
    if (!(q > 0)) throw EngineError(EngineError::Kind::BadParameter, "filters.notch_q", "must be > 0");
    const double w0 = 2 * M_PI * freqHz / rateHz, c = std::cos(w0), alpha = std::sin(w0) / (2 * q), a0 = 1 + alpha;
    return {1 / a0, -2 * c / a0, 1 / a0, -2 * c / a0, (1 - alpha) / a0};
}

void filterCausal(std::vector<float>& x, const std::vector<Biquad>& sections) {
    std::vector<double> d(x.begin(), x.end());
    runSections(d, sections);
    std::copy(d.begin(), d.end(), x.begin());
}

void filterZeroPhase(std::vector<float>& x, const std::vector<Biquad>& sections) {
    compute::spectral::filterZeroPhase(std::span<float>(x), sections);
}

std::vector<Biquad> designFilters(const FilterSettings& s, double rateHz) {
    std::vector<Biquad> out;
    if (s.highpassHz > 0 && s.lowpassHz > 0) out = butterworthBandpass(s.order, s.highpassHz, s.lowpassHz, rateHz);
    else if (s.highpassHz > 0) out = butterworthHighpass(s.order, s.highpassHz, rateHz);
    else if (s.lowpassHz > 0) out = butterworthLowpass(s.order, s.lowpassHz, rateHz);
    if (s.notchHz > 0) out.push_back(notchFilter(s.notchHz, rateHz));
    return out;
}

std::vector<float> applyFilters(std::vector<float> x, double rateHz, const FilterSettings& s, bool zeroPhase) {
    const auto sections = designFilters(s, rateHz);
    if (zeroPhase) filterZeroPhase(x, sections);
    else filterCausal(x, sections);
    return x;
}

}  // namespace warplab::io
