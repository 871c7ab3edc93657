// What every long computation shares: a cancellation token checked between tiles and a
// progress callback (fraction done in [0,1]). Both are safe to use from worker threads.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compute/core/process_group.h"

namespace warplab::compute {

class CancelToken {
public:
    void cancel() noexcept { flag_.store(true, std::memory_order_relaxed); }
    bool cancelled() const noexcept { return flag_.load(std::memory_order_relaxed); }
private:
    std::atomic<bool> flag_{false};
};

using ProgressFn = std::function<void(double fraction)>;

// Work done by many threads towards a known total, reported through `fn` (may be empty) as the
// fraction done: what a long sweep calls every few thousand columns or windows, so that a
// search shows progress as it goes, not only at its end.
class ProgressCounter {
public:
    ProgressCounter(ProgressFn fn, std::uint64_t total) : fn_(std::move(fn)), total_(total ? total : 1) {}
    void add(std::uint64_t n) {
        if (!fn_ || n == 0) return;
        const std::uint64_t done = done_.fetch_add(n, std::memory_order_relaxed) + n;
        fn_(std::min(1.0, double(done) / double(total_)));
    }
private:
    ProgressFn fn_;
    std::uint64_t total_;
    std::atomic<std::uint64_t> done_{0};
};

enum class Backend { Auto, Cpu, Cuda, Hip };

struct RunOptions {
    Backend backend = Backend::Auto;
    std::string kernel;          // registry name ("cpu.simd", "cuda.shuffle", ...); empty = best for backend
    int threads = 0;             // CPU threads; 0 = all cores
    ProgressFn progress;         // may be empty
    const CancelToken* cancel = nullptr;
    // GPU kernels: runtime indices of the devices to spread tiles over (the CLI's --devices);
    // empty = every visible device. CPU kernels ignore it.
    std::vector<int> devices;
    // A share of a job split over processes (MPI ranks): the engine makes the same tiles in
    // every process and computes only share `shareIndex` of `shareCount` — contiguous tiles in
    // the engine's order (row blocks), balanced by pairs. 1 = the whole matrix.
    int shareIndex = 0;
    int shareCount = 1;
    // A job split over processes that move data between them (the GPU subsequence search of
    // one reference under mpirun: its stretches, process_group.h); null: this process alone.
    const ProcessGroup* processes = nullptr;
};

// Whether the options ask for a GPU by name: backend cuda or hip, or a cuda.* / hip.* kernel
// (backend auto only prefers one where the operation says so).
inline bool namesGpu(Backend backend, const std::string& kernel) {
    return backend == Backend::Cuda || backend == Backend::Hip || kernel.rfind("cuda.", 0) == 0 ||
           kernel.rfind("hip.", 0) == 0;
}
inline bool namesGpu(const RunOptions& o) { return namesGpu(o.backend, o.kernel); }

}  // namespace warplab::compute
