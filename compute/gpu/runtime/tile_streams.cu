// Tile streams of the matrix runner (see tile_streams.h).
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/tile_streams.h"
#include "compute/gpu/runtime/device_set.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>

namespace warplab::compute::gpu {

namespace {

std::atomic<int> gTileStreamLimit{kMaxTileStreams};

template <typename T>
std::size_t growth(const DeviceBuffer<T>& b, std::size_t count) {
    return count > b.size() ? (count - b.size()) * sizeof(T) : 0;
}

// Any NaN or infinity among n floats: the exponent bits all set. Branch-free so that the
// compiler vectorises it; packing touches every sample of a tile.
bool allFinite(const float* v, std::size_t n) {
    unsigned bad = 0;
    for (std::size_t k = 0; k < n; ++k) {
        unsigned bits;
        std::memcpy(&bits, v + k, sizeof bits);
        bad |= unsigned((bits & 0x7f800000u) == 0x7f800000u);
    }
    return bad == 0;
}

__global__ void fullPairsKernel(int* row, int* col, int rows, int cols) {
    const long long n = (long long)rows * cols;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < n; p += step) {
        row[p] = int(p / cols);
        col[p] = int(p % cols);
    }
}

}  // namespace

void setTileStreamLimit(int streams) { gTileStreamLimit.store(std::clamp(streams, 1, kMaxTileStreams)); }
int tileStreamLimit() { return gTileStreamLimit.load(); }

void StagedSet::pack(const SeriesSet& set, std::size_t begin, std::size_t end, const char* field) {
    using K = EngineError::Kind;
    key = {};
    floats = 0;
    device.count = 0;
    device.dims = 1;
    device.maxLength = device.minLength = 0;
    if (begin >= end) return;
    std::size_t total = 0;
    for (std::size_t i = begin; i < end; ++i) total += set[i].samples().size();
    hostValues.resize(std::max<std::size_t>(1, total));
    hostOffsets.resize(end - begin);
    hostLengths.resize(end - begin);
    // The same checks, in the same order, as packSeries.
    const int dims = int(set[begin].dims);
    int maxLength = 0, minLength = set[begin].length > 0 ? int(set[begin].length) : 0;
    for (std::size_t i = begin; i < end; ++i) {
        const Series& s = set[i];
        auto name = [&] { return std::string(field) + "[" + std::to_string(i) + "]"; };
        if (s.length == 0) throw EngineError(K::BadInput, name(), "empty series");
        if (int(s.dims) != dims)
            throw EngineError(K::BadInput, name(),
                              "has " + std::to_string(s.dims) + " channels, expected " + std::to_string(dims));
        if (s.length > std::size_t(1) << 30) throw EngineError(K::BadInput, name(), "longer than 2^30 samples");
        if (!allFinite(s.samples().data(), s.samples().size()))
            for (std::size_t k = 0; k < s.samples().size(); ++k)
                if (!std::isfinite(s.samples()[k]))
                    throw EngineError(K::BadInput, name(), "sample " + std::to_string(k / s.dims) + " is " +
                                                               (std::isnan(s.samples()[k]) ? "NaN" : "infinite"));
        hostOffsets.get()[i - begin] = static_cast<long long>(floats);
        hostLengths.get()[i - begin] = int(s.length);
        if (!s.samples().empty()) std::memcpy(hostValues.get() + floats, s.samples().data(), s.samples().size() * sizeof(float));
        floats += s.samples().size();
        maxLength = std::max(maxLength, int(s.length));
        minLength = std::min(minLength, int(s.length));
    }
    device.count = int(end - begin);
    device.dims = dims;
    device.maxLength = maxLength;
    device.minLength = minLength;
}

std::size_t StagedSet::growBytes() const {
    const std::size_t n = std::size_t(device.count);
    return growth(device.values, floats) + growth(device.offsets, n) + growth(device.lengths, n);
}

void StagedSet::upload(gpuStream_t s) {
    const std::size_t n = std::size_t(device.count);
    device.values.upload(hostValues.get(), floats, s);
    device.offsets.upload(hostOffsets.get(), n, s);
    device.lengths.upload(hostLengths.get(), n, s);
}

std::size_t TileStream::deviceBytes() const {
    auto bytes = [](const auto& b) { return b.size() * sizeof(*b.get()); };
    return bytes(rows.device.values) + bytes(rows.device.offsets) + bytes(rows.device.lengths) +
           bytes(cols.device.values) + bytes(cols.device.offsets) + bytes(cols.device.lengths) + bytes(out) +
           bytes(pairRows) + bytes(pairCols) + bytes(scratchBytes) + bytes(scratchFloats);
}

