// `warplab-cli bench cpu METRIC SERIES LENGTH [BAND] [KERNELS] [REPEATS] [THREADS] [REFPAIRS]`:
// the CPU kernels on all pairs of SERIES random series of LENGTH (compute::runBench, as plain
// `bench --series` times them), one line per kernel: kernel, metric, length, pairs, band,
// median seconds, G cells/s, distances/s, max rel error; then the process's CPU time. On a
// shared machine wall time measures the other users too, while cells per CPU-second measures
// the kernel (its reference subset included): the CPU figures are given in both.
#include <sys/resource.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "compute/bench/bench.h"
#include "compute/core/error.h"

namespace warplab::cli {

namespace {

using compute::EngineError;

struct CpuBenchOptions {
    std::string metric;
    std::size_t series = 0, length = 0;
    int band = 0;
    std::string kernels;  // empty: every CPU kernel of the metric
    int repeats = 5, threads = 0;
    std::size_t referencePairs = 256;
};

double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

void runCpuBench(const CpuBenchOptions& o) {
    using namespace compute;
    BenchConfig cfg;
    const auto metric = parseMetric(o.metric);
    if (!metric) throw EngineError(EngineError::Kind::BadParameter, "metric", "unknown: " + o.metric);
    cfg.params.metric = *metric;
    cfg.series = o.series;
    cfg.lengths = {o.length};
    cfg.params.band = o.band;
    std::stringstream ss(o.kernels);
    for (std::string k; std::getline(ss, k, ',');) cfg.kernels.push_back(k);
    cfg.repeats = o.repeats;
    cfg.threads = o.threads;
    cfg.maxReferencePairs = o.referencePairs;
    const double cpu0 = processCpuSeconds();
    const BenchTable rows = runBench(cfg);
    const double cpu = processCpuSeconds() - cpu0;
    double cells = 0;
    for (const BenchRow& r : rows) {
        std::printf("%-14s %-9s len=%zu pairs=%zu band=%d median=%.4fs %.3f Gcells/s %.1f dist/s maxrel=%.3g  %s\n",
                    r.kernel.c_str(), r.metric.c_str(), r.length, r.pairs, r.band, r.median_s, r.cells_per_s / 1e9,
                    r.distances_per_s, r.max_rel_error, r.note.c_str());
        if (r.distances_per_s > 0) cells += double(cfg.repeats) * double(r.pairs) * r.cells_per_s / r.distances_per_s;
    }
    std::printf("process CPU time %.2f s for %.3g timed cells: %.3f Gcells per CPU-second\n", cpu, cells,
                cpu > 0 ? cells / cpu / 1e9 : 0.0);
    std::fflush(stdout);
}

}  // namespace

void addBenchCpuCommand(CLI::App& bench) {
    auto o = std::make_shared<CpuBenchOptions>();
    auto* cmd = bench.add_subcommand("cpu", "time the CPU kernels on all pairs of random series, with cells per CPU-second");
    cmd->add_option("METRIC", o->metric, "euclidean, dtw, cdtw, sdtw, softdtw or twed")->required();
    cmd->add_option("SERIES", o->series, "all pairs of this many series")->required();
    cmd->add_option("LENGTH", o->length, "samples per series")->required();
    cmd->add_option("BAND", o->band, "cdtw half-width")->capture_default_str();
    cmd->add_option("KERNELS", o->kernels, "registry names separated by commas (default: every kernel of the metric)");
    cmd->add_option("REPEATS", o->repeats, "timed runs per kernel (median reported)")->capture_default_str();
    cmd->add_option("THREADS", o->threads, "CPU threads (0: all cores)")->capture_default_str();
    cmd->add_option("REFPAIRS", o->referencePairs, "pairs the scalar reference checks at most")->capture_default_str();
    cmd->callback([o] { runCpuBench(*o); });
}

}  // namespace warplab::cli
