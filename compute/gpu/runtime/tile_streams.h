// Tile streams of the matrix runner: each is one GPU stream with its own pinned host staging
// and device buffers, so that while one tile's kernel runs, another tile uploads and a third
// downloads (the engine submits as many tiles at once as there are tile streams). A tile
// stream keeps the packed rows and columns of its last tile and reuses them when the next tile
// has the same series of the same engine call (TileTask::inputsId): a pattern matrix has the
// same rows in every tile. Device memory grows only as tiles need it, and never past what the
// runtime says is free: a tile stream that does not fit frees idle tile streams' buffers, then
// waits for running ones.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "compute/core/series.h"
#include "compute/core/tile.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/packed_series.h"

namespace warplab::compute::gpu {

constexpr int kMaxTileStreams = 3;
// Devices one pool serves, each with its own kMaxTileStreams tile streams (device_set.h).
constexpr int kMaxDevices = 16;

// How many tile streams a runner uses (1..kMaxTileStreams): the benchmark's --tile-streams 1 gives
// the serial path for comparison. Read when a tile starts.
void setTileStreamLimit(int streams);
int tileStreamLimit();

// Page-locked host memory: copies from it run asynchronously at full bus speed. Grows only.
template <typename T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    ~PinnedBuffer() { if (ptr_) (void)gpuFreeHost(ptr_); }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    void resize(std::size_t count) {
        if (count <= count_) return;
        if (ptr_) (void)gpuFreeHost(ptr_);
        ptr_ = nullptr;
        count_ = 0;
        // A little slack, so that a slightly larger tile does not pay for a new allocation.
        const std::size_t want = count + count / 8;
        void* p = nullptr;
        checkPinnedAllocation(gpuMallocHost(&p, want * sizeof(T)), want * sizeof(T), "pinned host allocation");
        ptr_ = static_cast<T*>(p);
        count_ = want;
    }
    T* get() const { return ptr_; }

private:
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
};

// Which series a tile stream's packed set holds. Only a nonzero inputsId may be matched: it promises
// that the set does not change while the id is the same (one engine call).
struct PackKey {
    const SeriesSet* set = nullptr;
    std::size_t begin = 0, end = 0;
    std::uint64_t inputsId = 0;
    bool matches(const PackKey& o) const {
        return inputsId != 0 && inputsId == o.inputsId && set == o.set && begin == o.begin && end == o.end;
    }
};

// One packed set: host staging, its device copy and what it holds.
struct StagedSet {
    PinnedBuffer<float> hostValues;
    PinnedBuffer<long long> hostOffsets;
    PinnedBuffer<int> hostLengths;
    std::size_t floats = 0;  // staged values
    PackedDevice device;
    PackKey key;             // valid once the upload is enqueued
    // Packs series [begin, end) of `set` into the staging buffers, checking them as
    // packSeries does (same errors, naming `field`[i]).
    void pack(const SeriesSet& set, std::size_t begin, std::size_t end, const char* field);
    std::size_t growBytes() const;  // device bytes the upload must add
    void upload(gpuStream_t s);
};

struct TileStream {
    Stream stream;
    StagedSet rows, cols;
    PinnedBuffer<double> hostOut;
    DeviceBuffer<double> out;
    DeviceBuffer<int> pairRows, pairCols;
    // The device pair list holds the full (every cell) list of a tile of this shape.
    std::size_t pairTileRows = 0, pairTileCols = 0;
    bool pairsFull = false;
    DeviceBuffer<unsigned char> scratchBytes;
    DeviceBuffer<float> scratchFloats;

    std::size_t deviceBytes() const;
    void releaseDevice();  // frees every device buffer and forgets what they held
    void forget();         // keeps the buffers, forgets their contents
};

// Fills row[p] = p / cols, col[p] = p % cols for p < rows * cols on the device: the pair list
// of a full tile (tilePairs' order) without building and uploading it.
void fillFullPairs(int* row, int* col, int rows, int cols, gpuStream_t s);

class TileStreamPool;

// A tile stream held by one tile: waits for a free one, gives it back (after its stream is idle) at
// the end of the scope, also when the tile throws. With a device list, the tile stream is taken on
// the listed device with the fewest busy tile streams, and that device is the thread's current one
// while the lease lasts (streams, buffers and launches go there).
class TileStreamLease {
public:
    explicit TileStreamLease(TileStreamPool& pool, const std::vector<int>* devices = nullptr);
    ~TileStreamLease();
    TileStreamLease(const TileStreamLease&) = delete;
    TileStreamLease& operator=(const TileStreamLease&) = delete;
    TileStream& tileStream() { return *tileStream_; }
    int device() const { return device_; }  // runtime index of the tile stream's device
    // Before the tile stream grows its device buffers by `bytes`: makes room (frees idle tile streams,
    // waits for running ones) while the bytes are not free. Proceeds when nothing else can
    // give memory back; the allocation then fails as a Device error.
    void admit(std::size_t bytes);
    // The tile completed: what the tile stream's buffers hold may be reused. Without this call (an
    // exception) the tile stream forgets its cached sets.
    void finished() { clean_ = true; }

private:
    TileStreamPool& pool_;
    TileStream* tileStream_ = nullptr;
    int device_ = 0;
    int index_ = 0;
    bool clean_ = false;
    int previousDevice_ = -1;  // restored when the lease ends (-1: unchanged)
};

class TileStreamPool {
public:
    TileStreamPool() = default;

private:
    friend class TileStreamLease;
    std::mutex mutex_;
    std::condition_variable freed_;
    struct DeviceStreams {
        std::unique_ptr<TileStream> streams[kMaxTileStreams];  // created on first use, on this device
        bool busy[kMaxTileStreams] = {};
        int running = 0;  // busy tile streams not waiting for memory
    };
    DeviceStreams devices_[kMaxDevices];
};

}  // namespace warplab::compute::gpu
