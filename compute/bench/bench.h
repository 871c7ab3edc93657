// The kernel benchmark behind `warplab-cli bench` and the GUI's kernel-comparison view: random
// inputs from a fixed seed, each kernel run several times through the engine, the median
// time, throughput, and the largest relative error against cpu.reference on the same inputs.
// runBenchmark is the one way in for entry points: it adds the GPU rows (kernels timed on the
// device alone, the subsequence search) and names the device, so that no entry point reaches
// into compute/gpu/.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compute/bench/chip_ceiling.h"
#include "compute/bench/energy_meter.h"
#include "compute/core/job.h"
#include "compute/core/params.h"

namespace warplab::compute {

struct BenchConfig {
    std::vector<std::string> kernels;        // registry names; empty or {"all"} = every kernel for the metric
    Params params;                           // metric and its options (band, gamma, ...)
    std::vector<std::size_t> lengths = {128, 512, 1024};  // series length per run
    // The work per length: with `series` > 0 the symmetric all-pairs matrix of that many
    // series (pairs = N(N-1)/2); else a queries x targets block of about `pairs` distances.
    std::size_t pairs = 4096;
    std::size_t series = 0;
    int repeats = 5;                         // timed runs per kernel and length (median reported)
    std::uint64_t seed = 42;                 // random inputs are the same for every kernel
    int threads = 0;                         // CPU threads; 0 = all cores
    // The reference is run on at most this many pairs (a deterministic subset) when the full
    // set would take too long; the row's note says so.
    std::size_t maxReferencePairs = 256;
    ProgressFn progress;                     // fraction of the whole benchmark
    const CancelToken* cancel = nullptr;
    // runBenchmark only:
    bool engineTiming = true;                // the engine-path rows (runBench; transfers included)
    bool deviceTiming = true;                // GPU kernels also timed on the device alone ("<name>@device")
    // sdtw: `searchQueries` random queries of each length in a reference of `referenceLength`, top `topk`.
    int searchQueries = 512;
    int referenceLength = 100000;
    int topk = 5;
    std::vector<int> sdtwDevices;            // sdtw device rows: the GPUs searched on (empty: all)
    // The boards the engine rows' GPU kernels run on, for their energy; runBenchmark fills it
    // (every device the engine uses), so runBench alone gives GPU rows the reason instead.
    EnergyBoards gpuBoards;
};

struct BenchRow {
    std::string kernel;          // registry name
    std::string metric;          // metricName()
    std::size_t length = 0;      // samples per series
    std::size_t pairs = 0;       // distances computed per run (symmetric: N(N-1)/2)
    int band = 0;                // cdtw half-width (0 for other metrics)
    double median_s = 0;         // median wall time of one run
    double cells_per_s = 0;      // DP cells per second (cdtw: cells inside the band only)
    double distances_per_s = 0;  // pairs per second
    double max_rel_error = 0;    // max |k - r| / max(|r|, 1e-300) vs cpu.reference
    std::string note;            // why a kernel did not run, or how the error was measured
    // GPU board energy over the timed runs (energy_meter.h): joules, seconds and distances of
    // the window, or energy.note saying why there is no figure (a CPU kernel, no NVML, ...).
    EnergyFigure energy{0, 0, 0, "not measured for this row"};
};

using BenchTable = std::vector<BenchRow>;

// Runs the benchmark. Kernels that cannot run (no device, metric not supported) give a row
// whose note says why, not an exception. Throws EngineError(BadParameter) for a bad config
// and EngineError(Cancelled) when `cancel` fires.
BenchTable runBench(const BenchConfig& config);

struct BenchReport {
    std::string device;                  // the GPU's name, or why there is none ("no GPU backend built", ...)
    BenchTable rows;
    std::optional<ChipCeiling> ceiling;  // of that GPU for the metric, where known
};

// Why the GPU rows cannot run here ("" when a GPU is available): the Kernels view greys the
// device designs with it.
std::string benchDeviceUnavailable();

// Everything `warplab-cli bench` and the kernel-comparison view show. For every metric but
// sdtw: runBench's rows (with config.engineTiming) and, where a GPU is present, its kernels
// timed on the device alone with inputs resident (with config.deviceTiming; rows named
// "<kernel>@device", the figure comparable with published kernels). For sdtw: per length, the
// subsequence-search designs named in config.kernels (sdtw_designs.h; all or none named: the
// chosen GPU pass and both CPU paths), a device design that cannot run giving a row that says
// why; an unknown name is BadParameter "kernels". Progress and cancel as runBench.
BenchReport runBenchmark(const BenchConfig& config);

}  // namespace warplab::compute
