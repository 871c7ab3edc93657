// A distance matrix through the engine on a GPU kernel, timed end to end (packing, transfers,
// kernels, downloads, the sink): what a caller of Engine::distanceMatrixStreamed gets, e.g. the
// seizure-pattern workload (patterns x epochs cut from one channel). Rows for the runner's
// tile streams (tile_streams.h) and for one, so the overlap can be compared on one binary.
#pragma once
#include <cstdint>
#include <string>

#include "compute/bench/bench.h"

namespace warplab::compute::gpu {

struct EngineMatrixShape {
    std::size_t rows = 415;     // queries
    std::size_t cols = 65536;   // targets; 0 = all pairs of the rows (symmetric)
    std::size_t length = 1024;  // samples per series
    // > 0: the series are windows of one random channel at this stride (as the pattern
    // workload cuts epochs), else independent random walks.
    std::size_t stride = 256;
};

// `kernel` through the engine, `tileStreams` tiles in flight (1..kMaxTileStreams), median wall time of
// `repeats` runs after one warm-up; error on 64 sampled cells against the reference. A CPU
// kernel (backend Cpu) runs on all cores on a column subset of about 5e9 cells.
BenchRow runEngineMatrixBench(const std::string& kernel, const Params& params, const EngineMatrixShape& shape,
                              int tileStreams, int repeats, std::uint64_t seed);

}  // namespace warplab::compute::gpu
