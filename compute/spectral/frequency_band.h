// Frequency bands as a value: the EEG presets (delta, theta, alpha, beta, gamma), custom
// ranges "LO-HI" and named custom ranges "NAME=LO-HI", parsed from text and checked against a
// sampling rate and a signal length before anything is filtered. No filtering here
// (band_filter.h does that); the word "band" alone means the Sakoe-Chiba band elsewhere, so
// code and docs say "frequency band".
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warplab::compute::spectral {

// Butterworth order of a band-pass unless the caller chooses one: scipy's butter(N, [lo, hi],
// btype="bandpass") of this N, i.e. N second-order sections and slopes of order N each side.
inline constexpr int kDefaultBandOrder = 4;

struct FrequencyBand {
    std::string name;   // "alpha", a user's own name, or "" for an unnamed range
    double lowHz = 0;   // pass band [lowHz, highHz] (the -3 dB points of one filter pass)
    double highHz = 0;

    // "alpha" for a named band, "8-13 Hz" for an unnamed one: what results and views show.
    std::string label() const;
    // A file-name and column-safe key: "alpha", or "8-13Hz" / "0.5-4Hz" for an unnamed range.
    std::string key() const;
    // "alpha (8-13 Hz)" or "8-13 Hz": the longer form for titles and error messages.
    std::string describe() const;

    friend bool operator==(const FrequencyBand&, const FrequencyBand&) = default;
};

// delta 0.5-4, theta 4-8, alpha 8-13, beta 13-30, gamma 30-80 Hz, in that order.
const std::vector<FrequencyBand>& bandPresets();
// The preset (or one of `extra`, e.g. a user's saved bands; those win over presets of the same
// name) called `name`, case-insensitive; nullopt when none.
std::optional<FrequencyBand> findBand(std::string_view name, const std::vector<FrequencyBand>& extra = {});

// Parses "alpha" (a preset or one of `extra`), "8-13" / "8-13Hz" / "8 - 13 Hz" (an unnamed
// range) or "mu=8-12" (a named range). Checks the form only (finite, 0 < LO < HI); the rate
// and length are checked by validateBand. Throws EngineError(BadParameter, field) naming the
// text and what is wrong ("unknown frequency band 'alfa' (delta, theta, alpha, beta, gamma,
// or LO-HI in Hz)").
FrequencyBand parseFrequencyBand(std::string_view text, const std::vector<FrequencyBand>& extra = {},
                                 const std::string& field = "freq_band");

// The form alone, without a rate: finite edges, 0 < LO < HI. Throws EngineError(BadParameter,
// field) naming the band (what parseFrequencyBand and JSON readers check).
void checkBandForm(const FrequencyBand& band, const std::string& field = "freq_band");

// The shortest signal a zero-phase band-pass of `order` accepts: scipy's sosfiltfilt pads
// 3 * (2 * sections + 1) samples at each end by odd reflection and needs more samples than
// that, so order 4 (4 sections) needs 28 samples.
std::size_t minimumBandLength(int order = kDefaultBandOrder);

// Refuses, by the band's name, what the filter cannot do: LO or HI not finite, LO <= 0,
// LO >= HI, HI at or above the Nyquist frequency rateHz / 2 ("gamma (30-80 Hz) needs a
// sampling rate above 160 Hz; the signal has 160 Hz"), an order outside 1..16, and (when
// `length` is not 0) a signal shorter than minimumBandLength(order). Throws
// EngineError(BadParameter, field).
void validateBand(const FrequencyBand& band, double rateHz, std::size_t length = 0, int order = kDefaultBandOrder,
                  const std::string& field = "freq_band");

// What a session or a result carries: the bands analysed (empty: the unfiltered signal), their
// filter order, and whether the signal view shows the first band too (not only the analysis).
struct BandChoice {
    std::vector<FrequencyBand> bands;
    int order = kDefaultBandOrder;
    bool applyToDisplay = false;
    friend bool operator==(const BandChoice&, const BandChoice&) = default;
};

}  // namespace warplab::compute::spectral
