// `warplab-cli dm`: the distance matrix of queries x targets, or all pairs of the queries.
// Without --out the matrix streams to stdout as CSV rows; with --out it is written by extension
// (.csv, .npy, .h5). A matrix too large for memory streams tile by tile to .npy/.h5.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/freq_band_option.h"
#include "app/cli/mpi_dm.h"
#include "app/cli/mpi_job.h"
#include "compute/engine/engine.h"
#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/matrix_io.h"
#include "app/cli/csv_row_stream.h"  // dm to stdout (kept apart from the includes above)

namespace warplab::cli {

namespace {

struct DmOptions {
    MetricOptions metric;
    RunFlags run;
    SeriesFlags series;
    FreqBandFlags freqBands;
    std::string queries, targets, out;
    double maxMemoryGiB = 2.0;
};

std::vector<std::string> namesOf(const compute::SeriesSet& set) {
    std::vector<std::string> names;
    names.reserve(set.size());
    for (std::size_t i = 0; i < set.size(); ++i)
        names.push_back(set[i].name.empty() ? std::to_string(i) : set[i].name);
    return names;
}

// Streams a matrix that does not fit the memory budget: the engine hands over finished tiles
// (for all pairs, each upper tile once more transposed), the writer puts them in place.
void streamMatrix(const DmOptions& o, const compute::SeriesSet& q, const compute::SeriesSet* t,
                  const compute::Params& params, const compute::RunOptions& run) {
    auto writer = io::MatrixStreamWriter::create(o.out, q.size(), t ? t->size() : q.size(), params);
    compute::Engine::distanceMatrixStreamed(q, t, params, run, [&](const compute::Tile& tile, const double* values) {
        writer->writeTile(tile, values);
    });
    writer->finish();
}

// One matrix per frequency band, of the series filtered to it: FILE.<band>.EXT each, or with
// one band and no --out CSV on stdout (the band named on stderr).
void runDmPerBand(const DmOptions& o, const std::vector<compute::spectral::FrequencyBand>& bands,
                  const compute::SeriesSet& q, const compute::SeriesSet* t, const compute::Params& params,
                  const compute::RunOptions& run, const std::string& ext) {
    if (mpi::active())
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "freq-band",
                                   "--freq-band runs in one process; run it without mpirun");
    if (o.out.empty() && bands.size() > 1)
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "freq-band",
                                   "several frequency bands need --out FILE (one file per band, FILE.<band>.EXT)");
    const double rateQ = bandRate(o.series, o.queries, o.series.channel);
    const double rateT = t ? bandRate(o.series, o.targets, o.series.channel) : rateQ;
    for (const auto& band : bands) {
        const compute::SeriesSet fq = filterToBand(q, rateQ, band, o.freqBands.order, o.queries, "queries");
        compute::SeriesSet ft;
        if (t) ft = filterToBand(*t, rateT, band, o.freqBands.order, o.targets, "targets");
        const compute::SeriesSet* targets = t ? &ft : nullptr;
        const std::vector<std::pair<std::string, std::string>> inputs{{"queries", o.queries}, {"targets", o.targets}};
        if (o.out.empty()) {
            std::cerr << "# frequency band " << band.describe() << ", order " << o.freqBands.order << "\n";
            namingFiles(inputs, [&] { streamMatrixCsv(std::cout, fq, targets, params, run, o.maxMemoryGiB * double(1ull << 30)); });
            finishProgress();
            flushStdout();
            return;
        }
        const std::string path = bandPath(o.out, band);
        const double bytes = double(fq.size()) * double(targets ? ft.size() : fq.size()) * sizeof(double);
        DmOptions one = o;
        one.out = path;
        if (ext != ".csv" && bytes > o.maxMemoryGiB * double(1ull << 30)) {
            namingFiles(inputs, [&] { streamMatrix(one, fq, targets, params, run); });
        } else {
            compute::DistanceMatrix m;
            namingFiles(inputs, [&] { m = compute::Engine::distanceMatrix(fq, targets, params, run); });
            if (m.rowNames.empty()) m.rowNames = namesOf(fq);
            if (m.colNames.empty()) m.colNames = namesOf(targets ? ft : fq);
            io::writeMatrix(path, m);
        }
        finishProgress();
        std::cerr << "# frequency band " << band.describe() << ": " << path << "\n";
    }
}

