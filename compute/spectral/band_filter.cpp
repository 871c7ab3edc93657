#include "compute/spectral/band_filter.h"

#include <algorithm>
#include <cmath>
#include <complex>

#include "compute/core/error.h"

namespace warplab::compute::spectral {

namespace {

using cplx = std::complex<double>;

// Steady-state DF2T state of one section for a constant input `level` (scipy's lfilter_zi).
void steadyState(const Biquad& b, double level, double& z1, double& z2, double& out) {
    const double gain = (b.b0 + b.b1 + b.b2) / (1 + b.a1 + b.a2);
    out = gain * level;
    z2 = (b.b2 - b.a2 * gain) * level;
    z1 = out - b.b0 * level;
}

// The cascade over `x`, each section from rest or (steady) from the steady state of a constant
// input x[0], carried through the sections as scipy's sosfilt_zi does.
void runSections(std::vector<double>& x, const std::vector<Biquad>& sections) {
    double level = x.empty() ? 0 : x[0];
    for (const Biquad& b : sections) {
        double z1 = 0, z2 = 0, next = 0;
        steadyState(b, level, z1, z2, next);
        for (double& v : x) {
            const double in = v, y = b.b0 * in + z1;
            z1 = b.b1 * in - b.a1 * y + z2;
            z2 = b.b2 * in - b.a2 * y;
            v = y;
        }
        level = next;
    }
}

template <typename T>
void zeroPhase(std::span<T> x, const std::vector<Biquad>& sections) {
    if (sections.empty() || x.empty()) return;
    const std::size_t n = x.size();
    const std::size_t pad = std::min<std::size_t>(n - 1, zeroPhasePadLength(sections));
    // Odd reflection about the end points: 2*x0 - x[pad..1], x, 2*x[n-1] - x[n-2..n-1-pad].
    std::vector<double> e;
    e.reserve(n + 2 * pad);
    for (std::size_t i = pad; i >= 1; --i) e.push_back(2.0 * double(x[0]) - double(x[i]));
    e.insert(e.end(), x.begin(), x.end());
    for (std::size_t i = 1; i <= pad; ++i) e.push_back(2.0 * double(x[n - 1]) - double(x[n - 1 - i]));
    runSections(e, sections);
    std::reverse(e.begin(), e.end());
    runSections(e, sections);
    std::reverse(e.begin(), e.end());
    for (std::size_t i = 0; i < n; ++i) x[i] = T(e[pad + i]);
}

}  // namespace

std::vector<Biquad> butterworthBandpassSections(int order, double lowHz, double highHz, double rateHz) {
    validateBand({"", lowHz, highHz}, rateHz, 0, order);
    // scipy's route: analog prototype poles, prewarped edges, low-pass to band-pass, bilinear
    // transform (at fs = 2 after normalising the edges by Nyquist).
    const double fs2 = 4.0;
    const double wLo = fs2 * std::tan(M_PI * lowHz / rateHz), wHi = fs2 * std::tan(M_PI * highHz / rateHz);
    const double bw = wHi - wLo, w0sq = wLo * wHi;
    std::vector<cplx> poles;
    for (int m = -order + 1; m < order; m += 2) {
        const cplx p = -std::exp(cplx(0, M_PI * m / (2.0 * order))) * (bw / 2);
        const cplx r = std::sqrt(p * p - w0sq);
        for (const cplx& s : {p + r, p - r}) poles.push_back((fs2 + s) / (fs2 - s));
    }
    // Gain: k = bw^N * fs2^N / prod(fs2 - s) over the analog poles equals the band-pass gain that
    // makes the peak response 1; computed as scipy does from the digital poles' analog origins.
    cplx den = 1;
    for (int m = -order + 1; m < order; m += 2) {
        const cplx p = -std::exp(cplx(0, M_PI * m / (2.0 * order))) * (bw / 2);
        const cplx r = std::sqrt(p * p - w0sq);
        den *= (fs2 - (p + r)) * (fs2 - (p - r));
    }
    const double gain = std::pow(bw, order) * std::pow(fs2, order) / den.real();
    // Pair the poles into sections: each complex pole with its conjugate, real poles two by two.
    std::vector<cplx> upper, real;
    for (const cplx& p : poles) {
        if (std::abs(p.imag()) <= 1e-12 * std::max(1.0, std::abs(p))) real.push_back(p.real());
        else if (p.imag() > 0) upper.push_back(p);
    }
    std::vector<Biquad> out;
    for (const cplx& p : upper) out.push_back({1, 0, -1, -2 * p.real(), std::norm(p)});
    std::sort(real.begin(), real.end(), [](const cplx& a, const cplx& b) { return a.real() < b.real(); });
    for (std::size_t i = 0; i + 1 < real.size(); i += 2)
        out.push_back({1, 0, -1, -(real[i].real() + real[i + 1].real()), real[i].real() * real[i + 1].real()});
    if (out.size() != std::size_t(order))
        throw EngineError(EngineError::Kind::Internal, "freq_band", "band-pass design paired its poles wrongly");
    out[0].b0 *= gain;
    out[0].b2 *= gain;
    return out;
}

std::size_t zeroPhasePadLength(const std::vector<Biquad>& sections) {
    std::size_t zb = 0, za = 0;
    for (const Biquad& b : sections) {
        zb += b.b2 == 0;
        za += b.a2 == 0;
    }
    return 3 * (2 * sections.size() + 1 - std::min(zb, za));
}

void filterZeroPhase(std::span<float> x, const std::vector<Biquad>& sections) { zeroPhase(x, sections); }
void filterZeroPhase(std::span<double> x, const std::vector<Biquad>& sections) { zeroPhase(x, sections); }

std::vector<float> bandFilter(std::span<const float> x, double rateHz, const FrequencyBand& band, int order) {
    validateBand(band, rateHz, x.size(), order);
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!std::isfinite(x[i]))
            throw EngineError(EngineError::Kind::BadInput, "x",
                              "sample " + std::to_string(i) + " is not a finite number; cannot filter to " + band.describe());
    std::vector<float> out(x.begin(), x.end());
    filterZeroPhase(std::span<float>(out), butterworthBandpassSections(order, band.lowHz, band.highHz, rateHz));
    return out;
}

