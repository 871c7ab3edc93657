// Device discovery and per-thread device selection (device_set.h).
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/device_set.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "compute/gpu/runtime/gpu_device.h"

namespace warplab::compute::gpu {

namespace {
// Asked once: the set of visible devices does not change while the process runs.
int visibleCount() {
    static const int n = [] {
        int count = 0;
        if (!available()) return 0;  // the same verdict as the single-device path
        if (gpuGetDeviceCount(&count) != gpuSuccess) {
            (void)gpuGetLastError();
            return 0;
        }
        return count;
    }();
    return n;
}

// The names, asked only where a device is named (its whole property set takes milliseconds per
// device): not on the way to a job's contexts.
const std::vector<std::string>& names() {
    static const std::vector<std::string> n = [] {
        std::vector<std::string> r;
        for (int i = 0; i < visibleCount(); ++i) {
            gpuDeviceProp prop{};
            if (gpuGetDeviceProperties(&prop, i) != gpuSuccess) {
                (void)gpuGetLastError();
                r.push_back("unknown device");
            } else {
                r.push_back(prop.name);
            }
        }
        return r;
    }();
    return n;
}
}  // namespace

int deviceCount() { return visibleCount(); }

std::string deviceNameOf(int index) {
    return index >= 0 && index < deviceCount() ? names()[std::size_t(index)] : std::string();
}

std::string deviceLabel(int index) { return "GPU " + std::to_string(index) + " (" + deviceNameOf(index) + ")"; }

std::vector<int> resolveDevices(const std::vector<int>& wanted) {
    using K = EngineError::Kind;
    const int count = deviceCount();
    if (count == 0) throw EngineError(K::Device, "devices", unavailableReason());
    std::vector<int> out;
    if (wanted.empty()) {
        for (int i = 0; i < count; ++i) out.push_back(i);
        return out;
    }
    for (int d : wanted) {
        if (d < 0 || d >= count)
            throw EngineError(K::BadParameter, "devices",
                              "there is no GPU " + std::to_string(d) + " (this process sees " + std::to_string(count) +
                                  (count == 1 ? " device, index 0)" : " devices, 0.." + std::to_string(count - 1) + ")"));
        if (std::find(out.begin(), out.end(), d) != out.end())
            throw EngineError(K::BadParameter, "devices", "GPU " + std::to_string(d) + " is listed twice");
        out.push_back(d);
    }
    return out;
}

void startContext(int index) noexcept {
    try {
        DeviceScope scope(index);
        if (gpuFree(nullptr) != gpuSuccess) (void)gpuGetLastError();
    } catch (...) {
    }
}

bool connectPeers(const std::vector<int>& devices) noexcept {
    if (devices.size() < 2) return false;
    try {
        for (int a : devices)
            for (int b : devices) {
                int can = 0;
                if (a != b && (gpuDeviceCanAccessPeer(&can, a, b) != gpuSuccess || !can)) return false;
            }
        // Each device maps its peers on a thread of its own (a while each, in every context):
        // the devices do it at once rather than one after another.
        std::vector<char> ok(devices.size(), 0);
        {
            std::vector<std::jthread> each;
            for (std::size_t i = 0; i < devices.size(); ++i)
                each.emplace_back([&, i] {
                    try {
                        DeviceScope scope(devices[i]);
                        for (int b : devices) {
                            if (b == devices[i]) continue;
                            const gpuError_t e = gpuDeviceEnablePeerAccess(b, 0);
                            if (e == gpuSuccess) continue;
                            (void)gpuGetLastError();  // clears the error this call left behind
                            if (e != gpuErrorPeerAccessAlreadyEnabled) return;
                        }
                        ok[i] = 1;
                    } catch (...) {
                    }  // a device that cannot be made current: the job reports it
                });
        }
        return std::find(ok.begin(), ok.end(), 0) == ok.end();
    } catch (...) {
        return false;  // a thread that could not start
    }
}

DeviceScope::DeviceScope(int index) {
    check(gpuGetDevice(&previous_), "device query");
    if (previous_ == index) return;
    check(gpuSetDevice(index), "selecting a device");
    restore_ = true;
}

DeviceScope::~DeviceScope() {
    if (restore_ && gpuSetDevice(previous_) != gpuSuccess) (void)gpuGetLastError();
}

}  // namespace warplab::compute::gpu
