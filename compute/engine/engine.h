// The engine's front door: what the CLI, the GUI's job runner and the pattern pipeline call.
// It validates inputs, z-normalises, picks a backend and kernel, splits work into tiles, runs
// them on all cores or on a GPU, reports progress and honours cancellation between tiles.
#pragma once
#include <functional>
#include <vector>

#include "compute/core/device_batch.h"
#include "compute/core/error.h"
#include "compute/core/job.h"
#include "compute/core/params.h"
#include "compute/core/results.h"
#include "compute/core/series.h"
#include "compute/core/tile.h"
#include "compute/cpu/window_search.h"
#include "compute/registry/kernel.h"

namespace warplab::compute {

// Receives finished tiles (raw values after --sqrt, tile.rows() x tile.cols(), row-major) so
// that a matrix larger than memory can stream to a writer. Called from one thread at a time,
// unless the call says SinkCalls::Concurrent.
using TileSink = std::function<void(const Tile& tile, const double* values)>;
// Concurrent: the sink is called from the threads that finished the tiles, several at once
// (never twice for one tile), e.g. a writer that copies each tile into a mapped file; the
// devices then never wait for one thread's writes.
enum class SinkCalls { OneAtATime, Concurrent };

class Engine {
public:
    // queries x targets; with `targets == nullptr`, all pairs of `queries` (each pair once,
    // mirrored). Throws EngineError (BadInput, BadParameter, Device, Cancelled).
    static DistanceMatrix distanceMatrix(const SeriesSet& queries, const SeriesSet* targets,
                                         const Params& params, const RunOptions& options);

    // Streaming form: tiles go to `sink` and no full matrix is kept.
    static void distanceMatrixStreamed(const SeriesSet& queries, const SeriesSet* targets,
                                       const Params& params, const RunOptions& options,
                                       const TileSink& sink, SinkCalls calls = SinkCalls::OneAtATime);

    // One pair by the scalar reference, with the warping path and, when asked, the full
    // accumulated-cost matrix (dtw, cdtw, softdtw, twed, euclidean). Like every job it checks
    // options.cancel (after every matrix row: EngineError Cancelled) and reports
    // options.progress (rows done, at most every 40 ms, and 1 at the end); backend, kernel and
    // threads are not consulted (the path is the reference's, on the calling thread).
    static Alignment align(const Series& x, const Series& y, const Params& params, bool withMatrix,
                           const RunOptions& options = {});

    // Top-k subsequence matches of `query` in `reference` (METRICS.md sdtw, params.topk).
    static std::vector<Match> search(const Series& query, const Series& reference,
                                     const Params& params, const RunOptions& options);

    // Top-k z-normalised window matches of `query` in `reference` (docs/SEARCH.md, the UCR
    // Suite's problem): params.band (Sakoe-Chiba w), params.topk, params.sqrt; params.cost
    // must be sq (the lower bounds are stated for it); params.znorm and params.metric are not
    // consulted (both series are z-normalised per window by definition). Univariate only.
    // options.kernel "cpu.reference" = brute force; otherwise the pruned CPU path on all cores
    // (or options.threads), or the GPU kernel "cuda.window" under backend cuda / kernel
    // cuda.window when built with a GPU. scope: the stretch [begin, end) of starts searched,
    // in global indices, and starts never reported (self-exclusion). stats (may be null):
    // windows removed per pruning stage.
    static std::vector<Match> windowSearch(const Series& query, const Series& reference,
                                           const Params& params, const RunOptions& options,
                                           const SearchScope& scope = {}, WindowSearchStats* stats = nullptr);
    // The window search of scope's stretch of starts before the top-k selection: every window
    // that may be among the top-k of any superset of the stretch (raw costs; window_search.h),
    // on the CPU, or on the GPU where options name one (cuda.window: window_gpu.h). A
    // distributed search concatenates the stretches' candidates and selects once with
    // selectWindowTopK, which gives windowSearch's matches bit for bit. Same checks.
    static std::vector<WindowCandidate> windowCandidates(const Series& query, const Series& reference,
                                                         const Params& params, const RunOptions& options,
                                                         const SearchScope& scope = {},
                                                         WindowSearchStats* stats = nullptr);

    // Subsequence search with a scope: scope.excludedEnds are end columns never reported
    // (self-exclusion: they are masked before the top-k selection, so the rest is exactly
    // the METRICS.md greedy on the remaining ends), scope.precision picks the GPU's half2
    // path (ends chosen on a half-precision row, each reported match rescored in fp32).
    static std::vector<Match> search(const Series& query, const Series& reference, const Params& params,
                                     const RunOptions& options, const SearchScope& scope);

    // One distance by the scalar reference (after znorm and sqrt as asked).
    static double distance(const Series& x, const Series& y, const Params& params);

    // Gradient of soft-DTW(x, y) with respect to x (x.length * x.dims values, sample-major),
    // by Cuturi & Blondel's backward recursion. With respect to the raw x, so params.znorm
    // and params.sqrt are refused (BadParameter naming them); params.metric is not consulted.
    static std::vector<double> softDtwGradient(const Series& x, const Series& y, const Params& params);

    // Soft-DTW values and gradients with respect to x of a batch already in GPU memory, read and
    // written in place on the batch's stream (the Python module's CUDA tensors). Throws EngineError
    // (Device: no GPU library or device; BadInput: sizes), as softDtwGradient for the parameters.
    static void softDtwGradientOnDevice(const SoftDtwDeviceBatch& batch, const Params& params);

    // The kernel that `options` selects for `metric` (explicit name, else the best available
    // for the backend). Throws EngineError naming "kernel" or "backend" when none fits.
    static Kernel& resolveKernel(Metric metric, const RunOptions& options);
};

}  // namespace warplab::compute
