#include "app/cli/freq_band_option.h"

#include <filesystem>

#include <CLI/CLI.hpp>

#include "compute/core/error.h"
#include "io/recording.h"
#include "io/series_file.h"

namespace warplab::cli {

namespace sp = compute::spectral;
using compute::EngineError;

void addFreqBandOptions(CLI::App& cmd, FreqBandFlags& o) {
    cmd.add_option("--freq-band", o.bands,
                   "analyse the signal filtered to a frequency band (zero-phase Butterworth band-pass): delta, theta, "
                   "alpha, beta, gamma, LO-HI in Hz or NAME=LO-HI; repeat for one analysis per band")
        ->option_text("NAME|LO-HI");
    cmd.add_option("--freq-band-order", o.order, "Butterworth order of the band-pass (scipy's butter N)")
        ->check(CLI::Range(1, 16))
        ->capture_default_str();
}

std::vector<sp::FrequencyBand> parseFreqBands(const FreqBandFlags& o) {
    std::vector<sp::FrequencyBand> out;
    for (const auto& text : o.bands) {
        sp::FrequencyBand b = sp::parseFrequencyBand(text, {}, "freq-band");
        for (const auto& seen : out)
            if (seen.key() == b.key())
                throw EngineError(EngineError::Kind::BadParameter, "freq-band", "frequency band " + b.describe() + " given twice");
        out.push_back(std::move(b));
    }
    return out;
}

std::string bandPath(const std::string& path, const sp::FrequencyBand& band) {
    std::filesystem::path p(path);
    const std::string ext = p.extension().string();
    p.replace_extension();
    return p.string() + "." + band.key() + ext;
}

double bandRate(const SeriesFlags& o, const std::string& path, const std::string& channel) {
    if (o.rate > 0) return o.rate;
    if (!channel.empty() && io::isRecordingFile(path)) {
        auto rec = io::Recording::open(path);
        const int sig = rec->findSignal(channel);
        if (sig >= 0 && rec->signals()[std::size_t(sig)].rateHz > 0) return rec->signals()[std::size_t(sig)].rateHz;
    }
    throw EngineError(EngineError::Kind::BadParameter, "freq-band",
                      path + ": a frequency band needs the sampling rate: give --rate HZ, or an EDF/BDF --channel "
                             "(its header gives the rate)");
}

compute::SeriesSet filterToBand(const compute::SeriesSet& set, double rateHz, const sp::FrequencyBand& band, int order,
                                const std::string& path, const std::string& role) {
    try {
        return sp::bandFilterSet(set, rateHz, band, order, role);
    } catch (const EngineError& e) {
        const std::string reason = std::string(e.what()).substr(e.field().empty() ? 0 : e.field().size() + 2);
        throw EngineError(e.kind(), e.field() == "freq_band" ? "freq-band" : e.field(), path + ": " + reason);
    }
}

}  // namespace warplab::cli
