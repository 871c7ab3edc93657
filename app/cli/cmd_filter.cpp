// `warplab-cli filter`: one channel filtered to a frequency band (zero phase, as the analyses
// per band filter it), written as .npy (float32), .csv (one value per line under a header) or
// .edf/.bdf (one signal, the source channel's label and unit).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/freq_band_option.h"
#include "io/edf_writer.h"
#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/npy.h"
#include "io/recording.h"

namespace warplab::cli {

namespace {

namespace sp = compute::spectral;

struct FilterOptions {
    std::string input, out;
    SeriesFlags series;
    FreqBandFlags freqBands;
};

void writeNpy(const std::string& path, const std::vector<float>& x) {
    std::ofstream f(path, std::ios::binary);
    const std::string h = io::npyHeader({x.size()}, "<f4");
    f.write(h.data(), std::streamsize(h.size()));
    f.write(reinterpret_cast<const char*>(x.data()), std::streamsize(x.size() * sizeof(float)));
    if (!f.flush()) throw io::IoError(path, "--out", "write failed");
}

void writeCsv(const std::string& path, const std::vector<float>& x, const std::string& column) {
    std::ofstream f(path);
    f << column << '\n';
    for (float v : x) f << formatDouble(v) << '\n';
    if (!f.flush()) throw io::IoError(path, "--out", "write failed");
}

void writeEdf(const std::string& path, const std::vector<float>& x, double rateHz, const std::string& label,
              const std::string& unit, const sp::FrequencyBand& band, bool bdf) {
    const auto shape = io::edfRecordFor(rateHz);
    if (!shape)
        throw io::IoError(path, "--out", "EDF/BDF holds whole samples per data record of at most 60 s; none holds a whole number at " +
                                             formatDouble(rateHz) + " Hz: write .npy or .csv");
    io::EdfWriterSignal s;
    s.label = label.substr(0, 16);
    s.unit = unit;
    s.prefilter = ("BP:" + formatDouble(band.lowHz) + "-" + formatDouble(band.highHz) + "Hz").substr(0, 80);
    s.samplesPerRecord = shape->samplesPerRecord;
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    const double span = std::max(double(*hi) - double(*lo), 1e-6);
    s.physicalMin = double(*lo) - 1e-3 * span;
    s.physicalMax = double(*hi) + 1e-3 * span;
    if (bdf) {
        s.digitalMin = -8388608;
        s.digitalMax = 8388607;
    }
    io::EdfWriterHeader h;
    h.bdf = bdf;
    h.recordDurationS = shape->durationS;
    h.recordingAdditional = "filtered " + band.describe();
    io::EdfWriter w(path, h, {s});
    const std::size_t n = std::size_t(shape->samplesPerRecord);
    std::vector<double> record(n);
    for (std::size_t at = 0; at < x.size(); at += n) {
        // The last record is completed with its last sample (an EDF record is whole).
        for (std::size_t i = 0; i < n; ++i) record[i] = x[std::min(at + i, x.size() - 1)];
        w.writeRecordPhysical(record.data());
    }
    if (x.size() % n)
        std::cerr << "note: " << path << ": the last " << formatDouble(shape->durationS)
                  << " s record is completed with the last sample (" << n - x.size() % n
                  << " samples added)\n";
    w.close();
}

void runFilter(const FilterOptions& o) {
    const std::string ext = io::lowerExtension(o.out);
    if (ext != ".npy" && ext != ".csv" && ext != ".edf" && ext != ".bdf")
        throw io::IoError(o.out, "--out", "unknown extension '" + ext + "' (use .npy, .csv, .edf or .bdf)");
    const auto dir = std::filesystem::absolute(o.out).parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) throw io::IoError(o.out, "--out", "the folder " + dir.string() + " does not exist");
    const auto bands = parseFreqBands(o.freqBands);
    if (bands.size() != 1)
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "freq-band",
                                   "filter writes one channel in one frequency band: give --freq-band once");
    const compute::Series x = readOneSeries(o.input, o.series, "input");
    if (x.dims != 1)
        throw io::IoError(o.input, "input", "holds a series of " + std::to_string(x.dims) + " channels; filter one channel");
    const double rate = bandRate(o.series, o.input, o.series.channel);
    const auto y = filterToBand({x}, rate, bands.front(), o.freqBands.order, o.input, "input").front().values;
    std::string label = x.name.empty() ? "signal" : x.name, unit;
    if (io::isRecordingFile(o.input) && !o.series.channel.empty()) {
        auto rec = io::Recording::open(o.input);
        const int sig = rec->findSignal(o.series.channel);
        if (sig >= 0) {
            label = rec->signals()[std::size_t(sig)].label;
            unit = rec->signals()[std::size_t(sig)].unit;
        }
    }
    if (ext == ".npy") writeNpy(o.out, y);
    else if (ext == ".csv") writeCsv(o.out, y, label + " " + bands.front().label());
    else writeEdf(o.out, y, rate, label, unit, bands.front(), ext == ".bdf");
    std::cerr << "# " << label << " filtered to " << bands.front().describe() << " (order " << o.freqBands.order
              << ", zero phase), " << y.size() << " samples at " << formatDouble(rate) << " Hz: " << o.out << "\n";
}

}  // namespace

void addFilterCommand(CLI::App& app) {
    auto o = std::make_shared<FilterOptions>();
    auto* cmd = app.add_subcommand("filter", "write a channel filtered to a frequency band (zero-phase Butterworth band-pass)");
    cmd->add_option("--input", o->input, "series file or EDF/BDF recording (with --channel)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--out", o->out, "FILE.npy (float32), FILE.csv, FILE.edf or FILE.bdf")->required();
    addFreqBandOptions(*cmd, o->freqBands);
    addSeriesOptions(*cmd, o->series);
    cmd->callback([o] { runFilter(*o); });
}

}  // namespace warplab::cli
