// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/gpu_runtime.h"

#include "compute/gpu/antidiagonal.h"
#include "compute/gpu/band_cdtw.h"
#include "compute/gpu/gpu_device.h"
#include "compute/gpu/matrix_runner.h"
#include "compute/gpu/shuffle_dpx.h"
#include "compute/gpu/shuffle_dtw.h"
#include "compute/gpu/tiled.h"
#include "compute/gpu/twed_warp.h"

namespace warplab::compute::gpu {

void MatrixRunner::launch(Metric metric, const Params& params, const PackedDevice& rows, const PackedDevice& cols,
                          const PairsView& pairs, gpuStream_t s) {
    if (design_ == Design::Tiled && tiledApplies(rows, cols, params)) {
        launchTiled(rows, cols, pairs, params, scratchFloats_, s);
        return;
    }
    const bool wave = design_ == Design::ShuffleDpx || design_ == Design::ShuffleWave;
    if (wave && rows.dims == 1 && cols.dims == 1 && (metric == Metric::Dtw || metric == Metric::Cdtw)) {
        launchWaveDtw(rows, cols, pairs, params, scratchFloats_, s, design_ == Design::ShuffleDpx);
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
        launchShuffleDtw(rows, cols, pairs, params, scratchFloats_, s);
    } else if (fp64_) {
        launchAntidiagonal<double>(metric, rows, cols, pairs, metricArgs<double>(params, rows.dims), scratchBytes_, s);
    } else {
        launchAntidiagonal<float>(metric, rows, cols, pairs, metricArgs<float>(params, rows.dims), scratchBytes_, s);
    }
}

double MatrixRunner::run(const TileTask& task) {
    using K = EngineError::Kind;
    if (!available()) throw EngineError(K::Device, "backend", unavailableReason());
    const Metric metric = task.params.metric;
    if (metric == Metric::Sdtw)
        throw EngineError(K::BadParameter, "metric", "sdtw is a search, not a distance matrix");
    const Tile& tile = task.tile;
    PackedHost rh = packSeries(task.rows, tile.rowBegin, tile.rowEnd, "rows");
    PackedHost ch = packSeries(task.cols, tile.colBegin, tile.colEnd, "cols");
    if (rh.dims != ch.dims)
        throw EngineError(K::BadInput, "cols", "channel count differs from the rows");
    if (metric == Metric::Euclidean && (rh.maxLength != rh.minLength || ch.maxLength != ch.minLength ||
                                        rh.maxLength != ch.maxLength))
        throw EngineError(K::BadInput, "length", "euclidean needs series of equal length");
    std::lock_guard<std::mutex> lock(mutex_);
    Stream stream;
    PackedDevice rd, cd;
    rd.upload(rh, stream.get());
    cd.upload(ch, stream.get());
    const bool reuse = !task.upperOnly && pairsCached_ && pairTileRows_ == tile.rows() && pairTileCols_ == tile.cols();
    std::size_t pairCount = tile.cells();
    if (!reuse) {
        pairsCached_ = false;
        PairList pl = tilePairs(tile, task.upperOnly);
        pairCount = pl.size();
        pairRows_.upload(pl.row.data(), pl.size(), stream.get());
        pairCols_.upload(pl.col.data(), pl.size(), stream.get());
        // The upload reads the host vectors asynchronously: finish it before they go.
        stream.sync();
        pairsCached_ = !task.upperOnly;
        pairTileRows_ = tile.rows();
        pairTileCols_ = tile.cols();
    }
    DeviceBuffer<double> out(std::max<std::size_t>(1, tile.cells()));
    check(gpuMemsetAsync(out.get(), 0, tile.cells() * sizeof(double), stream.get()), "clearing the output");
    Event start, stop;
    start.record(stream.get());
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
        PairsView pv{pairRows_.get() + p0, pairCols_.get() + p0, count, int(tile.cols()), out.get()};
        launch(metric, task.params, rd, cd, pv, stream.get());
    }
    stop.record(stream.get());
    out.download(task.out, tile.cells(), stream.get());
    stream.sync();
    return stop.since(start) / 1000.0;
}

}  // namespace warplab::compute::gpu
