// Engine::distanceMatrix: validates and prepares the sets, cuts the matrix into tiles, runs
// them on a oneTBB arena (CPU kernels: all cores; GPU kernels: as many tiles at once as the
// kernel has tile streams, so that transfers overlap kernels), reports progress, checks cancellation
// between tiles and streams every finished tile to the sink.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <mutex>
#include <new>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "compute/core/preprocess.h"
#include "compute/engine/engine.h"
#include "compute/engine/engine_prepare.h"
#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/device_set.h"
#endif

namespace warplab::compute {

using K = EngineError::Kind;

namespace {

// Bytes the kernel says a new allocation can take without swapping (MemAvailable); 0 if unknown.
std::uint64_t availableHostBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    while (meminfo >> key >> kib) {
        if (key == "MemAvailable:") return kib * 1024;
        meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return 0;
}

std::string gibText(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1ull << 30));
    return text;
}

std::size_t upperTileCount(std::size_t n, std::size_t side) {
    const std::size_t t = (n + side - 1) / side;
    return t * (t + 1) / 2;
}

// Forwards progress at most every 40 ms (about 25 updates a second: smooth to the eye, cheap to draw), always the end.
class ProgressThrottle {
public:
    ProgressThrottle(const ProgressFn& fn, double total) : fn_(fn), total_(total > 0 ? total : 1) {}
    void add(double done) {
        if (!fn_) return;
        std::lock_guard lock(mutex_);
        done_ += done;
        auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::milliseconds(40)) return;
        last_ = now;
        fn_(std::min(1.0, done_ / total_));
    }
    void finish() {
        if (fn_) fn_(1.0);
    }

private:
    const ProgressFn& fn_;
    double total_, done_ = 0;
    std::mutex mutex_;
    std::chrono::steady_clock::time_point last_{};
};

// Share `index` of `count`: the tiles whose middle pair, counted in the engine's tile order,
// falls in [index/count, (index+1)/count) of all pairs. Contiguous, so a share is a run of row
// blocks; balanced by pairs, so diagonal tiles (half the pairs) count half.
template <typename PairsOf>
std::vector<Tile> shareOfTiles(const std::vector<Tile>& tiles, const PairsOf& pairsOf, int index, int count) {
    double total = 0;
    for (const Tile& t : tiles) total += pairsOf(t);
    std::vector<Tile> mine;
    double before = 0;
    for (const Tile& t : tiles) {
        const double p = pairsOf(t);
        const int owner = std::min(count - 1, int((before + p / 2) / total * count));
        if (owner == index) mine.push_back(t);
        before += p;
    }
    return mine;
}

}  // namespace

