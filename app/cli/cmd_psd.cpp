// `warplab-cli psd`: the power spectral density of a channel by Welch's method
// (compute/spectral/welch.h; equal to scipy.signal.welch with the same parameters), as CSV
// (stdout or --out FILE.csv) or JSON (--out FILE.json). With seizures (--seizures or --summary)
// two spectra: the seizures' and the rest of the channel's, each averaged over the segments
// that lie wholly inside one stretch.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/freq_band_option.h"
#include "compute/core/error.h"
#include "compute/spectral/welch.h"
#include "io/band_json.h"
#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/recording.h"
#include "io/regions.h"
#include "io/regions_exchange.h"

namespace warplab::cli {

namespace {

namespace sp = compute::spectral;
using compute::EngineError;

struct PsdOptions {
    std::string input, out, seizures, summary, regions, kind = "seizure", detrend = "constant", scaling = "density";
    std::size_t nperseg = 256;
    long long noverlap = -1;  // -1: nperseg / 2
    SeriesFlags series;
    FreqBandFlags freqBands;
};

struct Labelled {
    std::string region;
    sp::Spectrum spectrum;
};

// "START-END,START-END" in seconds.
std::vector<std::pair<double, double>> parseSpans(const std::string& text) {
    std::vector<std::pair<double, double>> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        double a = 0, b = 0;
        char dash = 0;
        std::istringstream is(item);
        if (!(is >> a >> dash >> b) || dash != '-' || !(a >= 0) || !(b > a))
            throw EngineError(EngineError::Kind::BadParameter, "seizures", "'" + item + "' is not START-END in seconds with START < END");
        out.emplace_back(a, b);
    }
    return out;
}

void runPsd(const PsdOptions& o) {
    const std::string ext = o.out.empty() ? ".csv" : io::lowerExtension(o.out);
    if (ext != ".csv" && ext != ".json") throw io::IoError(o.out, "--out", "unknown extension '" + ext + "' (use .csv or .json)");
    sp::WelchOptions w;
    w.segmentLength = o.nperseg;
    if (o.noverlap >= 0) w.overlap = std::size_t(o.noverlap);
    w.detrend = sp::parseDetrend(o.detrend, "detrend");
    w.scaling = sp::parseScaling(o.scaling, "scaling");
    const auto bands = parseFreqBands(o.freqBands);
    if (bands.size() > 1)
        throw EngineError(EngineError::Kind::BadParameter, "freq-band", "psd filters to at most one frequency band");
    if (int(!o.seizures.empty()) + int(!o.summary.empty()) + int(!o.regions.empty()) > 1)
        throw EngineError(EngineError::Kind::BadParameter, "seizures", "give one of --seizures, --summary, --regions");
    const bool split = !o.seizures.empty() || !o.summary.empty() || !o.regions.empty();
    if (split && !o.series.window.empty())
        throw EngineError(EngineError::Kind::BadParameter, "window", "--window and seizures: give the seizures of the whole channel");
    compute::Series x = readOneSeries(o.input, o.series, "input");
    if (x.dims != 1) throw io::IoError(o.input, "input", "holds a series of " + std::to_string(x.dims) + " channels; give one channel");
    const double rate = bandRate(o.series, o.input, o.series.channel);
    if (!bands.empty()) x = filterToBand({x}, rate, bands.front(), o.freqBands.order, o.input, "input").front();

    std::vector<std::pair<double, double>> spans;
    if (!o.seizures.empty()) spans = parseSpans(o.seizures);
    else if (!o.summary.empty())
        for (const auto& r : io::seizuresFromChbSummary(o.summary, std::filesystem::path(o.input).filename().string()))
            spans.emplace_back(r.startS, r.endS);
    else if (!o.regions.empty()) {
        // The regions of --kind on this channel or on all channels, from the GUI's regions CSV.
        std::vector<std::string> names{x.name};
        int signal = 0;
        if (io::isRecordingFile(o.input)) {
            auto rec = io::Recording::open(o.input);
            names.clear();
            for (const auto& info : rec->signals()) names.push_back(info.displayName);
            signal = rec->findSignal(o.series.channel);
        }
        for (const auto& r : io::readRegionsCsv(o.regions, names))
            if (io::regionKindName(r.kind) == o.kind && (r.channel < 0 || r.channel == signal)) spans.emplace_back(r.startS, r.endS);
        if (spans.empty())
            throw io::IoError(o.regions, "kind", "no " + o.kind + " region on channel " + x.name + " or on all channels");
    }
    std::vector<Labelled> spectra;
    const std::span<const float> all = x.samples();
    try {
        if (!split) {
            spectra.push_back({"all", sp::welch(all, rate, w)});
        } else {
            if (spans.empty()) throw io::IoError(o.summary, "seizures", "no seizure of " + o.input + " listed");
            const std::string inside = o.regions.empty() ? "seizure" : o.kind;
            auto r = sp::regionSpectra(all, rate, spans, w);
            for (const auto* side : {&r.inside, &r.outside})
                if (side->segments == 0)
                    throw EngineError(EngineError::Kind::BadInput, "seizures",
                                      (side == &r.inside ? "the " + inside + " regions" : std::string("the rest")) + " hold no whole segment of " +
                                          std::to_string(w.segmentLength) + " samples");
            spectra.push_back({inside, std::move(r.inside)});
            spectra.push_back({"rest", std::move(r.outside)});
        }
    } catch (const EngineError& e) {
        throw EngineError(e.kind(), e.field(), o.input + ": " + e.what());
    }
    const auto& freq = spectra.front().spectrum.frequencyHz;
    const std::string units = w.scaling == sp::Scaling::Density ? "unit^2/Hz" : "unit^2";
    if (ext == ".json") {
        nlohmann::json j = {{"input", o.input},
                            {"channel", x.name},
                            {"rate_hz", rate},
                            {"nperseg", spectra.front().spectrum.segmentLength},
                            {"noverlap", o.noverlap >= 0 ? std::size_t(o.noverlap) : spectra.front().spectrum.segmentLength / 2},
                            {"window", "hann"},
                            {"detrend", sp::detrendName(w.detrend)},
                            {"scaling", sp::scalingName(w.scaling)},
                            {"units", units},
                            {"frequency_band", bands.empty() ? nlohmann::json(nullptr) : io::bandToJson(bands.front())},
                            {"frequency_hz", freq}};
        for (const auto& s : spectra)
            j["spectra"].push_back({{"region", s.region}, {"segments", s.spectrum.segments}, {"power", s.spectrum.power}});
        std::ofstream f(o.out);
        f << j.dump(1) << '\n';
        if (!f.flush()) throw io::IoError(o.out, "--out", "write failed");
        return;
    }
    std::ofstream file;
    if (!o.out.empty()) file.open(o.out);
    std::ostream& out = o.out.empty() ? std::cout : file;
    out << "frequency_hz";
    for (const auto& s : spectra) out << ',' << s.region;
    out << '\n';
    for (std::size_t k = 0; k < freq.size(); ++k) {
        out << formatDouble(freq[k]);
        for (const auto& s : spectra) out << ',' << formatDouble(s.spectrum.power[k]);
        out << '\n';
    }
    std::cerr << "# Welch PSD (" << units << "), Hann, nperseg " << spectra.front().spectrum.segmentLength;
    for (const auto& s : spectra) std::cerr << ", " << s.region << " " << s.spectrum.segments << " segments";
    if (!bands.empty()) std::cerr << ", filtered to " << bands.front().describe();
    std::cerr << "\n";
    if (o.out.empty()) flushStdout();
    else if (!file.flush()) throw io::IoError(o.out, "--out", "write failed");
}

}  // namespace

