// The pinned host memory cache (pinned_host.h).
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/pinned_host.h"

#include <mutex>
#include <utility>
#include <vector>

namespace warplab::compute::gpu {

namespace {

constexpr std::size_t kPinnedCacheBytes = std::size_t(2) << 30;
std::mutex cacheMutex;
std::vector<std::pair<std::size_t, void*>> cache;  // (bytes, block), free for reuse
std::size_t cached = 0;

}  // namespace

void* acquirePinned(std::size_t& bytes) {
    {
        std::lock_guard<std::mutex> lock(cacheMutex);
        auto best = cache.end();
        for (auto it = cache.begin(); it != cache.end(); ++it)
            if (it->first >= bytes && (best == cache.end() || it->first < best->first)) best = it;
        if (best != cache.end()) {
            void* p = best->second;
            bytes = best->first;
            cached -= best->first;
            cache.erase(best);
            return p;
        }
    }
    void* p = nullptr;
    checkPinnedAllocation(gpuMallocHost(&p, bytes), bytes, "pinned host allocation");
    return p;
}

void releasePinned(void* block, std::size_t bytes) {
    {
        std::lock_guard<std::mutex> lock(cacheMutex);
        if (cached + bytes <= kPinnedCacheBytes) {
            cache.emplace_back(bytes, block);
            cached += bytes;
            return;
        }
    }
    (void)gpuFreeHost(block);
}

}  // namespace warplab::compute::gpu
