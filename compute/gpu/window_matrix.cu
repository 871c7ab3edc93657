// The GPU side of compute/window_matrix.h: the channel is uploaded once, the windows are
// offsets into it (a SetView whose offsets are the window starts), and the band kernel of
// band_cdtw_kernel.h computes blocks of query rows x all windows. No window is ever packed on
// the host, and the same kernel instantiations as cuda.band / cuda.band_dpx do the arithmetic.
//
// Pipeline: up to kInFlight blocks are queued on one stream (kernels, then the copy of the
// block's rows into pinned host memory); while the device works on them the calling thread
// hands the oldest finished block to the sink (the pattern ranking), so the host reduction of
// block k overlaps the device's blocks k+1, k+2.
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/gpu_runtime.h"

#include <algorithm>
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "compute/core/error.h"
#include "compute/gpu/band_cdtw.h"
#include "compute/gpu/gpu_device.h"
#include "compute/window_matrix.h"

namespace warplab::compute {

namespace {

using gpu::PairsView;
using gpu::SetView;
using LaunchFn = void (*)(bool, bool, int, SetView, SetView, PairsView, int, gpuStream_t);

template <int... Ws>
constexpr auto launchTable(std::integer_sequence<int, Ws...>) {
    return std::array<LaunchFn, sizeof...(Ws)>{&gpu::launchBandWidth<Ws>...};
}

constexpr int kBlock = 128;          // the band kernel's block size (band_cdtw_kernel.h)
constexpr std::size_t kColChunk = 65536;  // windows per launch: rowBlock x this pairs
constexpr int kInFlight = 3;         // row blocks queued on the device (and pinned buffers)

bool endsWith(const std::string& s, const std::string& t) {
    return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

// Pinned host memory, so that the rows' copies run asynchronously at full speed.
class Pinned {
public:
    explicit Pinned(std::size_t count) {
        void* p = nullptr;
        gpu::check(gpuMallocHost(&p, count * sizeof(double)), "pinned host allocation");
        p_ = static_cast<double*>(p);
    }
    ~Pinned() { if (p_) (void)gpuFreeHost(p_); }
    Pinned(const Pinned&) = delete;
    Pinned& operator=(const Pinned&) = delete;
    double* get() const { return p_; }

private:
    double* p_ = nullptr;
};

// Row-major (query, window) pairs of rows x cols: consecutive threads share the query, as in
// an engine tile, so its samples are one broadcast load.
std::vector<int> pairIndex(std::size_t rows, std::size_t cols, bool wantRow) {
    std::vector<int> v(rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) v[r * cols + c] = int(wantRow ? r : c);
    return v;
}

}  // namespace

std::string gpuWindowMatrixUnavailable(const std::string& kernelName, const Params& params) {
    if (!(endsWith(kernelName, ".band") || endsWith(kernelName, ".band_dpx")) ||
        !(kernelName.rfind("cuda.", 0) == 0 || kernelName.rfind("hip.", 0) == 0))
        return "the window path runs the band kernels (cuda.band, cuda.band_dpx), not " + kernelName;
    if (params.metric != Metric::Cdtw || params.band < 0 || params.band > gpu::kMaxBandKernelHalfWidth)
        return "the window path takes cdtw with band <= 32";
    if (!gpu::available()) return gpu::unavailableReason();
    return {};
}

void gpuWindowMatrix(const WindowMatrixRequest& q, const RowBlockSink& sink, const RunOptions& options) {
    using K = EngineError::Kind;
    if (q.params.metric != Metric::Cdtw || q.params.band < 0 || q.params.band > gpu::kMaxBandKernelHalfWidth)
        throw EngineError(K::Internal, "band", "the window path takes cdtw with band <= 32");
    if (q.e < 1 || q.queryCount == 0 || q.starts.empty()) return;
    for (long long b : {q.starts.front(), q.starts.back()})
        if (b < 0 || b + q.e > q.sampleCount)
            throw EngineError(K::Internal, "starts", "a window lies outside the channel buffer");
    const std::size_t nQ = q.queryCount, nW = q.starts.size(), e = std::size_t(q.e);
    const std::size_t R = std::clamp<std::size_t>(q.rowBlock, 1, nQ);
    const std::size_t CT = std::min(kColChunk, nW);
    if (R * CT > std::size_t(1) << 30) throw EngineError(K::Internal, "rowBlock", "too many pairs per launch");

    gpu::Stream stream;
    const gpuStream_t s = stream.get();
    gpu::DeviceBuffer<float> dSamples, dQueries;
    gpu::DeviceBuffer<long long> dStarts, dQueryOffsets;
    dSamples.upload(q.samples, std::size_t(q.sampleCount), s);
    dQueries.upload(q.queries, nQ * e, s);
    dStarts.upload(q.starts.data(), nW, s);
    std::vector<long long> qOff(nQ);
    for (std::size_t i = 0; i < nQ; ++i) qOff[i] = (long long)(i * e);
    dQueryOffsets.upload(qOff.data(), nQ, s);

    // Pair lists for a full chunk of CT windows and for the ragged last chunk; a launch over
    // windows [c0, c0 + cols) shifts the window offsets and the output by c0.
    const std::size_t lastCols = nW % CT ? nW % CT : CT;
    gpu::DeviceBuffer<int> dRowFull, dColFull, dRowLast, dColLast;
    {
        const auto rf = pairIndex(R, CT, true), cf = pairIndex(R, CT, false);
        dRowFull.upload(rf.data(), rf.size(), s);
        dColFull.upload(cf.data(), cf.size(), s);
        const auto rl = pairIndex(R, lastCols, true), cl = pairIndex(R, lastCols, false);
        dRowLast.upload(rl.data(), rl.size(), s);
        dColLast.upload(cl.data(), cl.size(), s);
    }
    stream.sync();  // the host vectors above go out of scope

    static constexpr auto launchers = launchTable(std::make_integer_sequence<int, gpu::kMaxBandKernelHalfWidth + 1>{});
    const LaunchFn launch = launchers[std::size_t(q.params.band)];
    const bool absCost = q.params.cost == Cost::Absolute;

    std::vector<gpu::DeviceBuffer<double>> dOut(kInFlight);
    std::vector<std::unique_ptr<Pinned>> hOut;
    std::vector<std::unique_ptr<gpu::Event>> done;
    for (int k = 0; k < kInFlight; ++k) {
        dOut[std::size_t(k)].resize(R * nW);
        hOut.push_back(std::make_unique<Pinned>(R * nW));
        done.push_back(std::make_unique<gpu::Event>());
    }

    const std::size_t blocks = (nQ + R - 1) / R;
    auto enqueue = [&](std::size_t b) {
        const std::size_t r0 = b * R, rows = std::min(R, nQ - r0);
        const int slot = int(b % kInFlight);
        const SetView qv{dQueries.get(), dQueryOffsets.get() + r0, nullptr};
        double* out = dOut[std::size_t(slot)].get();
        for (std::size_t c0 = 0; c0 < nW; c0 += CT) {
            const std::size_t cols = std::min(CT, nW - c0);
            const bool last = cols != CT;
            // The pair lists are row-major with `cols` columns, so the first rows * cols pairs
            // are exactly this block's (the last block of rows may be shorter).
            PairsView pv{last ? dRowLast.get() : dRowFull.get(), last ? dColLast.get() : dColFull.get(),
                         int(rows * cols), int(nW), out + c0};
            const SetView wv{dSamples.get(), dStarts.get() + c0, nullptr};
            launch(absCost, q.dpx, int((rows * cols + kBlock - 1) / kBlock), qv, wv, pv, q.e, s);
        }
        gpu::check(gpuMemcpyAsync(hOut[std::size_t(slot)]->get(), out, rows * nW * sizeof(double),
                                  gpuMemcpyDeviceToHost, s),
                   "copy from device");
        done[std::size_t(slot)]->record(s);
    };

    std::size_t queued = 0;
    try {
        for (; queued < std::min<std::size_t>(blocks, kInFlight - 1); ++queued) enqueue(queued);
        for (std::size_t b = 0; b < blocks; ++b) {
            if (queued < blocks) enqueue(queued++);
            done[b % kInFlight]->sync();
            if (options.cancel && options.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");
            const std::size_t r0 = b * R, r1 = std::min(nQ, r0 + R);
            sink(r0, r1, hOut[b % kInFlight]->get());
            if (options.progress) options.progress(double(r1) / double(nQ));
        }
    } catch (...) {
        (void)gpuStreamSynchronize(s);  // no kernel may still write into buffers freed below
        throw;
    }
}

}  // namespace warplab::compute