void TileStream::forget() {
    rows.key = {};
    cols.key = {};
    pairsFull = false;
}

void TileStream::releaseDevice() {
    forget();
    for (StagedSet* set : {&rows, &cols}) {
        set->device.values.release();
        set->device.offsets.release();
        set->device.lengths.release();
    }
    out.release();
    pairRows.release();
    pairCols.release();
    scratchBytes.release();
    scratchFloats.release();
}

void fillFullPairs(int* row, int* col, int rows, int cols, gpuStream_t s) {
    if (rows <= 0 || cols <= 0) return;
    const long long n = (long long)rows * cols;
    constexpr int block = 256;
    const int grid = int(std::min<long long>((n + block - 1) / block, 4096));
    fullPairsKernel<<<grid, block, 0, s>>>(row, col, rows, cols);
    checkLaunch("pair list kernel");
}

TileStreamLease::TileStreamLease(TileStreamPool& pool, const std::vector<int>* devices) : pool_(pool) {
    int current = 0;
    check(gpuGetDevice(&current), "device query");
    const std::vector<int> one{current};
    const std::vector<int>& list = devices && !devices->empty() ? *devices : one;
    for (int d : list)
        if (d < 0 || d >= kMaxDevices)
            throw EngineError(EngineError::Kind::BadParameter, "devices", "GPU " + std::to_string(d) + " is out of range");
    std::unique_lock<std::mutex> lock(pool.mutex_);
    for (;;) {
        const int limit = tileStreamLimit();
        // The listed device with the fewest busy tile streams: tiles spread evenly over the devices.
        index_ = -1;
        int fewest = kMaxTileStreams + 1;
        for (int d : list) {
            auto& dl = pool.devices_[d];
            int busy = 0, freeStream = -1;
            for (int i = 0; i < limit; ++i) {
                if (dl.busy[i]) ++busy;
                else if (freeStream < 0) freeStream = i;
            }
            if (freeStream >= 0 && busy < fewest) {
                fewest = busy;
                device_ = d;
                index_ = freeStream;
            }
        }
        if (index_ >= 0) break;
        pool.freed_.wait(lock);
    }
    auto& dl = pool.devices_[device_];
    if (device_ != current) {
        check(gpuSetDevice(device_), "selecting a device");
        previousDevice_ = current;
    }
    try {
        if (!dl.streams[index_]) dl.streams[index_] = std::make_unique<TileStream>();  // may throw: nothing taken yet
    } catch (const EngineError& e) {
        if (previousDevice_ >= 0) (void)gpuSetDevice(previousDevice_);
        throw EngineError(e.kind(), e.field(), std::string("on ") + deviceLabel(device_) + ": " + e.what());
    }
    dl.busy[index_] = true;
    ++dl.running;
    tileStream_ = dl.streams[index_].get();
}

TileStreamLease::~TileStreamLease() {
    // Normally the stream is idle already; after an error it may still read the staging
    // buffers, which the next tile of this tile stream would overwrite.
    if (gpuStreamSynchronize(tileStream_->stream.get()) != gpuSuccess) (void)gpuGetLastError();
    if (!clean_) tileStream_->forget();
    {
        std::lock_guard<std::mutex> lock(pool_.mutex_);
        pool_.devices_[device_].busy[index_] = false;
        --pool_.devices_[device_].running;
    }
    pool_.freed_.notify_all();
    if (previousDevice_ >= 0 && gpuSetDevice(previousDevice_) != gpuSuccess) (void)gpuGetLastError();
}

void TileStreamLease::admit(std::size_t bytes) {
    if (bytes == 0) return;
    // Left free for the runtime and for the kernels' own scratch (they take a share of what
    // is free when they launch).
    constexpr std::size_t kHeadroom = std::size_t(64) << 20;
    std::unique_lock<std::mutex> lock(pool_.mutex_);
    auto& dl = pool_.devices_[device_];  // memInfo() asks the current device: this tile stream's
    for (;;) {
        if (bytes + kHeadroom <= memInfo().first) return;
        // Idle tile streams were synchronised when given back: their buffers can go at once.
        bool released = false;
        for (int i = 0; i < kMaxTileStreams; ++i)
            if (!dl.busy[i] && dl.streams[i] && dl.streams[i]->deviceBytes() > 0) {
                dl.streams[i]->releaseDevice();
                released = true;
            }
        if (released) continue;
        // Nobody else is running on this device who could give memory back: try; a failure is
        // a Device error.
        if (dl.running <= 1) return;
        --dl.running;
        pool_.freed_.wait(lock);
        ++dl.running;
    }
}

}  // namespace warplab::compute::gpu
