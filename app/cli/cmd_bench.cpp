// `warplab-cli bench`: times the registered kernels on random series of the given lengths and
// checks each against the scalar reference on the same inputs (the engine path, transfers
// included). Where a GPU is present, its kernels are also timed on the device alone (inputs
// resident, device events), which is the figure comparable with published kernels. All of it
// comes from compute::runBenchmark (compute/bench/bench.h), as the GUI's kernel view gets it.
// Prints one table on stdout; --json writes the same rows.
// The other benchmarks are subcommands of `bench` (cmd_bench_<name>.cpp, listed in commands.h);
// plain `bench` without one is this kernel table.
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "app/cli/bench_report.h"
#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/devices_option.h"
#include "compute/bench/bench.h"
#include "compute/core/error.h"

namespace warplab::cli {

namespace {

struct BenchOptions {
    MetricOptions metric;
    std::string kernels = "all";
    std::vector<std::size_t> lengths = {128, 512, 1024};
    std::size_t pairs = 4096;
    std::size_t series = 0;
    int repeats = 5;
    int threads = 0;
    std::string json;
    bool deviceTiming = true;
    bool engineTiming = true;
    // sdtw: queries of --lengths in a reference of this length.
    int queries = 512;
    int referenceLength = 100000;
    int top = 5;
    std::string devices = "all";  // sdtw: the GPUs the device rows search on
};

void runBenchCommand(const BenchOptions& o) {
    compute::BenchConfig cfg;
    cfg.params = toParams(o.metric);
    cfg.lengths = o.lengths;
    cfg.pairs = o.pairs;
    cfg.series = o.series;
    cfg.repeats = o.repeats;
    cfg.threads = o.threads;
    std::stringstream ks(o.kernels);
    for (std::string k; std::getline(ks, k, ',');)
        if (!k.empty()) cfg.kernels.push_back(k);
    cfg.engineTiming = o.engineTiming;
    cfg.deviceTiming = o.deviceTiming;
    cfg.searchQueries = o.queries;
    cfg.referenceLength = o.referenceLength;
    cfg.topk = o.top;
    cfg.sdtwDevices = parseDevices(o.devices);
    const compute::BenchReport report = compute::runBenchmark(cfg);
    std::cout << "device: " << report.device << "\n";
    printBenchTable(std::cout, report.rows);
    if (!o.json.empty()) {
        std::ofstream out(o.json);
        if (!out)
            throw compute::EngineError(compute::EngineError::Kind::BadInput, "json", "cannot write " + o.json);
        out << io::benchJson(report.rows, report.device).dump(2) << "\n";
    }
    std::cout.flush();
}

}  // namespace

void requireGpu(const std::string& command) {
    const std::string why = compute::benchDeviceUnavailable();
    if (why.empty()) return;
    throw compute::EngineError(compute::EngineError::Kind::Device, "",
                               "`warplab-cli " + command + "` needs a GPU: " + why +
                                   (why == "no GPU backend built" ? " (configure with -DWARPLAB_CUDA=ON)" : ""));
}

void addBenchCommand(CLI::App& app) {
    auto o = std::make_shared<BenchOptions>();
    o->metric.params.metric = compute::Metric::Dtw;
    auto* cmd = app.add_subcommand("bench", "time the compute kernels and check them against the scalar reference");
    addMetricOptions(*cmd, o->metric, /*withMetric=*/true, /*metricRequired=*/false);
    cmd->add_option("--kernels", o->kernels,
                    "all, or registry names separated by commas (sdtw: the search designs, e.g. cuda.sdtw.r16,cuda.sdtw.znorm2k,cpu.simd)")
        ->capture_default_str();
    cmd->add_option("--lengths", o->lengths, "series lengths, separated by commas")->delimiter(',')->capture_default_str();
    cmd->add_option("--pairs", o->pairs, "distances per run (a queries x targets block)")->capture_default_str();
    cmd->add_option("--series", o->series, "time all pairs of this many series instead of --pairs");
    cmd->add_option("--repeats", o->repeats, "timed runs per kernel and length (median reported)")->capture_default_str();
    cmd->add_option("--threads", o->threads, "CPU threads (0: all cores)");
    cmd->add_option("--json", o->json, "also write the rows as JSON to this file");
    cmd->add_flag("!--no-device-timing", o->deviceTiming, "skip the device-only timing of GPU kernels");
    cmd->add_flag("!--no-engine-timing", o->engineTiming, "skip the engine-path timing (transfers included)");
    cmd->add_option("--queries", o->queries, "sdtw: number of queries")->capture_default_str();
    cmd->add_option("--reference-length", o->referenceLength, "sdtw: length of the reference")->capture_default_str();
    cmd->add_option("--top", o->top, "sdtw: matches per query")->capture_default_str();
    cmd->add_option("--devices", o->devices, "sdtw: the GPUs the device rows search on: all, or indices such as 0,1")
        ->option_text("all|0,1,...")
        ->capture_default_str();
    cmd->require_subcommand(0, 1);
    addBenchGpuCommand(*cmd);
    addBenchMultiCommand(*cmd);
    addBenchCpuCommand(*cmd);
    addBenchWindowCommand(*cmd);
    addBenchStudyCommand(*cmd);
    addBenchLongRecordingCommand(*cmd);
    addBenchSpectrogramCommand(*cmd);
    addBenchRescoreCommand(*cmd);
    addBenchCrossvalCommand(*cmd);
    // CLI11 runs this after a subcommand's own callback: the table is plain `bench` only.
    cmd->callback([o, cmd] {
        if (cmd->get_subcommands().empty()) runBenchCommand(*o);
    });
}

}  // namespace warplab::cli
