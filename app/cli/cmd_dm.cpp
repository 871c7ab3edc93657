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
    addRunOptions(*cmd, o->run);
    cmd->callback([o] { runDm(*o); });
}

}  // namespace warplab::cli
