// `warplab-cli dm`: the distance matrix of queries x targets, or all pairs of the queries.
// Without --out the matrix streams to stdout as CSV rows; with --out it is written by extension
// (.csv, .npy, .h5). A matrix too large for memory streams tile by tile to .npy/.h5.
// --dtype float32 writes a .npy/.h5 in single precision (half the bytes); --timing (hidden)
// prints the split of the wall clock (time_split.h).
#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/gpu_start_up.h"
#include "app/cli/freq_band_option.h"
#include "app/cli/mpi_dm.h"
#include "app/cli/mpi_job.h"
#include "app/cli/time_split.h"
#include "compute/core/error.h"
#include "compute/engine/engine.h"
#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/matrix_band.h"
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
    std::string dtype = "float64";
    bool timing = false;
};

std::vector<std::string> namesOf(const compute::SeriesSet& set) {
    std::vector<std::string> names;
    names.reserve(set.size());
    for (std::size_t i = 0; i < set.size(); ++i)
        names.push_back(set[i].name.empty() ? std::to_string(i) : set[i].name);
    return names;
}

// Streams a matrix that does not fit the memory budget: the engine hands over finished tiles
// (for all pairs, each upper tile once more transposed), the writer puts them in place, from
// the threads that finished them where it can (.npy), else one at a time (.h5).
struct StreamedOutput {
    double seconds = 0;       // the writes made one at a time, and the file's finish
    bool concurrent = false;  // the tiles were put in place by the computing threads
};
StreamedOutput streamMatrix(const DmOptions& o, const compute::SeriesSet& q, const compute::SeriesSet* t,
                            const compute::Params& params, const compute::RunOptions& run, io::MatrixValueType type) {
    using Clock = std::chrono::steady_clock;
    auto writer = io::MatrixStreamWriter::create(o.out, q.size(), t ? t->size() : q.size(), params, false, type);
    StreamedOutput result;
    result.concurrent = writer->concurrentTiles();
    compute::Engine::distanceMatrixStreamed(
        q, t, params, run,
        [&](const compute::Tile& tile, const double* values) {
            if (result.concurrent) {
                writer->writeTile(tile, values);
                return;
            }
            const auto t0 = Clock::now();
            writer->writeTile(tile, values);
            result.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
        },
        result.concurrent ? compute::SinkCalls::Concurrent : compute::SinkCalls::OneAtATime);
    const auto t0 = Clock::now();
    writer->finish();
    result.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    return result;
}

// One matrix per frequency band, of the series filtered to it: FILE.<band>.EXT each, or with
// one band and no --out CSV on stdout (the band named on stderr).
void runDmPerBand(const DmOptions& o, const std::vector<compute::spectral::FrequencyBand>& bands,
                  const compute::SeriesSet& q, const compute::SeriesSet* t, const compute::Params& params,
                  const compute::RunOptions& run, const std::string& ext, io::MatrixValueType type) {
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
            namingFiles(inputs, [&] { streamMatrix(one, fq, targets, params, run, type); });
        } else {
            compute::DistanceMatrix m;
            namingFiles(inputs, [&] { m = compute::Engine::distanceMatrix(fq, targets, params, run); });
            if (m.rowNames.empty()) m.rowNames = namesOf(fq);
            if (m.colNames.empty()) m.colNames = namesOf(targets ? ft : fq);
            io::writeMatrix(path, m, type);
        }
        // The band goes with the file (an HDF5 attribute, else FILE.json beside it).
        io::writeMatrixBand(path, {band, o.freqBands.order}, params, fq.size(), targets ? ft.size() : fq.size());
        finishProgress();
        std::cerr << "# frequency band " << band.describe() << ", order " << o.freqBands.order << ": " << path << "\n";
    }
}

