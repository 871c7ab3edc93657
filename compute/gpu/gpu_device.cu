// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/gpu_runtime.h"
#include "compute/gpu/gpu_device.h"

#include "compute/gpu/gpu_runtime.h"

namespace warplab::compute::gpu {

namespace {
struct DeviceInfo {
    std::string reason;
    std::string name;
    int sms = 0;
};

// Asked once: the answer does not change while the process runs.
const DeviceInfo& info() {
    static const DeviceInfo d = [] {
        DeviceInfo r;
        int count = 0;
        gpuError_t err = gpuGetDeviceCount(&count);
        if (err != gpuSuccess) {
            (void)gpuGetLastError();
            r.reason = std::string("no " WL_GPU_RUNTIME_NAME " device found (") + gpuGetErrorString(err) + ")";
            return r;
        }
        if (count == 0) {
            r.reason = "no " WL_GPU_RUNTIME_NAME " device found";
            return r;
        }
        int dev = 0;
        gpuDeviceProp prop{};
        if (gpuGetDevice(&dev) != gpuSuccess || gpuGetDeviceProperties(&prop, dev) != gpuSuccess) {
            (void)gpuGetLastError();
            r.reason = "the " WL_GPU_RUNTIME_NAME " device could not be queried";
            return r;
        }
        r.name = prop.name;
        r.sms = prop.multiProcessorCount;
        return r;
    }();
    return d;
}
}  // namespace

const std::string& unavailableReason() { return info().reason; }
bool available() { return info().reason.empty(); }
std::string deviceName() { return info().name; }
int multiprocessorCount() { return info().sms; }

}  // namespace warplab::compute::gpu
