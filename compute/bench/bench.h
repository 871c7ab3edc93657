// The kernel benchmark behind `warplab-cli bench` and the GUI's kernel-comparison view: random
// inputs from a fixed seed, each kernel run several times through the engine, the median
// time, throughput, and the largest relative error against cpu.reference on the same inputs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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
};

using BenchTable = std::vector<BenchRow>;

// Runs the benchmark. Kernels that cannot run (no device, metric not supported) give a row
// whose note says why, not an exception. Throws EngineError(BadParameter) for a bad config
// and EngineError(Cancelled) when `cancel` fires.
BenchTable runBench(const BenchConfig& config);

}  // namespace warplab::compute
