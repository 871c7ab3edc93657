// Options every warplab-cli command shares, declared once so that the spelling, defaults and
// validation are the same everywhere (docs/CLI.md):
//   metric options  --metric --band --gamma --nu --lambda --degree --cost --znorm --sqrt -> compute::Params
//   run options     --backend --kernel --threads --progress                          -> compute::RunOptions
//   series options  --label-column --multivariate --channel --window --rate         -> io::SeriesFileOptions
// and runCli(), which parses, runs the chosen command and maps errors to exit codes.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/params.h"
#include "compute/core/series.h"
#include "io/series_file.h"

namespace CLI {
class App;
}

namespace warplab::cli {

// Exit codes of docs/CLI.md: 0 success, 1 failure, 2 bad input (parse errors included).
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

// Metric options; `params` holds the values CLI11 writes into (defaults from compute::Params).
struct MetricOptions {
    compute::Params params;
};
// Adds --metric (when `withMetric`), --band, --gamma, --nu, --lambda, --degree, --cost,
// --znorm, --sqrt. `metricRequired` makes --metric mandatory.
void addMetricOptions(CLI::App& cmd, MetricOptions& o, bool withMetric = true, bool metricRequired = true);
// Only --cost, --znorm and --sqrt: what a subsequence search takes.
void addCostOptions(CLI::App& cmd, MetricOptions& o);
// The validated parameters (compute::validate). Throws EngineError(BadParameter) naming the field.
compute::Params toParams(const MetricOptions& o);

struct RunFlags {
    compute::Backend backend = compute::Backend::Auto;
    std::string kernel;
    int threads = 0;
    bool progress = false;  // force progress on stderr even when stderr is not a terminal
    std::string devices = "all";  // GPUs: "all" or indices "0,1" (RunOptions::devices)
};
void addRunOptions(CLI::App& cmd, RunFlags& o);
// RunOptions with the cancellation token of Ctrl-C and, when stderr is a terminal or --progress
// was given, a throttled progress line on stderr labelled with `what`.
compute::RunOptions toRunOptions(const RunFlags& o, const std::string& what);
// Ends the progress line (a newline on stderr) if one was drawn.
void finishProgress();

struct SeriesFlags {
    bool labelColumn = false;
    bool multivariate = false;
    std::string channel;
    std::string window;  // "START:LEN" in seconds
    double rate = 0;     // Hz; TWED timestamps t_i = i / rate (0: sample index)
    std::string timestamps = "auto";  // METRICS.md --timestamps: index | rate | auto (rate when --rate given)
};
void addSeriesOptions(CLI::App& cmd, SeriesFlags& o);
// Throws EngineError(BadParameter, "window") for a malformed --window.
io::SeriesFileOptions toSeriesFileOptions(const SeriesFlags& o);
// The TWED timestamp rate (compute::Params::rate) for series read from `path`: --rate, or with
// --timestamps rate and no --rate the sampling rate of the EDF/BDF channel; 0 for sample index.
// Throws EngineError(BadParameter, "timestamps") when seconds are asked for and no rate is known.
double timestampRate(const SeriesFlags& o, const std::string& path);
// Reads a series file with the series options; `role` names it in messages ("queries").
compute::SeriesSet readSeries(const std::string& path, const SeriesFlags& o, const std::string& role);
// Reads a file that must hold exactly one series. A file with one number per line (Bonn's
// recordings) is read as one series, not as many series of one sample.
compute::Series readOneSeries(const std::string& path, const SeriesFlags& o, const std::string& role);

// Runs `work`. The engine names inputs by role ("queries[3]", "x"); an EngineError about one of
// `inputs` (role, file) is re-thrown with that file in front, so the message names the file too.
void namingFiles(const std::vector<std::pair<std::string, std::string>>& inputs, const std::function<void()>& work);

// Thrown to end a command with `code` and no message of its own: an MPI rank whose failure
// (or another rank's) rank 0 reports (mpi_job.h).
struct QuietExit {
    int code = kExitFailure;
};

// Parses argv, runs the chosen subcommand's callback and returns the exit code. Prints errors
// (and only errors or progress) on stderr, so that stdout stays machine-readable.
int runCli(CLI::App& app, int argc, char** argv);

}  // namespace warplab::cli