void runDm(const DmOptions& o) {
    // Refuse an unknown output format before any work is done.
    const std::string ext = o.out.empty() ? std::string() : io::lowerExtension(o.out);
    if (!o.out.empty() && ext != ".csv" && ext != ".npy" && ext != ".h5" && ext != ".hdf5")
        throw io::IoError(o.out, "--out", "unknown extension '" + ext + "' (use .csv, .npy or .h5)");
    if (!o.out.empty()) {
        const auto dir = std::filesystem::absolute(o.out).parent_path();
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec))
            throw io::IoError(o.out, "--out", "the folder " + dir.string() + " does not exist");
    }
    compute::Params params = toParams(o.metric);
    params.rate = timestampRate(o.series, o.queries);
    compute::SeriesSet q = readSeries(o.queries, o.series, "queries");
    compute::SeriesSet t;
    if (!o.targets.empty()) t = readSeries(o.targets, o.series, "targets");
    const compute::SeriesSet* targets = o.targets.empty() ? nullptr : &t;
    compute::RunOptions run = toRunOptions(o.run, "dm");

    const std::vector<std::pair<std::string, std::string>> inputs{{"queries", o.queries}, {"targets", o.targets}};
    if (const auto bands = parseFreqBands(o.freqBands); !bands.empty()) {
        runDmPerBand(o, bands, q, targets, params, run, ext);
        return;
    }
    if (mpi::active()) {  // under mpirun: every rank its share of the tiles (mpi_dm.h)
        runDmMpi({&q, targets, params, run, o.out, ext, o.maxMemoryGiB, inputs});
        finishProgress();
        return;
    }
    const double cols = double(targets ? t.size() : q.size());
    const double bytes = double(q.size()) * cols * sizeof(double);
    if (!o.out.empty() && ext != ".csv" && bytes > o.maxMemoryGiB * double(1ull << 30)) {
        namingFiles(inputs, [&] { streamMatrix(o, q, targets, params, run); });
        finishProgress();
        return;
    }

    if (o.out.empty()) {  // CSV rows on stdout as they are computed (csv_row_stream.h)
        namingFiles(inputs, [&] { streamMatrixCsv(std::cout, q, targets, params, run, o.maxMemoryGiB * double(1ull << 30)); });
        finishProgress();
        flushStdout();
        return;
    }
    compute::DistanceMatrix m;
    namingFiles(inputs, [&] { m = compute::Engine::distanceMatrix(q, targets, params, run); });
    finishProgress();
    if (m.rowNames.empty()) m.rowNames = namesOf(q);
    if (m.colNames.empty()) m.colNames = namesOf(targets ? t : q);
    io::writeMatrix(o.out, m);
}

}  // namespace

void addDmCommand(CLI::App& app) {
    auto o = std::make_shared<DmOptions>();
    auto* cmd = app.add_subcommand("dm", "distance matrix of queries x targets (or all pairs of the queries)");
    addMetricOptions(*cmd, o->metric);
    cmd->add_option("--queries", o->queries, "series file: the matrix rows")->required()->check(CLI::ExistingFile);
    cmd->add_option("--targets", o->targets, "series file: the matrix columns (default: all pairs of the queries)")
        ->check(CLI::ExistingFile);
    cmd->add_option("--out", o->out, "write FILE.csv, FILE.npy or FILE.h5 instead of CSV on stdout");
    cmd->add_option("--max-memory", o->maxMemoryGiB,
                    "GiB a matrix may take in memory; larger ones stream to .npy/.h5 tile by tile")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    addSeriesOptions(*cmd, o->series);
    addFreqBandOptions(*cmd, o->freqBands);
    addRunOptions(*cmd, o->run);
    cmd->callback([o] { runDm(*o); });
}

}  // namespace warplab::cli
