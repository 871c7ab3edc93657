// Frequency bands, the band filter, Welch's PSD and the spectrogram (compute/spectral) for
// warplab/spectral.py: the same functions warplab-cli's filter and psd and the GUI's views use.
#include <pybind11/stl.h>

#include "compute/core/error.h"
#include "compute/spectral/band_filter.h"
#include "compute/spectral/frequency_band.h"
#include "compute/spectral/spectrogram.h"
#include "compute/spectral/welch.h"
#include "py_common.h"

namespace warplab::python {

namespace sp = compute::spectral;

compute::spectral::FrequencyBand toBand(const py::handle& band) {
    if (py::isinstance<py::str>(band)) return sp::parseFrequencyBand(band.cast<std::string>(), {}, "freq_band");
    if (py::isinstance<py::tuple>(band) || py::isinstance<py::list>(band)) {
        const auto seq = band.cast<py::sequence>();
        if (seq.size() == 2) {
            sp::FrequencyBand b{"", seq[0].cast<double>(), seq[1].cast<double>()};
            sp::checkBandForm(b, "freq_band");
            return b;
        }
    }
    throw compute::EngineError(compute::EngineError::Kind::BadParameter, "freq_band",
                               "expected a name (\"alpha\"), \"LO-HI\" or a pair (LO, HI) in Hz");
}

namespace {

py::dict bandDict(const sp::FrequencyBand& b) {
    py::dict d;
    d["name"] = b.name;
    d["low_hz"] = b.lowHz;
    d["high_hz"] = b.highHz;
    d["label"] = b.label();
    return d;
}

py::array_t<double> doubles(const std::vector<double>& v) {
    auto a = newArray<double>({py::ssize_t(v.size())});
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
}

// The channels of a series (samples x channels) one by one.
std::vector<std::vector<float>> channelsOf(const compute::Series& s) {
    std::vector<std::vector<float>> out(s.dims, std::vector<float>(s.length));
    const std::span<const float> v = s.samples();  // the caller's buffer when the series borrows it
    for (std::size_t i = 0; i < s.length; ++i)
        for (std::size_t c = 0; c < s.dims; ++c) out[c][i] = v[i * s.dims + c];
    return out;
}

py::array filterBand(const py::handle& x, double rate, const py::handle& band, int order) {
    const compute::Series s = toSeries(x, "x");
    const sp::FrequencyBand b = toBand(band);
    compute::Series out;
    {
        py::gil_scoped_release release;
        out = sp::bandFilterSeries(s, rate, b, order);
    }
    const bool oneD = py::array::ensure(x).ndim() == 1;
    auto a = oneD ? newArray<float>({py::ssize_t(out.length)}) : newArray<float>({py::ssize_t(out.length), py::ssize_t(out.dims)});
    std::copy(out.values.begin(), out.values.end(), a.mutable_data());
    return a;
}

py::tuple psd(const py::handle& x, double rate, std::size_t nperseg, long long noverlap, const std::string& detrend,
              const std::string& scaling) {
    const compute::Series s = toSeries(x, "x");
    sp::WelchOptions o;
    o.segmentLength = nperseg;
    if (noverlap >= 0) o.overlap = std::size_t(noverlap);
    o.detrend = sp::parseDetrend(detrend, "detrend");
    o.scaling = sp::parseScaling(scaling, "scaling");
    std::vector<sp::Spectrum> spectra;
    {
        py::gil_scoped_release release;
        for (const auto& c : channelsOf(s)) spectra.push_back(sp::welch(c, rate, o));
    }
    const std::size_t bins = spectra.front().power.size();
    if (py::array::ensure(x).ndim() == 1) return py::make_tuple(doubles(spectra.front().frequencyHz), doubles(spectra.front().power));
    auto p = newArray<double>({py::ssize_t(bins), py::ssize_t(spectra.size())});  // bins x channels, as scipy's axis=0
    for (std::size_t b = 0; b < bins; ++b)
        for (std::size_t c = 0; c < spectra.size(); ++c) p.mutable_data()[b * spectra.size() + c] = spectra[c].power[b];
    return py::make_tuple(doubles(spectra.front().frequencyHz), p);
}

py::tuple spectrogram(const py::handle& x, double rate, std::size_t nperseg, long long noverlap, const std::string& detrend,
                      const std::string& scaling) {
    const compute::Series s = toSeries(x, "x");
    if (s.dims != 1)
        throw compute::EngineError(compute::EngineError::Kind::BadInput, "x", "spectrogram takes one channel (a 1-D array)");
    sp::SpectrogramOptions o;
    o.segmentLength = nperseg;
    const std::size_t overlap = noverlap >= 0 ? std::size_t(noverlap) : nperseg / 2;
    if (overlap >= nperseg)
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "noverlap", "must be below nperseg");
    o.hop = nperseg - overlap;
    o.detrend = sp::parseDetrend(detrend, "detrend");
    o.scaling = sp::parseScaling(scaling, "scaling");
    sp::Spectrogram g;
    {
        py::gil_scoped_release release;
        g = sp::spectrogram(s.samples(), rate, o);
    }
    std::vector<double> f(g.bins), t(g.frames);
    for (std::size_t b = 0; b < g.bins; ++b) f[b] = g.binHz(b);
    for (std::size_t k = 0; k < g.frames; ++k) t[k] = g.frameCentreS(k);
    auto sxx = newArray<float>({py::ssize_t(g.bins), py::ssize_t(g.frames)});  // bins x frames, as scipy
    for (std::size_t k = 0; k < g.frames; ++k)
        for (std::size_t b = 0; b < g.bins; ++b) sxx.mutable_data()[b * g.frames + k] = g.at(k, b);
    return py::make_tuple(doubles(f), doubles(t), sxx);
}

}  // namespace

void bindSpectral(py::module_& m) {
    m.def("frequency_bands", [] {
        py::list out;
        for (const auto& b : sp::bandPresets()) out.append(bandDict(b));
        return out;
    });
    m.def("frequency_band", [](const py::handle& band, double rate, std::size_t length, int order) {
        const sp::FrequencyBand b = toBand(band);
        if (rate > 0) sp::validateBand(b, rate, length, order);
        return bandDict(b);
    });
    m.def("filter_band", &filterBand);
    m.def("psd", &psd);
    m.def("spectrogram", &spectrogram);
}

}  // namespace warplab::python
