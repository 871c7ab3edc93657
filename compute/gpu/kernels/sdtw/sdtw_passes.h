// The device passes of the GPU subsequence search (sdtw_gpu.cu orchestrates them):
//  - the fp32 pass: the last DP row D(n-1, j) of every query, cost only, plus checkpoint
//    columns (all rows of D at every kCheckpointEvery-th column) for the start spans;
//  - the half2 pass: the same last row in half precision, two reference segments per lane;
//  - the start pass: fp32 with start tracking over [a, e] for each chosen end e, seeded with
//    the exact column a-1 from a checkpoint (or unseeded), giving the start (and cost) at e.
// Device code: sdtw_pass_kernel.h (the lean pass) and sdtw_start_kernel.h (the lean start pass)
// for queries whose stripes (warps of R rows per lane) fit one block (leanPassFits),
// sdtw_stripes.h for longer ones; both give the same values cell for cell.
#pragma once
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/packed_series.h"

namespace warplab::compute::gpu::sdtw {

// Checkpoints are the columns j with (j + 1) % kCheckpointEvery == 0; checkpoint c holds
// column c * kCheckpointEvery + kCheckpointEvery - 1. Rows of a query of length n are stored
// at index row + pad, pad = roundUp(n, kCheckpointRowAlign) - n, so that every lane's R rows
// are one aligned run (of float4s, or float2s at 2 rows) whatever R (2 to 32) the pass used.
constexpr int kCheckpointEvery = 128;
constexpr int kCheckpointRowAlign = 32;

// One query over the reference columns [a, e]; seed: the checkpoint holding column a - 1, or
// -1 (column a - 1 is +inf: paths start at a or later). A pass task's a is a multiple of
// kCheckpointEvery (its checkpoints are the reference's).
struct Task {
    int query, a, e, seed;
};

struct StripeArgs {
    SetView queries;            // shifted to the chunk's first query: task.query is chunk-relative
    const void* y;              // reference: float (fp32) or __half2 (half2), readable to e + 7
    int m = 0;                  // cost-row stride (the reference length)
    const Task* tasks = nullptr;  // nullptr: task i is query i over [0, last]
    int taskCount = 0;
    int last = 0;               // pass: the last column of the (packed) reference
    int h = 0;                  // half2: segment B's first column
    float* boundary = nullptr;  // per block, boundaryStride floats (costs, then starts)
    long boundaryStride = 0;
    float* costRow = nullptr;   // pass: [query * m + j]
    float* ck = nullptr;        // checkpoints: [(query * ckCols + c) * ckRows + row + pad]
    int ckCols = 0, ckRows = 0;
    // Pass tasks with a seed (a reference stretch re-swept from the exact column before it):
    // the seed checkpoint is read from seedCk (laid out like ck with seedCols columns), or
    // from ck when null. perTaskOut: task i writes its last row to costRow + i * m and its
    // checkpoints to ck from (i * ckCols) * ckRows, counted from its column a, instead of
    // into its query's row at its own columns.
    const float* seedCk = nullptr;
    int seedCols = 0;
    bool perTaskOut = false;
    float* outCost = nullptr;   // start span: per task
    int* outStart = nullptr;
    // Start span (lean): >= 0: only the last n + trackExtra columns of each task's span carry
    // starts, the columns before are costs only with start -1 (sdtw_start_kernel.h); -1: all.
    int trackExtra = -1;
    // Lean pass: every query's length is a multiple of the rows per lane, so its virtual rows
    // above row 0 fill whole lanes (sdtw_pass_kernel.h, WHOLE). Host-side only.
    bool wholeLanes = false;
};

// Rows per lane for a batch: 32, 16 or 8, the widest that still gives the chip enough warps.
int rowsPerLane(const int* lengths, int count, int warpSize, int sms);
// Columns per step of the lean pass at `rows` rows per lane (`asked`: 2, 4, or 0 to choose).
int columnsPerStep(int rows, int asked);
bool leanColumnsSupported(int rows, int cols);
// Rows per lane the passes are built for: 2, 4, 8, 16, 32 (a caller may ask for one: the
// segment-width sweep). stripeKernel takes 8 and 16 only.
bool passRowsSupported(int rows);
// Whether the lean pass (sdtw_pass_kernel.h: one warp per stripe) takes a batch whose longest
// query has maxLength rows at `rows` per lane, and how many stripes (warps) that is.
bool leanPassFits(int maxLength, int rows, int warpSize);
int stripesOf(int maxLength, int rows, int warpSize);
// Warps per block for a batch whose longest query has maxLength rows.
int warpsPerBlock(int maxLength, int rows, int warpSize);

// args.boundary must hold grid blocks of boundaryStride floats; grid blocks of `warps` warps.
// lean: the lean pass (leanPassFits; args.tasks nullptr or unseeded; warps = its stripes),
// else stripeKernel (rows 8 or 16; the only one that takes seeded pass tasks).
void launchFp32Pass(const StripeArgs& args, int rows, int cols, bool absCost, bool lean, int grid, int warps,
                    gpuStream_t s);
// lean: leanStartKernel (leanPassFits at 16 rows), else stripeKernel with start tracking.
void launchStartPasses(const StripeArgs& args, bool absCost, bool lean, int grid, int warps, gpuStream_t s);
void launchHalf2Pass(const StripeArgs& args, int rows, int cols, bool absCost, bool lean, int grid, int warps,
                     gpuStream_t s);
// Packs yh[j] = (y[j], y[h + j]) for j < L and zeros for j in [L, L + pad).
void packHalf2Reference(const float* y, __half2* yh, int L, int h, int pad, gpuStream_t s);

}  // namespace warplab::compute::gpu::sdtw
