// The GPU side of compute/engine/epoch_matrix.h: the channel is uploaded once, the epochs are
// offsets into it (a SetView whose offsets are the epoch starts), and the band kernel of
// band_cdtw_kernel.h computes blocks of query rows x all epochs. No epoch is ever packed on
// the host, and the same kernel instantiations as cuda.band / cuda.band_dpx do the arithmetic.
//
// Pipeline: blocks of rows go round-robin to the job's devices, each with its own stream, copy
// of the channel and kInFlight slots (device rows, and where this build can, the rows sorted on
// the device: row_sort.h; pinned host copies). While the devices work, the calling thread
// hands the oldest finished block to the sink (the pattern ranking) in row order, so the host
// reduction of block k overlaps the devices' blocks after it, and the sink sees the same
// blocks whatever the number of devices.
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "compute/core/error.h"
#include "compute/gpu/kernels/band/band_cdtw.h"
#include "compute/gpu/runtime/device_set.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/pinned_host.h"
#include "compute/gpu/kernels/sort/row_sort.h"
#include "compute/engine/epoch_matrix.h"

namespace warplab::compute {

namespace {

using gpu::PairsView;
using gpu::SetView;
using LaunchFn = void (*)(bool, bool, SetView, SetView, PairsView, int, gpuStream_t);

template <int... Ws>
constexpr auto launchTable(std::integer_sequence<int, Ws...>) {
    return std::array<LaunchFn, sizeof...(Ws)>{&gpu::launchBandWidth<Ws>...};
}

constexpr std::size_t kColChunk = 65536;  // epochs per launch: rowBlock x this pairs
constexpr int kInFlight = kEpochBlocksInFlight;  // row blocks queued on the device (and pinned buffers)

bool endsWith(const std::string& s, const std::string& t) {
    return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

// Row-major (query, epoch) pairs of rows x cols: consecutive threads share the query, as in
// an engine tile, so its samples are one broadcast load.
std::vector<int> pairIndex(std::size_t rows, std::size_t cols, bool wantRow) {
    std::vector<int> v(rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) v[r * cols + c] = int(wantRow ? r : c);
    return v;
}

}  // namespace

std::string gpuEpochMatrixUnavailable(const std::string& kernelName, const Params& params) {
    if (!(endsWith(kernelName, ".band") || endsWith(kernelName, ".band_dpx")) ||
        !(kernelName.rfind("cuda.", 0) == 0 || kernelName.rfind("hip.", 0) == 0))
        return "the device-epoch path runs the band kernels (cuda.band, cuda.band_dpx), not " + kernelName;
    if (params.metric != Metric::Cdtw || params.band < 0 || params.band > gpu::kMaxBandKernelHalfWidth)
        return "the device-epoch path takes cdtw with band <= 32";
    if (!gpu::available()) return gpu::unavailableReason();
    return {};
}

bool gpuEpochMatrixSortsRows() {
#if WL_GPU_CUDA
    return true;
#else
    return false;
#endif
}

namespace {

// One device's share of the job: its stream, its copy of the channel, queries and pair lists,
// and the slots its blocks cycle through.
struct DeviceWork {
    struct Slot {
        gpu::DeviceBuffer<double> out;
        gpu::DeviceBuffer<float> dist;
        gpu::DeviceBuffer<std::uint32_t> col;
        gpu::DeviceBuffer<int> notFloat;
        std::unique_ptr<gpu::Pinned<double>> hRows;
        std::unique_ptr<gpu::Pinned<float>> hDist;
        std::unique_ptr<gpu::Pinned<std::uint32_t>> hCol;
        std::unique_ptr<gpu::Pinned<int>> hNotFloat;
        std::unique_ptr<gpu::Event> start, done;
        std::future<void> pinned;  // the host buffers above, allocated by `pinner`
    };
    int device = 0;
    std::unique_ptr<gpu::Stream> stream;
    std::unique_ptr<gpu::Event> first;  // recorded before its first block: the origin of its times
    double lastDone = 0;                // its last synchronised block's end, in ms after `first`
    gpu::DeviceBuffer<float> samples, queries;
    gpu::DeviceBuffer<long long> starts, queryOffsets;
    gpu::DeviceBuffer<int> rowFull, colFull, rowLast, colLast;
    std::vector<Slot> slots;
#if WL_GPU_CUDA
    std::unique_ptr<gpu::RowSorter> sorter;
#endif
    std::jthread pinner;  // declared last: joined before the slots it fills are destroyed
};

}  // namespace

void gpuEpochMatrix(const EpochMatrixRequest& q, const RowBlockSink& sink, const RunOptions& options) {
    using K = EngineError::Kind;
    if (q.params.metric != Metric::Cdtw || q.params.band < 0 || q.params.band > gpu::kMaxBandKernelHalfWidth)
        throw EngineError(K::Internal, "band", "the device-epoch path takes cdtw with band <= 32");
    if (q.sortRows && !gpuEpochMatrixSortsRows())
        throw EngineError(K::Internal, "sortRows", "this build does not sort rows on the device");
    if (!q.sortRows && !q.keepRows) throw EngineError(K::Internal, "keepRows", "a block must carry rows, sorted or not");
    if (q.e < 1 || q.queryCount == 0 || q.starts.empty()) {
        if (q.alongSetup) q.alongSetup();  // no device work, but the input is still checked
        return;
    }
    for (long long b : {q.starts.front(), q.starts.back()})
        if (b < 0 || b + q.e > q.sampleCount)
            throw EngineError(K::Internal, "starts", "a epoch lies outside the channel buffer");
    if (q.starts.size() > std::size_t(UINT32_MAX))
        throw EngineError(K::BadInput, "epochs", "more than 2^32 epochs in one channel");
    const auto tCall = std::chrono::steady_clock::now();
    const std::size_t nQ = q.queryCount, nW = q.starts.size(), e = std::size_t(q.e);
    std::size_t R = std::clamp<std::size_t>(q.rowBlock, 1, nQ);
    const std::size_t CT = std::min(kColChunk, nW);
    if (R * CT > std::size_t(1) << 30) throw EngineError(K::Internal, "rowBlock", "too many pairs per launch");
    std::size_t blocks = (nQ + R - 1) / R;

    // Devices beyond the number of blocks would only copy the channel.
    std::vector<int> devices = gpu::resolveDevices(options.devices);
    if (devices.size() > blocks) devices.resize(blocks);
    const std::size_t D = devices.size();
    // Each device's blocks are 1/D of the rows asked for, so that the pinned host memory of
    // all its slots stays what one device would need (pinning it is what starting costs most).
    if (D > 1) {
        R = std::max<std::size_t>(1, R / D);
        blocks = (nQ + R - 1) / R;
    }
    // Every device gets the same number of blocks (a few rows fewer each, never more), so that
    // none finishes a whole block after the others: 415 rows on 2 devices are 14 blocks of 30
    // (7 each), not 13 of 32. Each cell is computed alone, so the block size changes no value.
    if (blocks % D) {
        blocks += D - blocks % D;
        R = (nQ + blocks - 1) / blocks;
        blocks = (nQ + R - 1) / R;
    }
    std::vector<DeviceWork> work(D);

    std::vector<long long> qOff(nQ);
    for (std::size_t i = 0; i < nQ; ++i) qOff[i] = (long long)(i * e);
    // Pair lists for a full chunk of CT epochs and for the ragged last chunk; a launch over
    // epochs [c0, c0 + cols) shifts the epoch offsets and the output by c0.
    const std::size_t lastCols = nW % CT ? nW % CT : CT;
    const auto rf = pairIndex(R, CT, true), cf = pairIndex(R, CT, false);
    const auto rl = pairIndex(R, lastCols, true), cl = pairIndex(R, lastCols, false);

    // Every device is set up at once, each by its own thread: the channel's upload and the
    // pinned allocations are most of the start-up time and would otherwise add up. Where the
    // devices reach each other directly, each uploads only its 1/D of the channel (the upload
    // from pageable memory runs at 6-8 GB/s a thread: 80-100 ms for the published 604 MB
    // channel) and then copies the other parts from the other devices (NVLink: a few ms).
    const bool split = gpu::connectPeers(devices);
    const std::size_t N = std::size_t(q.sampleCount);
    auto partOf = [&](std::size_t d) { return std::pair{N * d / D, N * (d + 1) / D}; };
    auto setUp = [&](DeviceWork& w) {
        gpu::onDevice(w.device, [&] {
            w.stream = std::make_unique<gpu::Stream>();
            w.first = std::make_unique<gpu::Event>();
            const gpuStream_t s = w.stream->get();
            if (split) {
                const auto [a, b] = partOf(std::size_t(&w - work.data()));
                w.samples.resize(N);
                if (b > a)
                    gpu::check(gpuMemcpyAsync(w.samples.get() + a, q.samples + a, (b - a) * sizeof(float),
                                              gpuMemcpyHostToDevice, s),
                               "copy to device");
            } else {
                w.samples.upload(q.samples, N, s);
            }
            w.queries.upload(q.queries, nQ * e, s);
            w.starts.upload(q.starts.data(), nW, s);
            w.queryOffsets.upload(qOff.data(), nQ, s);
            w.rowFull.upload(rf.data(), rf.size(), s);
            w.colFull.upload(cf.data(), cf.size(), s);
            w.rowLast.upload(rl.data(), rl.size(), s);
            w.colLast.upload(cl.data(), cl.size(), s);
#if WL_GPU_CUDA
            if (q.sortRows) w.sorter = std::make_unique<gpu::RowSorter>(R, nW);
#endif
            // Pinned host buffers come later (pinHost), while the device computes.
            w.slots.resize(kInFlight);
            for (auto& slot : w.slots) {
                slot.out.resize(R * nW);
                if (q.sortRows) {
                    slot.dist.resize(R * nW);
                    slot.col.resize(R * nW);
                    slot.notFloat.resize(1);
                }
                slot.start = std::make_unique<gpu::Event>();
                slot.done = std::make_unique<gpu::Event>();
            }
            w.stream->sync();
        });
    };
    for (std::size_t d = 0; d < D; ++d) work[d].device = devices[d];
    const auto tSetUp = std::chrono::steady_clock::now();
    {
        // The host's failure first: it names the input (a file, a sample) behind any other.
        gpu::runPerDevice(D, [&](std::size_t d) { setUp(work[d]); }, [&] {
            if (q.alongSetup) q.alongSetup();
        });
        if (split) {
            // Each device fetches the parts the others uploaded (every upload has finished:
            // setUp synchronised its stream).
            for (std::size_t d = 0; d < D; ++d)
                gpu::onDevice(work[d].device, [&] {
                    for (std::size_t o = 0; o < D; ++o) {
                        const auto [a, b] = partOf(o);
                        if (o == d || b == a) continue;
                        gpu::check(gpuMemcpyPeerAsync(work[d].samples.get() + a, work[d].device, work[o].samples.get() + a,
                                                      work[o].device, (b - a) * sizeof(float), work[d].stream->get()),
                                   "copy between devices");
                    }
                });
            for (auto& w : work) gpu::onDevice(w.device, [&] { w.stream->sync(); });
        }
    }
    const auto secondsSince = [](std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };
    if (q.stats) {
        q.stats->prepSeconds = std::chrono::duration<double>(tSetUp - tCall).count();
        q.stats->setupSeconds = secondsSince(tSetUp);
        q.stats->deviceSeconds.assign(D, 0.0);
        q.stats->spanSeconds.assign(D, 0.0);
    }

    static constexpr auto launchers = launchTable(std::make_integer_sequence<int, gpu::kMaxBandKernelHalfWidth + 1>{});
    const LaunchFn launch = launchers[std::size_t(q.params.band)];
    const bool absCost = q.params.cost == Cost::Absolute;

    auto slotOf = [&](std::size_t b) -> DeviceWork::Slot& { return work[b % D].slots[(b / D) % kInFlight]; };
    // Each device's slots get their pinned buffers from a thread of the device's own, slot 0
    // first, awaited only when a slot's first copy is queued: pinning hundreds of megabytes
    // takes a good part of a second, which the devices' first blocks hide instead of the
    // start-up (or the thread that queues every device's work) waiting for it.
    auto startPinning = [&] {
        for (auto& w : work) {
            std::vector<std::packaged_task<void()>> tasks;
            for (auto& slot : w.slots) {
                tasks.emplace_back([&q, &slot, n = R * nW, device = w.device] {
                    gpu::DeviceScope scope(device);  // pinned memory belongs to the device's context
                    if (q.keepRows) slot.hRows = std::make_unique<gpu::Pinned<double>>(n);
                    if (q.sortRows) {
                        slot.hDist = std::make_unique<gpu::Pinned<float>>(n);
                        slot.hCol = std::make_unique<gpu::Pinned<std::uint32_t>>(n);
                        slot.hNotFloat = std::make_unique<gpu::Pinned<int>>(1);
                    }
                });
                slot.pinned = tasks.back().get_future();
            }
            // A task's failure (out of pinned memory) is kept in its future and thrown by pinHost.
            w.pinner = std::jthread([tasks = std::move(tasks)]() mutable {
                for (auto& t : tasks) t();
            });
        }
    };
    // Waits for (and rethrows the failure of) a slot's allocation; later calls return at once.
    auto pinHost = [&](DeviceWork::Slot& slot) {
        if (slot.pinned.valid()) slot.pinned.get();
    };
    // A block is queued in two steps: its kernels and row sort (device memory only), then the
    // copies into its slot's pinned buffers. The first blocks' kernels go first, so that the
    // devices are busy while the pinned buffers are being allocated.
    // f(device work, slot, stream, first row, rows) for block b, on its device.
    auto onBlock = [&](std::size_t b, auto&& f) {
        DeviceWork& w = work[b % D];
        DeviceWork::Slot& slot = slotOf(b);
        gpu::onDevice(w.device, [&] {
            const std::size_t r0 = b * R;
            f(w, slot, w.stream->get(), r0, std::min(R, nQ - r0));
        });
    };
    auto enqueueCompute = [&](std::size_t b) {
        onBlock(b, [&](DeviceWork& w, DeviceWork::Slot& slot, gpuStream_t s, std::size_t r0, std::size_t rows) {
            const SetView qv{w.queries.get(), w.queryOffsets.get() + r0, nullptr};
            double* out = slot.out.get();
            if (b < D) w.first->record(s);
            slot.start->record(s);
            for (std::size_t c0 = 0; c0 < nW; c0 += CT) {
                const std::size_t cols = std::min(CT, nW - c0);
                const bool last = cols != CT;
                // The pair lists are row-major with `cols` columns, so the first rows * cols pairs
                // are exactly this block's (the last block of rows may be shorter).
                PairsView pv{last ? w.rowLast.get() : w.rowFull.get(), last ? w.colLast.get() : w.colFull.get(),
                             int(rows * cols), int(nW), out + c0};
                const SetView wv{w.samples.get(), w.starts.get() + c0, nullptr};
                launch(absCost, q.dpx, qv, wv, pv, q.e, s);
            }
#if WL_GPU_CUDA
            if (q.sortRows) {
                gpu::check(gpuMemsetAsync(slot.notFloat.get(), 0, sizeof(int), s), "row sort flag");
                w.sorter->sort(out, rows, slot.dist.get(), slot.col.get(), slot.notFloat.get(), s);
            }
#endif
        });
    };
    auto enqueueCopy = [&](std::size_t b) {
        onBlock(b, [&](DeviceWork&, DeviceWork::Slot& slot, gpuStream_t s, std::size_t, std::size_t rows) {
            pinHost(slot);
            if (q.keepRows)
                gpu::check(gpuMemcpyAsync(slot.hRows->get(), slot.out.get(), rows * nW * sizeof(double),
                                          gpuMemcpyDeviceToHost, s),
                           "copy from device");
#if WL_GPU_CUDA
            if (q.sortRows) {
                gpu::check(gpuMemcpyAsync(slot.hDist->get(), slot.dist.get(), rows * nW * sizeof(float),
                                          gpuMemcpyDeviceToHost, s), "copy from device");
                gpu::check(gpuMemcpyAsync(slot.hCol->get(), slot.col.get(), rows * nW * sizeof(std::uint32_t),
                                          gpuMemcpyDeviceToHost, s), "copy from device");
                gpu::check(gpuMemcpyAsync(slot.hNotFloat->get(), slot.notFloat.get(), sizeof(int), gpuMemcpyDeviceToHost, s),
                           "copy from device");
            }
#endif
            slot.done->record(s);
        });
    };

    std::size_t queued = std::min<std::size_t>(blocks, D * (kInFlight - 1));
    // concurrentSink: the sink of each block, on a thread of its own. Declared after `work`, so
    // that a sink still running when an error unwinds is joined before the buffers it reads go.
    std::vector<std::future<void>> sinks(q.concurrentSink ? blocks : 0);
    auto awaitSink = [&](std::size_t b) {
        if (b >= sinks.size() || !sinks[b].valid()) return;
        const auto t = std::chrono::steady_clock::now();
        sinks[b].get();  // rethrows what the sink threw
        if (q.stats) q.stats->sinkWaitSeconds += secondsSince(t);
    };
    const auto tLoop = std::chrono::steady_clock::now();
    try {
        for (std::size_t b = 0; b < queued; ++b) enqueueCompute(b);
        if (q.stats) q.stats->queueSeconds = secondsSince(tLoop);
        startPinning();
        for (std::size_t b = 0; b < queued; ++b) enqueueCopy(b);
        for (std::size_t b = 0; b < blocks; ++b) {
            if (queued < blocks) {
                enqueueCompute(queued);
                // Its copies land in the pinned buffers of the block kInFlight rounds before it
                // on the same device: that block's sink must be done with them.
                if (queued >= D * kInFlight) awaitSink(queued - D * kInFlight);
                enqueueCopy(queued++);
            }
            DeviceWork::Slot& slot = slotOf(b);
            const auto tWait = std::chrono::steady_clock::now();
            gpu::onDevice(work[b % D].device, [&] {
                slot.done->sync();
                if (!q.stats) return;
                // A block's copies are queued behind the next block's kernels, so its start may
                // lie before the end of the block before it: busy counts from the later of the two.
                DeviceWork& w = work[b % D];
                const double start = slot.start->since(*w.first), done = slot.done->since(*w.first);
                q.stats->deviceSeconds[b % D] += (done - std::max(start, w.lastDone)) / 1e3;
                w.lastDone = done;
                q.stats->spanSeconds[b % D] = done / 1e3;
            });
            if (q.stats) q.stats->waitSeconds += secondsSince(tWait);
            if (options.cancel && options.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");
            if (q.sortRows && *slot.hNotFloat->get())
                throw EngineError(K::Internal, "sortRows", "the band kernel returned a distance that is not a float");
            const std::size_t r0 = b * R, r1 = std::min(nQ, r0 + R);
            RowBlock block{r0, r1, q.keepRows ? slot.hRows->get() : nullptr, q.sortRows ? slot.hDist->get() : nullptr,
                           q.sortRows ? slot.hCol->get() : nullptr};
            if (q.concurrentSink) sinks[b] = std::async(std::launch::async, [&sink, block] { sink(block); });
            else sink(block);
            if (options.progress) options.progress(double(r1) / double(nQ));
        }
        for (std::size_t b = 0; b < sinks.size(); ++b) awaitSink(b);
    } catch (...) {
        // No kernel may still write into buffers freed below.
        for (auto& w : work)
            if (w.stream) (void)gpuStreamSynchronize(w.stream->get());
        for (auto& f : sinks)  // no sink may still read the pinned buffers freed below
            if (f.valid()) f.wait();
        throw;
    }
    // Freed here rather than at the return, so that --timing shows what freeing costs (2-3 ms on
    // one H200, 5-7 ms on two: device after device is fine).
    const auto tTear = std::chrono::steady_clock::now();
    if (q.stats) q.stats->loopSeconds = std::chrono::duration<double>(tTear - tLoop).count();
    work.clear();
    if (q.stats) q.stats->teardownSeconds = secondsSince(tTear);
}

}  // namespace warplab::compute