void addPsdCommand(CLI::App& app) {
    auto o = std::make_shared<PsdOptions>();
    auto* cmd = app.add_subcommand("psd", "power spectral density of a channel (Welch, Hann window), optionally seizures vs the rest");
    cmd->add_option("--input", o->input, "series file or EDF/BDF recording (with --channel)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--out", o->out, "FILE.csv or FILE.json (default: CSV on stdout)");
    cmd->add_option("--nperseg", o->nperseg, "samples per segment")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--noverlap", o->noverlap, "samples shared by consecutive segments (default: nperseg / 2)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--detrend", o->detrend, "none, constant or linear (per segment)")->capture_default_str();
    cmd->add_option("--scaling", o->scaling, "density (unit^2/Hz) or spectrum (unit^2)")->capture_default_str();
    cmd->add_option("--seizures", o->seizures, "seizures START-END,... in seconds: a spectrum of them and one of the rest");
    cmd->add_option("--summary", o->summary, "CHB-MIT chbNN-summary.txt listing the recording's seizures")
        ->check(CLI::ExistingFile);
    cmd->add_option("--regions", o->regions, "regions CSV (as the application exports it): a spectrum of the --kind regions "
                                             "on this channel or on all channels, and one of the rest")
        ->check(CLI::ExistingFile);
    cmd->add_option("--kind", o->kind, "--regions: which kind")
        ->check(CLI::IsMember({"seizure", "query", "reference"}))
        ->capture_default_str();
    addFreqBandOptions(*cmd, o->freqBands);
    addSeriesOptions(*cmd, o->series);
    cmd->callback([o] { runPsd(*o); });
}

}  // namespace warplab::cli
