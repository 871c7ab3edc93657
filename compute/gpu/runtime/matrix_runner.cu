// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"

#include <cstring>

#include "compute/gpu/kernels/antidiagonal/antidiagonal.h"
#include "compute/gpu/kernels/band/band_cdtw.h"
#include "compute/gpu/runtime/device_set.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/matrix_runner.h"
#include "compute/gpu/kernels/shuffle/shuffle_dpx.h"
#include "compute/gpu/kernels/shuffle/shuffle_dtw.h"
#include "compute/gpu/designs/softdtw_designs.h"
#include "compute/gpu/kernels/tiled/tiled.h"
#include "compute/gpu/kernels/twed/twed_warp.h"

namespace warplab::compute::gpu {

void MatrixRunner::launch(Metric metric, const Params& params, const PackedDevice& rows, const PackedDevice& cols,
                          const PairsView& pairs, gpuStream_t s) {
    launch(metric, params, rows, cols, pairs, s, benchScratchBytes_, benchScratchFloats_);
}

void MatrixRunner::launch(Metric metric, const Params& params, const PackedDevice& rows, const PackedDevice& cols,
                          const PairsView& pairs, gpuStream_t s, DeviceBuffer<unsigned char>& scratchBytes,
                          DeviceBuffer<float>& scratchFloats) {
    // cuTimeWarp's designs never hand work to another family: they are there to be compared.
    switch (design_) {
        case Design::SoftNaive: return launchSoftDtwDesign(SoftDtwDesign::Naive, metric, rows, cols, pairs, params, scratchBytes, s);
        case Design::SoftDiagonal: return launchSoftDtwDesign(SoftDtwDesign::Diagonal, metric, rows, cols, pairs, params, scratchBytes, s);
        case Design::SoftStencil: return launchSoftDtwDesign(SoftDtwDesign::Stencil, metric, rows, cols, pairs, params, scratchBytes, s);
        case Design::SoftBanded: return launchSoftDtwDesign(SoftDtwDesign::Banded, metric, rows, cols, pairs, params, scratchBytes, s);
        default: break;
    }
    const bool wave = design_ == Design::ShuffleDpx || design_ == Design::ShuffleWave;
    if (wave && rows.dims == 1 && cols.dims == 1 && (metric == Metric::Dtw || metric == Metric::Cdtw)) {
        launchWaveDtw(rows, cols, pairs, params, scratchFloats, s, design_ == Design::ShuffleDpx);
        return;
    }
    if (design_ == Design::Tiled && tiledApplies(rows, cols, params)) {
        launchTiled(rows, cols, pairs, params, scratchFloats, s);
        return;
    }
    if (design_ == Design::TwedWarp && twedWarpApplies(rows, cols, params)) {
        if (fp64_) launchTwedWarp<double>(rows, cols, pairs, params, s);
        else launchTwedWarp<float>(rows, cols, pairs, params, s);
        return;
    }
    const bool band = design_ == Design::Band || design_ == Design::BandDpx;
    if (band && bandKernelApplies(rows, cols, params)) {
        launchBandCdtw(rows, cols, pairs, params, s, design_ == Design::BandDpx);
        return;
    }
    const bool shuffle = (design_ == Design::Shuffle || band) &&
                         (metric == Metric::Dtw || metric == Metric::Cdtw || metric == Metric::SoftDtw) &&
                         rows.dims == 1 && cols.dims == 1;
    if (shuffle) {
        launchShuffleDtw(rows, cols, pairs, params, scratchFloats, s);
    } else if (fp64_) {
        launchAntidiagonal<double>(metric, rows, cols, pairs, metricArgs<double>(params, rows.dims), scratchBytes, s);
    } else {
        launchAntidiagonal<float>(metric, rows, cols, pairs, metricArgs<float>(params, rows.dims), scratchBytes, s);
    }
}

double MatrixRunner::run(const TileTask& task) {
    using K = EngineError::Kind;
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    TileStreamLease lease(tileStreams_, task.devices);
    try {
        return runOnTileStream(task, lease);
    } catch (const EngineError& e) {
        // A device failure names the device (several may be in use); input errors stay as they are.
        if (e.kind() != K::Device) throw;
        std::string reason = e.what();
        if (!e.field().empty() && reason.rfind(e.field() + ": ", 0) == 0) reason = reason.substr(e.field().size() + 2);
        throw EngineError(K::Device, e.field(), "on " + deviceLabel(lease.device()) + ": " + reason);
    }
}

double MatrixRunner::runOnTileStream(const TileTask& task, TileStreamLease& lease) {
    using K = EngineError::Kind;
    const Metric metric = task.params.metric;
    if (metric == Metric::Sdtw)
        throw EngineError(K::BadParameter, "metric", "sdtw is a search, not a distance matrix");
    const Tile& tile = task.tile;
    TileStream& ts = lease.tileStream();
    // Series the tile stream already holds for this engine call are not packed or uploaded again
    // (a pattern matrix: the same rows in every tile). A diagonal tile of all pairs has the
    // same series on both sides: one upload serves both.
    const PackKey rowKey{&task.rows, tile.rowBegin, tile.rowEnd, task.inputsId};
    const PackKey colKey{&task.cols, tile.colBegin, tile.colEnd, task.inputsId};
    const bool colsAreRows = &task.rows == &task.cols && tile.rowBegin == tile.colBegin && tile.rowEnd == tile.colEnd;
    const bool packRows = !ts.rows.key.matches(rowKey);
    const bool packCols = !colsAreRows && !ts.cols.key.matches(colKey);
    if (packRows) ts.rows.pack(task.rows, tile.rowBegin, tile.rowEnd, "rows");
    if (packCols) ts.cols.pack(task.cols, tile.colBegin, tile.colEnd, "cols");
    const PackedDevice& rd = ts.rows.device;
    const PackedDevice& cd = colsAreRows ? ts.rows.device : ts.cols.device;
    if (rd.dims != cd.dims)
        throw EngineError(K::BadInput, "cols", "channel count differs from the rows");
    if (metric == Metric::Euclidean && (rd.maxLength != rd.minLength || cd.maxLength != cd.minLength ||
                                        rd.maxLength != cd.maxLength))
        throw EngineError(K::BadInput, "length", "euclidean needs series of equal length");

    // Every cell is wanted unless the tile crosses the diagonal of an upper-only matrix. The
    // full pair list depends only on the tile's shape: kept on the device between tiles.
    const std::size_t cells = tile.cells();
    const bool full = !task.upperOnly || tile.colBegin + 1 >= tile.rowEnd;
    const bool reusePairs = full && ts.pairsFull && ts.pairTileRows == tile.rows() && ts.pairTileCols == tile.cols();
    const std::size_t outCount = std::max<std::size_t>(1, cells);
    std::size_t grow = (packRows ? ts.rows.growBytes() : 0) + (packCols ? ts.cols.growBytes() : 0);
    grow += outCount > ts.out.size() ? (outCount - ts.out.size()) * sizeof(double) : 0;
    if (!reusePairs && cells > ts.pairRows.size()) grow += 2 * (cells - ts.pairRows.size()) * sizeof(int);
    lease.admit(grow);

    const gpuStream_t s = ts.stream.get();
    if (packRows) {
        ts.rows.upload(s);
        ts.rows.key = rowKey;
    }
    if (packCols) {
        ts.cols.upload(s);
        ts.cols.key = colKey;
    }
    std::size_t pairCount = cells;
    if (!reusePairs) {
        ts.pairsFull = false;
        ts.pairRows.resize(cells);
        ts.pairCols.resize(cells);
        if (full) {
            fillFullPairs(ts.pairRows.get(), ts.pairCols.get(), int(tile.rows()), int(tile.cols()), s);
            ts.pairsFull = true;
            ts.pairTileRows = tile.rows();
            ts.pairTileCols = tile.cols();
        } else {
            PairList pl = tilePairs(tile, true);
            pairCount = pl.size();
            ts.pairRows.upload(pl.row.data(), pl.size(), s);
            ts.pairCols.upload(pl.col.data(), pl.size(), s);
            // The upload reads the host vectors asynchronously: finish it before they go.
            ts.stream.sync();
        }
    }
    ts.out.resize(outCount);
    check(gpuMemsetAsync(ts.out.get(), 0, cells * sizeof(double), s), "clearing the output");
    Event start, stop;
    start.record(s);
    // Pairs in chunks so that a cancellation is seen within a fraction of a large tile.
    // The band kernel runs one thread per pair: a whole tile per launch keeps its last wave short.
    // The wave kernel keeps its blocks resident and gives each group whole rounds of pairs: a
    // small launch ends with a partly idle last round.
    const bool whole = design_ == Design::Band || design_ == Design::BandDpx || design_ == Design::ShuffleDpx ||
                       design_ == Design::ShuffleWave;
    const int chunk = whole ? (1 << 20) : (1 << 18);
    for (std::size_t p0 = 0; p0 < pairCount; p0 += chunk) {
        if (task.cancel && task.cancel->cancelled()) break;
        const int count = int(std::min<std::size_t>(chunk, pairCount - p0));
        PairsView pv{ts.pairRows.get() + p0, ts.pairCols.get() + p0, count, int(tile.cols()), ts.out.get()};
        launch(metric, task.params, rd, cd, pv, s, ts.scratchBytes, ts.scratchFloats);
    }
    stop.record(s);
    // Through pinned memory: the copy runs at full bus speed and overlaps other tile streams' work.
    ts.hostOut.resize(outCount);
    ts.out.download(ts.hostOut.get(), cells, s);
    ts.stream.sync();
    if (cells) std::memcpy(task.out, ts.hostOut.get(), cells * sizeof(double));
    const double seconds = stop.since(start) / 1000.0;
    lease.finished();
    return seconds;
}

}  // namespace warplab::compute::gpu
