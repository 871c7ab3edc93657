// Engine-path matrix benchmark (see engine_matrix_bench.h).
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"
#include "compute/gpu/bench/engine_matrix_bench.h"
#include "compute/gpu/runtime/tile_streams.h"
#include "compute/registry/registry.h"

namespace warplab::compute::gpu {

namespace {

using K = EngineError::Kind;

SeriesSet makeSet(std::mt19937_64& rng, std::size_t count, std::size_t length, std::size_t stride) {
    std::normal_distribution<float> step(0.f, 1.f);
    auto walk = [&](std::size_t n) {
        std::vector<float> v(n);
        float x = 0;
        for (auto& s : v) { x = 0.9f * x + step(rng); s = x; }
        return v;
    };
    SeriesSet set(count);
    if (stride > 0) {
        const std::vector<float> channel = walk((count - 1) * stride + length);
        for (std::size_t j = 0; j < count; ++j)
            set[j] = Series(std::vector<float>(channel.begin() + std::ptrdiff_t(j * stride),
                                               channel.begin() + std::ptrdiff_t(j * stride + length)));
    } else {
        for (auto& s : set) s = Series(walk(length));
    }
    return set;
}

double relErr(double got, double ref) {
    if (std::isinf(ref) && std::isinf(got)) return 0;
    if (!std::isfinite(got)) return INFINITY;
    return std::fabs(got - ref) / std::max(1.0, std::fabs(ref));
}

}  // namespace

BenchRow runEngineMatrixBench(const std::string& kernelName, const Params& params, const EngineMatrixShape& shape,
                              int tileStreams, int repeats, std::uint64_t seed) {
    Kernel* kernel = KernelRegistry::instance().find(kernelName);
    if (!kernel) throw EngineError(K::BadParameter, "kernels", "no kernel named '" + kernelName + "'");
    if (shape.rows == 0 || shape.length == 0 || (shape.cols == 0 && shape.rows < 2))
        throw EngineError(K::BadParameter, "engine-rows", "needs at least one pair");
    const bool cpu = kernel->backend() == Backend::Cpu;
    const bool symmetric = shape.cols == 0 && isSymmetric(params.metric);
    const std::uint64_t cellsPerPair = dpCells(params.metric, shape.length, shape.length, params.band);
    BenchRow row;
    row.metric = std::string(metricName(params.metric));
    row.length = shape.length;
    row.band = params.metric == Metric::Cdtw ? params.band : 0;
    row.kernel = kernelName + (cpu ? "@engine" : "@engine-tile-streams" + std::to_string(tileStreams));
    if (std::string why = kernel->unavailableReason(); !why.empty()) {
        row.note = why;
        return row;
    }
    // The CPU does the same shape on fewer series (about 5e9 cells, one run): its rate is
    // what matters, not its time on the whole matrix.
    std::size_t nRows = shape.rows, nCols = shape.cols;
    if (cpu) {
        if (shape.cols == 0)
            nRows = std::clamp<std::size_t>(std::size_t(std::sqrt(1e10 / double(cellsPerPair))), 2, shape.rows);
        else
            nCols = std::clamp<std::size_t>(std::size_t(5e9 / (double(cellsPerPair) * double(nRows))), 1, shape.cols);
        repeats = 1;
    }
    std::mt19937_64 rng(seed + shape.length);
    const SeriesSet rows = makeSet(rng, nRows, shape.length, shape.stride);
    const SeriesSet cols = nCols ? makeSet(rng, nCols, shape.length, shape.stride) : SeriesSet{};
    const SeriesSet* targets = nCols ? &cols : nullptr;
    const std::size_t width = nCols ? nCols : nRows;
    row.pairs = symmetric ? nRows * (nRows - 1) / 2 : nRows * width;

    // The sink keeps the matrix as a caller would (the pattern path copies rows the same way).
    std::vector<double> result(nRows * width);
    auto sink = [&](const Tile& t, const double* v) {
        for (std::size_t r = 0; r < t.rows(); ++r)
            std::copy(v + r * t.cols(), v + (r + 1) * t.cols(), result.begin() + std::ptrdiff_t((t.rowBegin + r) * width + t.colBegin));
    };
    RunOptions o;
    o.kernel = kernelName;
    const int before = tileStreamLimit();
    setTileStreamLimit(tileStreams);
    std::vector<double> times;
    try {
        for (int rep = cpu ? 0 : -1; rep < repeats; ++rep) {  // rep -1: warm-up (the tile streams' buffers)
            const auto t0 = std::chrono::steady_clock::now();
            Engine::distanceMatrixStreamed(rows, targets, params, o, sink);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (rep >= 0) times.push_back(s);
        }
    } catch (...) {
        setTileStreamLimit(before);
        throw;
    }
    setTileStreamLimit(before);
    std::sort(times.begin(), times.end());
    row.median_s = times[times.size() / 2];
    row.cells_per_s = double(cellsPerPair) * double(row.pairs) / row.median_s;
    row.distances_per_s = double(row.pairs) / row.median_s;
    std::mt19937_64 pick(seed);
    const Params raw = [&] { Params p = params; p.sqrt = false; return p; }();
    for (int k = 0; k < 64; ++k) {
        const std::size_t r = pick() % nRows, c = pick() % width;
        const Series& y = nCols ? cols[c] : rows[c];
        double want = reference::rawDistance(rows[r], y, raw);
        if (params.sqrt) want = std::sqrt(want);
        row.max_rel_error = std::max(row.max_rel_error, relErr(result[r * width + c], want));
    }
    row.note = "engine wall time (packing, transfers, kernels, sink), " +
               std::string(symmetric ? "all pairs of " + std::to_string(nRows)
                                     : std::to_string(nRows) + " x " + std::to_string(width)) +
               (shape.stride ? ", windows of one channel at stride " + std::to_string(shape.stride) : "") +
               (cpu ? ", all cores, one run on a subset" : ", " + std::to_string(tileStreams) + " tile stream(s), median of " + std::to_string(times.size())) +
               "; error on 64 sampled cells";
    return row;
}

}  // namespace warplab::compute::gpu
