// Every GPU this process may use, and which of them a job runs on. The runtime numbers the
// visible devices 0..count-1 (CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES narrow them, and MPI
// launchers set those per rank); a job lists the indices it wants (RunOptions::devices, the
// CLI's --devices), empty meaning all. Each device gets its own tile streams (tile_streams.h).
#pragma once
#include <cstddef>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "compute/core/error.h"

namespace warplab::compute::gpu {

// Visible devices that can run kernels (0 without a runtime or a driver).
int deviceCount();
// "NVIDIA H200" for device `index`, "" when there is no such device.
std::string deviceNameOf(int index);
// The devices a job asked for: empty -> all (0..deviceCount()-1). Throws EngineError
// (BadParameter, "devices") naming an index that does not exist or appears twice.
std::vector<int> resolveDevices(const std::vector<int>& wanted);
// "GPU 1 (NVIDIA H200)": how errors and the Metric panel name a device.
std::string deviceLabel(int index);

// Creates device `index`'s context now (the runtime would on first use), so that a job does
// not pay for it. Errors are left for the job to meet and report.
void startContext(int index) noexcept;

// Whether each of `devices` can copy to each other one directly (NVLink, or PCIe peer to peer),
// with peer access then enabled from each to each (kept by the contexts for the process's
// life; enabling it again is a quick no-op). False for one device, or where any pair cannot.
bool connectPeers(const std::vector<int>& devices) noexcept;

// Makes `index` the calling thread's current device for the scope and restores the previous
// one after (the runtime's current device is per thread).
class DeviceScope {
public:
    explicit DeviceScope(int index);
    ~DeviceScope();
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

private:
    int previous_ = 0;
    bool restore_ = false;
};

// Runs f with `device` current and returns what f returns; a Device error from it (or from
// making the device current) names the device: "on GPU 1 (NVIDIA H200): ...".
template <typename F>
decltype(auto) onDevice(int device, F&& f) {
    try {
        DeviceScope scope(device);
        return std::forward<F>(f)();
    } catch (const EngineError& e) {
        if (e.kind() != EngineError::Kind::Device) throw;
        throw EngineError(e.kind(), e.field(), "on " + deviceLabel(device) + ": " + e.what());
    }
}

// Runs work(d) for every d < count at once, each on a thread of its own (a device each), and
// along() on the calling thread meanwhile. When all have returned, rethrows along()'s failure
// (the host's: it names the input behind any device's), else the first failing d's in index
// order, so a failure reads the same whatever the timing.
template <typename Work, typename Along>
void runPerDevice(std::size_t count, Work&& work, Along&& along) {
    std::vector<std::exception_ptr> failed(count);
    std::exception_ptr hostFailed;
    {
        std::vector<std::jthread> threads;
        for (std::size_t d = 0; d < count; ++d)
            threads.emplace_back([&, d] {
                try {
                    work(d);
                } catch (...) {
                    failed[d] = std::current_exception();
                }
            });
        try {
            along();
        } catch (...) {
            hostFailed = std::current_exception();
        }
    }
    if (hostFailed) std::rethrow_exception(hostFailed);
    for (auto& f : failed)
        if (f) std::rethrow_exception(f);
}

template <typename Work>
void runPerDevice(std::size_t count, Work&& work) {
    runPerDevice(count, std::forward<Work>(work), [] {});
}

}  // namespace warplab::compute::gpu
