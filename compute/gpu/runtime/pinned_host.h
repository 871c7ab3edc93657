// Pinned (page-locked) host memory for asynchronous copies from the device, from a cache:
// blocks are kept for the next user (a study's next channel, the application's next run)
// instead of being freed, because pinning costs about 0.3 s per GB every time and the driver
// serialises it with the other runtime calls. Up to 2 GiB stay cached; they go back to the
// system when the process ends. Thread-safe.
#pragma once
#include <cstddef>

namespace warplab::compute::gpu {

// A block of at least `bytes`, pinned; `bytes` becomes its real size. Throws EngineError
// (Device) when the runtime cannot pin that much.
void* acquirePinned(std::size_t& bytes);
// Gives a block back (its real size): to the cache, or to the runtime when the cache is full.
void releasePinned(void* block, std::size_t bytes);

// `count` Ts of pinned memory for one owner.
template <typename T>
class Pinned {
public:
    explicit Pinned(std::size_t count) : bytes_((count ? count : 1) * sizeof(T)) {
        p_ = static_cast<T*>(acquirePinned(bytes_));
    }
    ~Pinned() { if (p_) releasePinned(p_, bytes_); }
    Pinned(const Pinned&) = delete;
    Pinned& operator=(const Pinned&) = delete;
    T* get() const { return p_; }

private:
    std::size_t bytes_;
    T* p_ = nullptr;
};

}  // namespace warplab::compute::gpu