Series bandFilterSeries(const Series& s, double rateHz, const FrequencyBand& band, int order) {
    // A new owning series: `s` may borrow its samples (Series::borrowing), and a copy would too.
    const std::span<const float> in = s.samples();
    Series out;
    out.length = s.length;
    out.dims = s.dims;
    out.name = s.name;
    out.label = s.label;
    if (s.dims <= 1) {
        out.values = bandFilter(in.first(s.length), rateHz, band, order);
        return out;
    }
    out.values.resize(s.length * s.dims);
    std::vector<float> channel(s.length);
    for (std::size_t c = 0; c < s.dims; ++c) {
        for (std::size_t i = 0; i < s.length; ++i) channel[i] = in[i * s.dims + c];
        const auto f = bandFilter(std::span<const float>(channel), rateHz, band, order);
        for (std::size_t i = 0; i < s.length; ++i) out.values[i * s.dims + c] = f[i];
    }
    return out;
}

SeriesSet bandFilterSet(const SeriesSet& set, double rateHz, const FrequencyBand& band, int order, const std::string& role) {
    validateBand(band, rateHz, 0, order);
    SeriesSet out;
    out.reserve(set.size());
    for (std::size_t i = 0; i < set.size(); ++i) {
        if (set[i].length < minimumBandLength(order))
            validateBand(band, rateHz, set[i].length, order, role + "[" + std::to_string(i) + "]");
        out.push_back(bandFilterSeries(set[i], rateHz, band, order));
    }
    return out;
}

}  // namespace warplab::compute::spectral
