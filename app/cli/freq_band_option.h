// --freq-band NAME|LO-HI (repeatable) and --freq-band-order on dm, search and patterns: each
// band filters what is analysed (zero phase, compute/spectral/band_filter.h) and the analysis
// runs once per band; outputs name the band (a file per band, FILE.alpha.npy; a "band" column
// on stdout).
#pragma once
#include <string>
#include <vector>

#include "app/cli/common_options.h"
#include "compute/spectral/band_filter.h"

namespace warplab::cli {

struct FreqBandFlags {
    std::vector<std::string> bands;  // as typed
    int order = compute::spectral::kDefaultBandOrder;
};
void addFreqBandOptions(CLI::App& cmd, FreqBandFlags& o);
// The bands parsed (empty: none asked). Throws EngineError(BadParameter, "freq-band") naming the
// text of a bad or repeated band.
std::vector<compute::spectral::FrequencyBand> parseFreqBands(const FreqBandFlags& o);
// "out.npy" -> "out.alpha.npy", "m.h5" -> "m.8-13Hz.h5": one file per band.
std::string bandPath(const std::string& path, const compute::spectral::FrequencyBand& band);
// The sampling rate a band filter of series from `path` needs: --rate, else the EDF/BDF
// channel's. Throws EngineError(BadParameter, "freq-band") when neither is known.
double bandRate(const SeriesFlags& o, const std::string& path, const std::string& channel);
// `set` filtered to `band`; an error names `path` and the series (role[i]).
compute::SeriesSet filterToBand(const compute::SeriesSet& set, double rateHz, const compute::spectral::FrequencyBand& band,
                                int order, const std::string& path, const std::string& role);

}  // namespace warplab::cli