void Engine::distanceMatrixStreamed(const SeriesSet& queries, const SeriesSet* targets,
                                    const Params& params, const RunOptions& options,
                                    const TileSink& sink, SinkCalls calls) {
    validate(params);
    SeriesSet qStore, tStore;
    const SeriesSet& rows = detail::prepareSet(queries, "queries", params, qStore);
    const SeriesSet& cols = targets ? detail::prepareSet(*targets, "targets", params, tStore) : rows;
    const std::string colName = targets ? "targets" : "queries";
    for (std::size_t i = 1; i < rows.size(); ++i)
        checkPair(rows[0], "queries[0]", rows[i], "queries[" + std::to_string(i) + "]", params.metric);
    for (std::size_t i = 0; targets && i < cols.size(); ++i)
        checkPair(rows[0], "queries[0]", cols[i], colName + "[" + std::to_string(i) + "]", params.metric);

    Kernel& kernel = resolveKernel(params.metric, options);
    // GPU kernels spread their tiles over every device asked for, each with its own tile streams.
    std::vector<int> devices;
#if WARPLAB_HAVE_GPU
    if (kernel.backend() == Backend::Cuda || kernel.backend() == Backend::Hip) devices = gpu::resolveDevices(options.devices);
#endif
    const bool symmetric = !targets && isSymmetric(params.metric);
    const int threads = options.threads > 0 ? options.threads : tbb::this_task_arena::max_concurrency();
    if (options.shareCount < 1 || options.shareIndex < 0 || options.shareIndex >= options.shareCount)
        throw EngineError(K::Internal, "share", "share " + std::to_string(options.shareIndex) + " of " +
                                                    std::to_string(options.shareCount) + " does not exist");
    // Split over processes, every process must cut the same tiles: plan them for a fixed
    // number of threads per share, not for this host's cores.
    const int planThreads = options.shareCount > 1 ? 16 * options.shareCount : threads;

    // Symmetric: square tiles on the upper triangle, so each tile is either on the diagonal
    // (mirrored inside itself) or wholly above it (sent again transposed). Smaller tiles
    // until there are enough to keep every thread busy.
    std::vector<Tile> tiles;
    if (symmetric) {
        std::size_t side = std::max(kernel.preferredTileRows(), kernel.preferredTileCols());
        const std::size_t minSide = std::max<std::size_t>(1, std::min(kernel.preferredTileRows(), kernel.preferredTileCols()));
        while (side > minSide && upperTileCount(rows.size(), side) < std::size_t(8 * planThreads)) side /= 2;
        tiles = makeTiles(rows.size(), rows.size(), side, side, true);
    } else {
        tiles = makeTiles(rows.size(), cols.size(), kernel.preferredTileRows(), kernel.preferredTileCols(), false);
    }

    auto pairsOf = [&](const Tile& t) {
        return (symmetric && t.rowBegin == t.colBegin) ? double(t.rows()) * double(t.rows() + 1) / 2 : double(t.cells());
    };
    if (options.shareCount > 1) tiles = shareOfTiles(tiles, pairsOf, options.shareIndex, options.shareCount);
    double total = 0;
    for (const Tile& t : tiles) total += pairsOf(t);
    ProgressThrottle progress(options.progress, total);
    std::atomic<bool> stopped{false};
    std::mutex sinkMutex;
    auto cancelled = [&] { return options.cancel && options.cancel->cancelled(); };
    // The sets stay as they are until this call returns: kernels may keep what they packed
    // from them between tiles under this id, and no other call shares it.
    static std::atomic<std::uint64_t> lastInputsId{0};
    const std::uint64_t inputsId = ++lastInputsId;
    // GPU tiles: one output buffer per worker, reused (a fresh 8 MB vector per tile costs its
    // page faults). Not for CPU kernels, whose small tiles could nest in a stealing thread.
    const bool reuseOut = !kernel.threadParallel();
    tbb::enumerable_thread_specific<std::vector<double>> outBuffers;

    auto runTile = [&](const Tile& tile) {
        if (stopped.load(std::memory_order_relaxed)) return;
        if (cancelled()) { stopped = true; return; }
        std::vector<double> fresh;
        std::vector<double>& out = reuseOut ? outBuffers.local() : fresh;
        out.assign(tile.cells(), 0.0);
        TileTask task{rows, cols, params, tile, symmetric, out.data(), options.cancel};
        task.inputsId = inputsId;
        task.devices = &devices;
        kernel.computeTile(task);
        if (cancelled()) { stopped = true; return; }  // the tile may be incomplete
        const std::size_t w = tile.cols();
        if (symmetric && tile.rowBegin == tile.colBegin)
            for (std::size_t r = 1; r < tile.rows(); ++r)
                for (std::size_t c = 0; c < r; ++c) out[r * w + c] = out[c * w + r];
        if (params.sqrt)
            for (double& v : out) v = detail::finish(v, params);
        {
            std::unique_lock lock(sinkMutex, std::defer_lock);
            if (calls == SinkCalls::OneAtATime) lock.lock();
            sink(tile, out.data());
            if (symmetric && tile.rowBegin != tile.colBegin) {
                Tile mirror{tile.colBegin, tile.colEnd, tile.rowBegin, tile.rowEnd};
                std::vector<double> tr(out.size());
                for (std::size_t r = 0; r < tile.rows(); ++r)
                    for (std::size_t c = 0; c < w; ++c) tr[c * tile.rows() + r] = out[r * w + c];
                sink(mirror, tr.data());
            }
        }
        progress.add(pairsOf(tile));
    };

    const int workers = kernel.threadParallel()
                            ? threads
                            : std::max(1, kernel.tilesInFlight()) * std::max<int>(1, int(devices.size()));
    if (kernel.threadParallel() || (workers > 1 && tiles.size() > 1)) {
        tbb::task_arena arena(workers);
        arena.execute([&] {
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tiles.size(), 1),
                              [&](const tbb::blocked_range<std::size_t>& range) {
                                  for (std::size_t i = range.begin(); i != range.end(); ++i) runTile(tiles[i]);
                              });
        });
    } else {
        for (const Tile& t : tiles) runTile(t);
    }
    if (stopped || cancelled()) throw EngineError(K::Cancelled, "", "cancelled by the user");
    progress.finish();
}

DistanceMatrix Engine::distanceMatrix(const SeriesSet& queries, const SeriesSet* targets,
                                      const Params& params, const RunOptions& options) {
    DistanceMatrix dm;
    dm.rows = queries.size();
    dm.cols = targets ? targets->size() : queries.size();
    // Refused before it starts, not killed by the system halfway: the whole matrix is held.
    const double need = double(dm.rows) * double(dm.cols) * sizeof(double);
    if (const std::uint64_t avail = availableHostBytes(); avail > 0 && need > double(avail))
        throw EngineError(K::BadInput, "matrix",
                          "a " + std::to_string(dm.rows) + " x " + std::to_string(dm.cols) + " matrix needs " +
                              gibText(need) + ", more than the " + gibText(double(avail)) +
                              " of free host memory; stream it to a file instead (.npy or .h5)");
    dm.symmetric = !targets && isSymmetric(params.metric);
    dm.params = params;
    for (const auto& s : queries) dm.rowNames.push_back(s.name);
    for (const auto& s : targets ? *targets : queries) dm.colNames.push_back(s.name);
    try {
        dm.values.assign(dm.rows * dm.cols, 0.0);
    } catch (const std::bad_alloc&) {
        throw EngineError(K::Internal, "matrix",
                          "no memory for a " + std::to_string(dm.rows) + " x " + std::to_string(dm.cols) +
                              " matrix; stream it to a file instead");
    }
    distanceMatrixStreamed(queries, targets, params, options, [&](const Tile& t, const double* v) {
        for (std::size_t r = 0; r < t.rows(); ++r)
            std::copy(v + r * t.cols(), v + (r + 1) * t.cols(), dm.values.begin() + (t.rowBegin + r) * dm.cols + t.colBegin);
    });
    return dm;
}

}  // namespace warplab::compute