void runDm(const DmOptions& o) {
    TimeSplit split;
    // Refuse an unknown output format before any work is done.
    const std::string ext = o.out.empty() ? std::string() : io::lowerExtension(o.out);
    if (!o.out.empty() && ext != ".csv" && ext != ".npy" && ext != ".h5" && ext != ".hdf5")
        throw io::IoError(o.out, "--out", "unknown extension '" + ext + "' (use .csv, .npy or .h5)");
    const auto type = o.dtype == "float32" ? io::MatrixValueType::Float32 : io::MatrixValueType::Float64;
    if (type == io::MatrixValueType::Float32 && (o.out.empty() || ext == ".csv"))
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "dtype",
                                   "float32 is written to a .npy or .h5 file (--out); CSV is always full precision");
    if (!o.out.empty()) {
        const auto dir = std::filesystem::absolute(o.out).parent_path();
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec))
            throw io::IoError(o.out, "--out", "the folder " + dir.string() + " does not exist");
    }
    // The GPUs start while the series are read (gpu_start_up.h).
    GpuStartUp gpu(o.run);
    compute::Params params = toParams(o.metric);
    params.rate = timestampRate(o.series, o.queries);
    compute::SeriesSet q = readSeries(o.queries, o.series, "queries");
    compute::SeriesSet t;
    if (!o.targets.empty()) t = readSeries(o.targets, o.series, "targets");
    const compute::SeriesSet* targets = o.targets.empty() ? nullptr : &t;
    compute::RunOptions run = toRunOptions(o.run, "dm");
    split.mark(TimeSplit::Input);
    gpu.wait();
    split.mark(TimeSplit::StartUp);
    const auto report = [&](const std::string& what) {
        if (!o.timing || mpi::rank() != 0) return;
        if (gpu.contextSeconds() >= 0) split.setBackground(gpu.contextSeconds(), "GPU contexts and peer access");
        split.print(what);
    };

    const std::vector<std::pair<std::string, std::string>> inputs{{"queries", o.queries}, {"targets", o.targets}};
    if (const auto bands = parseFreqBands(o.freqBands); !bands.empty()) {
        runDmPerBand(o, bands, q, targets, params, run, ext, type);
        return;
    }
    if (mpi::active()) {  // under mpirun: every rank its share of the tiles (mpi_dm.h)
        DmMpiJob job{&q, targets, params, run, o.out, ext, o.maxMemoryGiB, inputs};
        job.type = type;
        runDmMpi(job);
        finishProgress();
        split.mark(TimeSplit::Compute);
        report("dm under mpirun (each rank writing its share: output in compute)");
        return;
    }
    const double cols = double(targets ? t.size() : q.size());
    const double bytes = double(q.size()) * cols * sizeof(double);
    if (!o.out.empty() && ext != ".csv" && bytes > o.maxMemoryGiB * double(1ull << 30)) {
        StreamedOutput written;
        namingFiles(inputs, [&] { written = streamMatrix(o, q, targets, params, run, type); });
        finishProgress();
        split.mark(TimeSplit::Compute);
        split.move(TimeSplit::Compute, TimeSplit::Output, written.seconds);
        report(written.concurrent ? "dm, streamed (tiles put in place while computing: in compute; output: the file's finish)"
                                  : "dm, streamed (output: the tiles' writes and the file's finish)");
        return;
    }

    if (o.out.empty()) {  // CSV rows on stdout as they are computed (csv_row_stream.h)
        namingFiles(inputs, [&] { streamMatrixCsv(std::cout, q, targets, params, run, o.maxMemoryGiB * double(1ull << 30)); });
        finishProgress();
        split.mark(TimeSplit::Compute);
        flushStdout();
        split.mark(TimeSplit::Output);
        report("dm to stdout (rows written while computing: in compute)");
        return;
    }
    compute::DistanceMatrix m;
    namingFiles(inputs, [&] { m = compute::Engine::distanceMatrix(q, targets, params, run); });
    finishProgress();
    split.mark(TimeSplit::Compute);
    if (m.rowNames.empty()) m.rowNames = namesOf(q);
    if (m.colNames.empty()) m.colNames = namesOf(targets ? t : q);
    io::writeMatrix(o.out, m, type);
    split.mark(TimeSplit::Output);
    report("dm");
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
    cmd->add_option("--dtype", o->dtype,
                    "values in a .npy/.h5: float64, or float32 (half the bytes; exact where the kernel computes in "
                    "fp32, as the GPU kernels do, else rounded to the nearest float)")
        ->check(CLI::IsMember({"float64", "float32"}))
        ->capture_default_str();
    addSeriesOptions(*cmd, o->series);
    addFreqBandOptions(*cmd, o->freqBands);
    addRunOptions(*cmd, o->run);
    cmd->add_flag("--timing", o->timing, "")->group("");  // benchmark: the split of the wall clock
    cmd->callback([o] { runDm(*o); });
}

}  // namespace warplab::cli
