// GPU labels for views (device_list.h): the GPU library's list when one is linked.
#include "compute/engine/device_list.h"

#include <utility>

#include "compute/core/error.h"

#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/device_set.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/pinned_host.h"
#endif

namespace warplab::compute {

std::vector<std::string> gpuDeviceLabels() {
    std::vector<std::string> out;
#if WARPLAB_HAVE_GPU
    for (int d = 0; d < gpu::deviceCount(); ++d) out.push_back(gpu::deviceLabel(d));
#endif
    return out;
}

void checkGpus(const std::vector<int>& devices) {
#if WARPLAB_HAVE_GPU
    (void)gpu::resolveDevices(devices);
#else
    (void)devices;
    throw EngineError(EngineError::Kind::Device, "backend", gpuUnavailableReason());
#endif
}

#if WARPLAB_HAVE_GPU
namespace {

// The devices a job on `devices` would use, or none when it could not run (no GPU, a bad
// index): the warm-ups leave those errors for the job to report.
std::vector<int> devicesOrNone(const std::vector<int>& devices) {
    try {
        return gpu::resolveDevices(devices);
    } catch (...) {
        return {};
    }
}

}  // namespace
#endif

std::jthread warmUpGpus(std::vector<int> devices) {
    return std::jthread([devices = std::move(devices)] {
#if WARPLAB_HAVE_GPU
        const std::vector<int> list = devicesOrNone(devices);
        {
            std::vector<std::jthread> each;
            for (int d : list) each.emplace_back([d] { gpu::startContext(d); });
        }
        // Peer access between the job's devices (a pattern run copies the channel from device
        // to device): enabling it takes each context a while, and it lasts.
        (void)gpu::connectPeers(list);
#else
        (void)devices;
#endif
    });
}

std::jthread prewarmPinned(std::vector<int> devices, std::function<std::size_t(int devices)> bytesFor, int perDevice) {
    return std::jthread([devices = std::move(devices), bytesFor = std::move(bytesFor), perDevice] {
#if WARPLAB_HAVE_GPU
        const std::vector<int> list = devicesOrNone(devices);
        if (list.empty()) return;
        const std::size_t bytes = bytesFor(int(list.size()));
        if (bytes == 0) return;
        std::vector<std::jthread> each;
        for (int d : list)
            each.emplace_back([d, bytes, perDevice] {
                // All blocks are taken before any goes back, so that they are distinct blocks.
                std::vector<std::pair<void*, std::size_t>> held;
                try {
                    gpu::DeviceScope scope(d);
                    for (int i = 0; i < perDevice; ++i)
                        for (std::size_t want : {bytes, bytes, std::size_t(4096)}) {
                            std::size_t got = want;
                            held.emplace_back(gpu::acquirePinned(got), got);
                        }
                } catch (...) {
                }
                for (auto [p, n] : held) gpu::releasePinned(p, n);
            });
#else
        (void)devices;
        (void)bytesFor;
        (void)perDevice;
#endif
    });
}

std::string gpuUnavailableReason() {
#if WARPLAB_HAVE_GPU
    return gpu::unavailableReason();
#else
    return "this program was built without a GPU backend";
#endif
}

}  // namespace warplab::compute
