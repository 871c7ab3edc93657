#include "compute/spectral/welch.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "compute/core/error.h"
#include "compute/spectral/periodogram.h"

namespace warplab::compute::spectral {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower((unsigned char)c));
    return s;
}

void checkFinite(std::span<const float> x, const std::string& field) {
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!std::isfinite(x[i]))
            throw EngineError(EngineError::Kind::BadInput, field, "sample " + std::to_string(i) + " is not a finite number");
}

}  // namespace

Detrend parseDetrend(const std::string& text, const std::string& field) {
    const std::string t = lower(text);
    if (t == "none" || t == "false") return Detrend::None;
    if (t == "constant") return Detrend::Constant;
    if (t == "linear") return Detrend::Linear;
    throw EngineError(EngineError::Kind::BadParameter, field, "unknown detrend '" + text + "' (none, constant, linear)");
}

Scaling parseScaling(const std::string& text, const std::string& field) {
    const std::string t = lower(text);
    if (t == "density") return Scaling::Density;
    if (t == "spectrum") return Scaling::Spectrum;
    throw EngineError(EngineError::Kind::BadParameter, field, "unknown scaling '" + text + "' (density, spectrum)");
}

const char* detrendName(Detrend d) {
    return d == Detrend::None ? "none" : d == Detrend::Constant ? "constant" : "linear";
}
const char* scalingName(Scaling s) { return s == Scaling::Density ? "density" : "spectrum"; }

Spectrum welch(std::span<const float> x, double rateHz, const WelchOptions& options) {
    if (x.empty()) throw EngineError(EngineError::Kind::BadInput, "x", "an empty signal has no spectrum");
    WelchOptions o = options;
    // As scipy: a signal shorter than a segment is one segment of its own length.
    if (o.segmentLength > x.size()) {
        o.segmentLength = x.size();
        if (o.overlap != WelchOptions::kHalf) o.overlap = std::min(o.overlap, o.segmentLength - 1);
    }
    return welch(std::vector<std::span<const float>>{x}, rateHz, o);
}

Spectrum welch(const std::vector<std::span<const float>>& parts, double rateHz, const WelchOptions& options) {
    const std::size_t n = options.segmentLength;
    if (n == 0) throw EngineError(EngineError::Kind::BadParameter, "nperseg", "must be at least 1");
    const std::size_t overlap = options.overlap == WelchOptions::kHalf ? n / 2 : options.overlap;
    if (overlap >= n)
        throw EngineError(EngineError::Kind::BadParameter, "noverlap",
                          "must be below nperseg " + std::to_string(n) + ", got " + std::to_string(overlap));
    const std::size_t step = n - overlap;
    Periodogram pg(n, rateHz, options.detrend, options.scaling);
    Spectrum s;
    s.segmentLength = n;
    s.power.assign(pg.bins(), 0.0);
    for (std::size_t p = 0; p < parts.size(); ++p) {
        checkFinite(parts[p], parts.size() == 1 ? "x" : "parts[" + std::to_string(p) + "]");
        const std::size_t len = parts[p].size();
        if (len < n) continue;
        for (std::size_t start = 0; start + n <= len; start += step) {
            pg.compute(parts[p].data() + start, s.power.data(), true);
            ++s.segments;
        }
    }
    if (s.segments == 0)
        throw EngineError(EngineError::Kind::BadInput, "x",
                          "no stretch holds a whole segment of " + std::to_string(n) + " samples");
    for (double& v : s.power) v /= double(s.segments);
    s.frequencyHz.resize(pg.bins());
    for (std::size_t k = 0; k < pg.bins(); ++k) s.frequencyHz[k] = double(k) * rateHz / double(n);
    return s;
}

RegionSpectra regionSpectra(std::span<const float> x, double rateHz, std::vector<std::pair<double, double>> spansS,
                            const WelchOptions& options) {
    if (!(rateHz > 0) || !std::isfinite(rateHz))
        throw EngineError(EngineError::Kind::BadParameter, "rate", "must be > 0 Hz for a spectrum");
    // Sample ranges of the stretches, clipped, sorted, overlapping or touching ones merged.
    const auto sample = [&](double t) { return std::min(x.size(), std::size_t(std::max(0.0, std::round(t * rateHz)))); };
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    for (const auto& [a, b] : spansS)
        if (std::isfinite(a) && std::isfinite(b) && b > a && sample(b) > sample(a)) ranges.emplace_back(sample(a), sample(b));
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<std::size_t, std::size_t>> merged;
    for (const auto& r : ranges) {
        if (!merged.empty() && r.first <= merged.back().second) merged.back().second = std::max(merged.back().second, r.second);
        else merged.push_back(r);
    }
    std::vector<std::span<const float>> in, out;
    std::size_t at = 0;  // first sample not yet given to a side
    for (const auto& [s0, s1] : merged) {
        if (s0 > at) out.push_back(x.subspan(at, s0 - at));
        in.push_back(x.subspan(s0, s1 - s0));
        at = s1;
    }
    if (at < x.size()) out.push_back(x.subspan(at));
    RegionSpectra r;
    const auto side = [&](const std::vector<std::span<const float>>& parts) {
        const std::size_t n = options.segmentLength;
        const bool any = std::any_of(parts.begin(), parts.end(), [&](const auto& p) { return n > 0 && p.size() >= n; });
        if (!any) {  // the options are still checked
            Spectrum none;
            none.segmentLength = n;
            if (n == 0) throw EngineError(EngineError::Kind::BadParameter, "nperseg", "must be at least 1");
            return none;
        }
        return welch(parts, rateHz, options);
    };
    r.inside = side(in);
    r.outside = side(out);
    return r;
}

}  // namespace warplab::compute::spectral
