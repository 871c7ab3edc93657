// The host side of the GPU subsequence search shared by its files (private to this folder):
// the inputs on a device (sdtw_inputs.cu), the pass over whole queries or reference stretches
// made exact (sdtw_stretches.cu), the top-k ends and their start spans (sdtw_matches.cu),
// what processes exchange beyond that (sdtw_processes.cu), driven by sdtw_gpu.cu (sdtw_gpu.h).
#pragma once
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "compute/core/params.h"
#include "compute/core/process_group.h"
#include "compute/core/series.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/gpu/kernels/sdtw/sdtw_passes.h"
#include "compute/gpu/runtime/device_set.h"
#include "compute/gpu/runtime/packed_series.h"

namespace warplab::compute::gpu::sdtw {

constexpr int kThreads = 256;
constexpr int kPadY = 8;  // samples readable past the reference's end (8 columns per step read up to e + 7)

// Inputs on the device, z-normalised when asked, the reference padded for the passes.
struct Prepared {
    PackedHost qh;
    PackedDevice qd;
    int m = 0, maxLength = 0;
    DeviceBuffer<float> y;      // fp32 reference, m + kPadY samples
    DeviceBuffer<__half2> yh;   // half2: (y[j], y[h + j]), L + kPadY pairs
    int L = 0, h = 0;           // half2 segments: A = [0, L), B = [h, m)
    Event znormDone;            // recorded after the z-normalisation
    DeviceBuffer<double> qMean, qSd, rMean, rSd;  // the normalisers' statistics
    DeviceBuffer<double> rParts;                  // the reference's, by pieces
    DeviceBuffer<long long> rOffset;              // {0}: the reference as a set of one (the normaliser's view)
    DeviceBuffer<int> rLength;                    // {m}
};

// The inputs checked once on the host, for every device's prepare(): the queries packed, the
// reference uploaded from the caller's samples as they are (a copy of 40 hours costs more host
// time than the device's whole search).
struct HostInputs {
    PackedHost qh;
    const Series* reference = nullptr;
};

HostInputs packInputs(const SeriesSet& queries, const Series& reference, const Params& params, SdtwPrecision precision,
                      bool referenceChecked = false);
// Uploads `in` to the current device on `stream`, z-normalised there when params.znorm; `start`
// is recorded once the inputs are on the device.
void prepare(Prepared& p, const HostInputs& in, const Params& params, SdtwPrecision precision, Stream& stream,
             Event& start, bool twoKernelNormaliser);
// The stripe kernel's arguments for queries [q0, q0 + nq) of the prepared set.
sdtw::StripeArgs passArgs(const Prepared& p, int q0, int nq, SdtwPrecision precision);

// Rows of a checkpoint column for queries of up to maxLength samples (padded so that every
// lane's rows are one aligned run: sdtw_passes.h).
inline int checkpointRows(int maxLength) {
    return (maxLength + kCheckpointRowAlign - 1) / kCheckpointRowAlign * kCheckpointRowAlign;
}

// Where a pass writes: the last rows (stride m) and checkpoints (ckCols per row of tasks),
// seeds read from seedCk (null: ck), and whether each task has rows of its own (perTaskOut).
struct PassOut {
    float* costRow = nullptr;
    int m = 0;
    float* ck = nullptr;
    int ckCols = 0, ckRows = 0;
    const float* seedCk = nullptr;
    int seedCols = 0;
    bool perTaskOut = false;
};

// Runs the pass for queries [q0, q0 + nq) whole, or for `tasks` (query indices relative to q0;
// a pass task's a a multiple of kCheckpointEvery), at `rows` rows per lane (0: rowsPerLane
// chooses) and `cols` columns per step (0: columnsPerStep chooses; the lean pass only).
void runPass(const Prepared& p, int q0, int nq, SdtwPrecision precision, bool absCost, const PassOut& out,
             const std::vector<sdtw::Task>* tasks, DeviceBuffer<sdtw::Task>& dTasks, DeviceBuffer<float>& boundary,
             gpuStream_t s, int rows, int cols, int* rowsUsed = nullptr, int* colsUsed = nullptr);

// One device's part of a search: its stream, inputs, buffers and stretches [k0, k1) of the
// reference (shares.size() == 1: the whole search on one device). Freed with its device current.
struct DeviceShare {
    struct Owned {
        Stream stream;
        Event start, stop;
        Event topkFrom, topkTo, startsFrom, startsTo;  // the top-k's and the start spans' device time
        Prepared p;
        DeviceBuffer<float> costRow, ck;  // every query's last row and checkpoints, reference-wide
        DeviceBuffer<sdtw::Task> dTasks;
        DeviceBuffer<float> boundary, tmpRow, tmpCk;
        DeviceBuffer<int> dAgreed, dLengths;
        std::vector<int> agreed;
    };
    int device = -1;  // -1: the calling thread's device, nothing to switch
    int k0 = 0, k1 = 0;
    std::unique_ptr<Owned> own;
    // The search ended well: own goes back to its device's cache (keepOwned) for the next search
    // instead of being freed.
    bool keep = false;
    DeviceShare() = default;
    DeviceShare(DeviceShare&&) = default;
    // f() with this share's device current; a Device error names it.
    template <typename F>
    decltype(auto) run(F&& f) {
        if (device < 0) return std::forward<F>(f)();
        return onDevice(device, std::forward<F>(f));
    }
    ~DeviceShare() {
        if (!own) return;
        try {
            run([this] { release(); });
        } catch (...) {
        }
    }

private:
    void release();  // with the device current
};

// A share's stream, events and buffers for the current device: a previous search's, kept, or new
// ones. Their contents are never read before a search writes them (as new device memory holds
// nothing), so a kept one gives the same matches; what it saves is the allocations (3.4 GB at
// 512 x 2,000 in 100,000, fp32) and the stream's and events' creation.
std::unique_ptr<DeviceShare::Owned> takeOwned();
// Keeps `own` (of the current device) for the next search while the device's kept buffers hold
// at most an eighth of its memory, else frees it.
void keepOwned(std::unique_ptr<DeviceShare::Owned> own);
// Device bytes held by the large buffers of `own` (the last rows, checkpoints, inputs, scratch).
std::size_t heldBytes(const DeviceShare::Owned& own);

// The processes a search is split over, or null for this process alone (none, or one).
inline const ProcessGroup* splitOver(const SdtwOptions& o) {
    return o.processes && o.processes->count > 1 ? o.processes : nullptr;
}

// Checkpoint c of queries [q0, q0 + nq) of a share's ck to or from `host` (nq * ckRows
// floats), done when they return (sdtw_processes.cu).
void checkpointsToHost(DeviceShare& sh, int q0, int nq, std::size_t c, int ckCols, int ckRows, float* host);
void checkpointsFromHost(DeviceShare& sh, int q0, int nq, std::size_t c, int ckCols, int ckRows, const float* host);

// Over processes (sdtw_processes.cu). The stretches [first, end) process `index` of
// `processes` sweeps (null: one process, all S), and the process whose stretches hold stretch k.
std::pair<int, int> processStretches(int S, const ProcessGroup* processes, int index);
int processHolding(int k, int S, const ProcessGroup* processes);
// Process 0's start spans (recoverStarts' fetchSeeds): the seed checkpoints of `round` outside its
// columns [c0, c1), asked for from every other process and copied into share 0's ck; endSeeds
// when its start spans are done. The other processes serveSeeds meanwhile: each list answered with
// the columns they hold, until endSeeds. Over processes: collective.
void fetchRemoteSeeds(DeviceShare& s0, const ProcessGroup& P, const std::vector<Task>& round,
                      const std::vector<int>& bounds, int c0, int c1, int ckCols, int ckRows);
void endSeeds(const ProcessGroup& P);
void serveSeeds(std::vector<DeviceShare>& shares, const ProcessGroup& P, const std::vector<int>& bounds, int ckCols,
                int ckRows);

// The last rows (and fp32 checkpoints, when withCk) of queries [q0, q0 + nq) into every share's
// costRow / ck: one pass over the whole reference on the one share, or (fp32, more than one
// stretch) each share's stretches, then re-swept exact. Returns the stretch bounds (0, ..., m).
std::vector<int> lastRowsPass(std::vector<DeviceShare>& shares, int q0, int nq, SdtwPrecision precision, bool absCost,
                              bool withCk, int ckCols, int ckRows, const SdtwOptions& options, SdtwTiming& tm);


// The top-k of rows [0, nq) of costRow (stride m) into outCost / outEnd (k per query): k
// rounds of (smallest cost, smallest column), each excluding end - n/2 .. end + n/2.
void topK(float* costRow, const int* qLengths, int nq, int m, int k, float* outCost, int* outEnd,
          DeviceBuffer<float>& pieceV, DeviceBuffer<int>& pieceJ, gpuStream_t s);
// The same rounds over processes, each holding columns [c0, c1) of the rows (the rest is not
// read): every round each process offers its best, all take the best of all (cost, then
// column) and exclude around it. Every process gets the matches in hc / he (k per query, -1
// ends when a row ran out). Collective.
void topKAcross(float* costRow, const int* qLengths, int nq, int m, int k, int c0, int c1,
                const ProcessGroup& processes, std::vector<float>& hc, std::vector<int>& he,
                DeviceBuffer<float>& pieceV, DeviceBuffer<int>& pieceJ, gpuStream_t s);
// Sets columns [lo, hi] (clipped to the row) of rows [0, nq) to +inf: ends never reported.
void maskEnds(float* costRow, int nq, int m, std::size_t lo, std::size_t hi, gpuStream_t s);

// Starts (and fp32 costs) of the matches ends[i] of queries tasks[i].query: fp32 start spans,
// widened while a seeded start span reports a start left of it.
// fetchSeeds (may be empty) is called with each round's tasks before it runs: the seed
// checkpoints another device holds are copied into ck first. trackExtra >= 0: the first round
// tracks starts over the last n + trackExtra columns of each span only (StripeArgs::trackExtra),
// and runs a span whose start it could not see again, every column tracked.
void recoverStarts(const Prepared& p, int q0, int nq, std::vector<sdtw::Task>& tasks, const float* ck, int ckCols,
                int ckRows, bool absCost, std::vector<int>& starts, std::vector<float>& costs, SdtwTiming& tm,
                gpuStream_t s, const std::function<void(const std::vector<sdtw::Task>&)>& fetchSeeds = {},
                int trackExtra = -1);

}  // namespace warplab::compute::gpu::sdtw
