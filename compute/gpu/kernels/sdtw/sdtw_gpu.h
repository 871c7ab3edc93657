// Subsequence DTW on the GPU: many queries against one long reference (METRICS.md sdtw),
// with the z-normaliser fused on the device and the top-k matches (start, end, cost) chosen
// on the device. Engine::search (or a batch caller) can call this when the backend is CUDA.
//
// Fp32: the matches are those of METRICS.md computed in fp32 (ends, costs and starts equal
// the full fp32 DP's; the starts come from start spans seeded with exact checkpoint columns).
// Half2: the last DP row is computed in half precision, two reference segments per lane; the
// top-k ends are chosen on it, then each match's cost and start are recomputed in fp32 over
// the start span of the kHalf2Span(n) columns ending at it. So a half2 match is the best fp32 path
// ending at its end among the paths spanning at most that many columns (all of them in
// practice: 2n columns is twice the query), and its end may differ from the fp32 search's
// where half-precision rounding reorders near-equal costs. Inputs should be z-normalised:
// without --znorm, samples beyond +-32000 are refused (half overflows at 65504).
#pragma once
#include <utility>
#include <vector>

#include "compute/core/params.h"
#include "compute/core/process_group.h"
#include "compute/core/results.h"
#include "compute/core/series.h"

namespace warplab::compute::gpu {

enum class SdtwPrecision { Fp32, Half2 };

// How the search runs; every choice gives the same matches bit for bit.
struct SdtwOptions {
    // The query rows each lane of the pass holds (2, 4, 8, 16 or 32: the seeds' segment width),
    // 0 to let the batch choose. A width whose stripes would not fit one block (2 or 4 for
    // queries beyond 2,048 or 4,096 samples, 32 beyond 8,192) runs at 8 or 16 instead:
    // SdtwTiming::rowsPerLane says which.
    int rowsPerLane = 0;
    // z-normalisation in two launches (the statistics of every series, then one launch over all
    // samples) instead of one block per series doing both: the seeds' batched normaliser.
    bool twoKernelNormaliser = false;
    // Reference columns each lane computes per step of the pass: 2 (two min -> fma chains per
    // lane), 4 or 8 (16 or 32 rows per lane only), 0 to let the batch choose.
    // SdtwTiming::columnsPerStep says which ran.
    int columnsPerStep = 0;
    // fp32: reference stretches each query's pass is cut into, so that one query (or a small
    // batch) fills the chip instead of one block: 0 lets the batch choose (sdtwStretchCount),
    // 1 sweeps every query whole. Each stretch after the first is first swept from a +inf
    // column, then re-swept from the exact column before it until its checkpoints agree
    // (sdtw_stretches.h), so the last row and the checkpoints are the unsplit pass's bit for
    // bit. Half2 always sweeps whole.
    int stretches = 0;
    // The devices (runtime indices) to search on; empty: the calling thread's current device.
    // Several: a batch that fills each device whole (or any half2 search) splits its queries
    // among them; a fp32 batch that does not splits each query's reference stretches (the
    // devices' stretches in order, the re-sweeps seeded across them), its last rows gathered on
    // the first device for the top-k and its start spans' seed checkpoints fetched there. Either
    // way the matches are one device's bit for bit (devices of one model).
    std::vector<int> devices;
    // Re-sweep waves before the stretches not yet exact are swept in order instead (0: 48,
    // negative: none): the bound on a signal whose columns never agree. Tests set it low.
    int maxReseedWaves = 0;
    // Ends never reported (inclusive column ranges: the query's own place, self-exclusion):
    // they leave every top-k round, as METRICS.md's excluded ends do, for every query.
    std::vector<std::pair<std::size_t, std::size_t>> excludedEnds;
    // A search split over processes (mpirun: app/cli/mpi_search.cpp), every one calling with
    // the same inputs: the stretches go to the processes in equal runs, each sweeps its own on
    // its devices; the exact checkpoint column at each process boundary is then handed on,
    // process to process, and each re-sweeps from it until its columns agree (as between
    // devices); the top-k rounds are taken over every process's columns, and process 0 runs
    // the start spans, fetching the seed checkpoints other processes hold. Fp32 only. The matches
    // are one process's bit for bit, returned by process 0 (the others return empty lists).
    // Null, or one process: this process alone.
    const ProcessGroup* processes = nullptr;
    // The caller has already checked that every reference sample is finite (the engine's
    // checkSeries): the search does not scan it again. A 40-hour reference is 147 MB; one scan
    // took 20-35 ms on a 2-core build machine, longer than the device's search of one query.
    bool referenceChecked = false;
};

struct SdtwTiming {
    double kernelSeconds = 0;  // z-normalise + DP + top-k + starts on the device (events)
    double znormSeconds = 0;   // the z-normalisation alone (events; 0 without --znorm)
    double passSeconds = 0;    // the DP pass with its re-sweeps (host clock until done; summed over chunks)
    double topkSeconds = 0;    // the top-k ends, excluded ends masked first (events; summed over chunks)
    double startSeconds = 0;   // the start spans, every round (events, host gaps between rounds included)
    int rowsPerLane = 0;       // rows per lane the pass ran with (the last chunk's)
    int columnsPerStep = 0;    // columns per step the pass ran with (the last chunk's)
    double totalSeconds = 0;   // including packing and transfers
    unsigned long long cells = 0;        // DP cells of the search (sum over queries of n * m)
    unsigned long long startCells = 0;  // DP cells of the start spans (all rounds)
    int startRounds = 0;                // start span launches (fp32: 1 + widenings)
    int startCostMismatches = 0;        // fp32: start span cost != pass cost at the end (a bug if > 0)
    int stretches = 1;                   // reference stretches per query (the last chunk's)
    int devices = 1;                     // devices the search ran on
    bool sweptInOrder = false;           // the re-sweeps gave up and swept the rest in order
    int reseedWaves = 0;                 // re-sweep launches until every stretch was exact
    unsigned long long reseedCells = 0;  // DP cells of the re-sweeps
};

// Columns of the fp32 start span a half2 match is recomputed over (and the overlap of the two
// reference segments): 2n, at least 64.
int sdtwHalf2Span(int queryLength);

// The stretches the fp32 pass cuts each of `count` queries (the longest maxLength samples)
// into over m reference columns when SdtwOptions::stretches is 0: 1 for a batch with 8 warps
// per multiprocessor already, else enough tasks for about 32, none shorter than 16 query
// lengths.
int sdtwStretchCount(int m, int maxLength, int count, int sms);

// Top params.topk matches of each query in `reference`, raw costs (no --sqrt), z-normalised
// per series on the device when params.znorm. Univariate series only. Throws EngineError
// (BadInput for NaN/empty/multichannel input, Device for no device or out of memory).
std::vector<std::vector<Match>> sdtwSearchBatch(const SeriesSet& queries, const Series& reference,
                                                const Params& params, SdtwTiming* timing = nullptr,
                                                SdtwPrecision precision = SdtwPrecision::Fp32,
                                                const SdtwOptions& options = {});

// The last DP row D(n-1, j), j < m, of each query as the search computes it (fp32, or half2
// with its segment semantics), for measuring half2 against fp32. All rows at once.
std::vector<std::vector<float>> sdtwLastRows(const SeriesSet& queries, const Series& reference, const Params& params,
                                             SdtwPrecision precision, const SdtwOptions& options = {});

}  // namespace warplab::compute::gpu
