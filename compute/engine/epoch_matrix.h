// Queries x epochs of one channel buffer, on the GPU, without cutting the epochs on the host:
// the channel goes to the device once and the band kernel reads epoch j at its
// offset in that buffer. The epochs are those of length e at stride s inside each *stretch*
// (a span of the buffer: one recording of a study laid end to end with the others), so that a
// epoch never crosses a file boundary or a gap. Rows come back in blocks, and the caller's sink
// reduces block k on the host while the device computes the blocks after it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/params.h"

namespace warplab::compute {

// Samples [offset, offset + length) of the channel buffer.
struct Stretch {
    long long offset = 0, length = 0;
};

// Start sample of every epoch, stretch by stretch in order: floor((length - e)/s) + 1 epochs
// per stretch of at least e samples, none in a shorter one. Throws EngineError(BadInput,
// "stretches[i]") for a stretch that is empty, outside [0, samples) or overlaps the one before.
std::vector<long long> epochStarts(const std::vector<Stretch>& stretches, long long samples, int e, int s);

// Row blocks a device holds at once, each with its pinned host buffers (what a caller pins ahead
// of a run: compute::prewarmPinned).
constexpr int kEpochBlocksInFlight = 3;

// One finished block of rows [rowBegin, rowEnd) of the matrix (cols = epochs). `rows` is
// row-major, `cols` doubles a row, when the request keeps rows; `sortedDistance` and
// `sortedEpoch` hold each row sorted by (distance, epoch) when it sorts them (row k of the
// block at offset k * cols; equal distances in epoch order, as a stable sort gives).
struct RowBlock {
    std::size_t rowBegin = 0, rowEnd = 0;
    const double* rows = nullptr;
    const float* sortedDistance = nullptr;
    const std::uint32_t* sortedEpoch = nullptr;
};
// Called on the thread that called gpuEpochMatrix, one block at a time, in row order; with
// EpochMatrixRequest::concurrentSink, on threads of their own, several blocks at once.
using RowBlockSink = std::function<void(const RowBlock& block)>;

// Where the time of a gpuEpochMatrix call went (for --timing and the scaling figures).
struct EpochMatrixStats {
    double prepSeconds = 0;             // before the setup: the devices, their peer access, pair lists
    double setupSeconds = 0;            // devices ready: context, channel upload, buffers (in parallel)
    double waitSeconds = 0;             // the calling thread waiting for finished blocks
    double sinkWaitSeconds = 0;         // concurrentSink: the calling thread waiting for the sink
    std::vector<double> deviceSeconds;  // per device used: time its blocks kept it busy (kernels, sort, copies)
    std::vector<double> spanSeconds;    // per device: its first block's start to its last block's end
    double queueSeconds = 0;     // devices set up -> every device's first blocks queued
    double loopSeconds = 0;      // devices set up -> the sink done with the last block
    double teardownSeconds = 0;  // freeing the devices' buffers
};

struct EpochMatrixRequest {
    const float* queries = nullptr;  // queryCount x e floats, row-major
    std::size_t queryCount = 0;
    const float* samples = nullptr;  // the channel buffer
    long long sampleCount = 0;
    std::vector<long long> starts;   // epoch starts (epochStarts), each + e <= sampleCount
    int e = 0;
    Params params;                   // cdtw, band <= 32
    bool dpx = false;                // the band kernel's DPX minimum (cuda.band_dpx)
    std::size_t rowBlock = 32;       // queries per block handed to the sink
    bool keepRows = true;            // hand each block's rows in epoch order to the sink
    bool sortRows = false;           // hand each row sorted (needs gpuEpochMatrixSortsRows())
    // Each finished block goes to the sink on a thread of its own, so that the host reduces the
    // blocks of several devices at once instead of one after another (with 4 devices a block is
    // 8 rows: one at a time, a sink would keep 8 cores busy while the devices wait on it). A
    // block's pinned buffers are reused only once the sink returned for it. The sink must then
    // take blocks from several threads at once, in any order.
    bool concurrentSink = false;
    EpochMatrixStats* stats = nullptr;  // filled when not null
    // Host work run on the calling thread while the devices are set up (each by a thread of its
    // own), before any block is queued: a view's finite check, which reads the channel as the
    // uploads do. What it throws is thrown once the setup has finished (before a setup error).
    std::function<void()> alongSetup;
};

// Empty when gpuEpochMatrix can run `kernelName` with these parameters (a GPU build, a device,
// a cuda.band / cuda.band_dpx kernel or its hip.* twin, cdtw with band <= 32), else why not.
std::string gpuEpochMatrixUnavailable(const std::string& kernelName, const Params& params);

// Whether this build sorts rows on the device (CUDA, through CUB's stable radix sort; a HIP
// build hands rows in epoch order and the caller sorts them).
bool gpuEpochMatrixSortsRows();

// Blocks of rows go round-robin to the devices of options.devices (empty: every visible GPU),
// each with its own stream, buffers and copy of the channel; the sink still sees them in row
// order, so the result does not depend on how many devices computed it.
// The matrix through the band kernel (the same arithmetic as that kernel through the engine:
// bit for bit the same distances). Throws EngineError (Device, Cancelled; whatever the sink
// throws, after the device work in flight is finished).
void gpuEpochMatrix(const EpochMatrixRequest& request, const RowBlockSink& sink, const RunOptions& options);

}  // namespace warplab::compute
