#include "compute/spectral/frequency_band.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "compute/core/error.h"

namespace warplab::compute::spectral {

namespace {

std::string number(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower((unsigned char)c));
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace((unsigned char)s.front())) s.remove_prefix(1);
    while (!s.empty() && std::isspace((unsigned char)s.back())) s.remove_suffix(1);
    return s;
}

std::string presetNames(const std::vector<FrequencyBand>& extra) {
    std::string out;
    for (const auto* list : {&bandPresets(), &extra})
        for (const FrequencyBand& b : *list) out += (out.empty() ? "" : ", ") + b.name;
    return out;
}

bool parseNumber(std::string_view s, double& v) {
    s = trim(s);
    if (s.empty()) return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// "8-13", "8 - 13 Hz", "0.5-4hz": false when `s` is not of that form.
bool parseRange(std::string_view s, double& lo, double& hi) {
    s = trim(s);
    std::string l = lower(s);
    if (l.size() >= 2 && l.compare(l.size() - 2, 2, "hz") == 0) s.remove_suffix(2);
    // The separating '-' is the first one after LO's first character that is no exponent's sign.
    for (std::size_t i = 1; i < s.size(); ++i)
        if (s[i] == '-' && s[i - 1] != 'e' && s[i - 1] != 'E')  // not an exponent's sign
            return parseNumber(s.substr(0, i), lo) && parseNumber(s.substr(i + 1), hi);
    return false;
}

}  // namespace

void checkBandForm(const FrequencyBand& b, const std::string& field) {
    const std::string what = "frequency band " + b.describe();
    if (!std::isfinite(b.lowHz) || !std::isfinite(b.highHz))
        throw EngineError(EngineError::Kind::BadParameter, field, what + ": both edges must be finite numbers of Hz");
    if (!(b.lowHz > 0))
        throw EngineError(EngineError::Kind::BadParameter, field,
                          what + ": the low edge must be above 0 Hz (a band-pass; use a low-pass filter for 0 Hz)");
    if (!(b.lowHz < b.highHz))
        throw EngineError(EngineError::Kind::BadParameter, field,
                          what + ": the low edge " + number(b.lowHz) + " Hz must lie below the high edge " +
                              number(b.highHz) + " Hz");
}

std::string FrequencyBand::label() const {
    return name.empty() ? number(lowHz) + "-" + number(highHz) + " Hz" : name;
}

std::string FrequencyBand::key() const {
    if (name.empty()) return number(lowHz) + "-" + number(highHz) + "Hz";
    std::string out;
    for (char c : name) out += std::isalnum((unsigned char)c) || c == '-' || c == '.' ? c : '_';
    return out;
}

std::string FrequencyBand::describe() const {
    const std::string range = number(lowHz) + "-" + number(highHz) + " Hz";
    return name.empty() ? range : name + " (" + range + ")";
}

const std::vector<FrequencyBand>& bandPresets() {
    static const std::vector<FrequencyBand> presets{
        {"delta", 0.5, 4}, {"theta", 4, 8}, {"alpha", 8, 13}, {"beta", 13, 30}, {"gamma", 30, 80}};
    return presets;
}

std::optional<FrequencyBand> findBand(std::string_view name, const std::vector<FrequencyBand>& extra) {
    const std::string want = lower(trim(name));
    for (const auto* list : {&extra, &bandPresets()})
        for (const FrequencyBand& b : *list)
            if (lower(b.name) == want) return b;
    return std::nullopt;
}

FrequencyBand parseFrequencyBand(std::string_view text, const std::vector<FrequencyBand>& extra,
                                 const std::string& field) {
    const std::string_view t = trim(text);
    FrequencyBand b;
    if (const auto eq = t.find('='); eq != std::string_view::npos) {
        b.name = std::string(trim(t.substr(0, eq)));
        if (b.name.empty() || !parseRange(t.substr(eq + 1), b.lowHz, b.highHz))
            throw EngineError(EngineError::Kind::BadParameter, field,
                              "'" + std::string(text) + "' is not a named frequency band NAME=LO-HI (e.g. mu=8-12)");
    } else if (auto found = findBand(t, extra)) {
        b = *found;
    } else if (!parseRange(t, b.lowHz, b.highHz)) {
        throw EngineError(EngineError::Kind::BadParameter, field,
                          "unknown frequency band '" + std::string(text) + "' (" + presetNames(extra) +
                              ", LO-HI in Hz such as 8-13, or NAME=LO-HI)");
    }
    checkBandForm(b, field);
    return b;
}

std::size_t minimumBandLength(int order) { return std::size_t(3 * (2 * std::max(order, 1) + 1) + 1); }

void validateBand(const FrequencyBand& band, double rateHz, std::size_t length, int order, const std::string& field) {
    checkBandForm(band, field);
    const std::string what = "frequency band " + band.describe();
    if (order < 1 || order > 16)
        throw EngineError(EngineError::Kind::BadParameter, field,
                          what + ": the filter order must be 1..16, got " + std::to_string(order));
    if (!(rateHz > 0) || !std::isfinite(rateHz))
        throw EngineError(EngineError::Kind::BadParameter, field,
                          what + ": needs the sampling rate of the signal (got " + number(rateHz) + " Hz)");
    if (!(band.highHz < rateHz / 2))
        throw EngineError(EngineError::Kind::BadParameter, field,
                          what + " needs a sampling rate above " + number(2 * band.highHz) + " Hz; the signal has " +
                              number(rateHz) + " Hz (Nyquist " + number(rateHz / 2) + " Hz)");
    if (length != 0 && length < minimumBandLength(order))
        throw EngineError(EngineError::Kind::BadParameter, field,
                          what + ": the signal has " + std::to_string(length) + " samples; a zero-phase filter of order " +
                              std::to_string(order) + " needs at least " + std::to_string(minimumBandLength(order)));
}

}  // namespace warplab::compute::spectral
