// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/gpu_device.h"

namespace warplab::compute::gpu {

namespace {

// Why the device count failed, in words: "no device" is the normal state of a machine without
// a GPU (or without its driver); anything else is the runtime failing to start.
std::string countFailure(gpuError_t err) {
    const std::string code = gpuGetErrorString(err);
#if WL_GPU_HIP
    if (err == hipErrorNoDevice) return "no HIP device found (" + code + ": no AMD GPU visible through /dev/kfd)";
    if (err == hipErrorInsufficientDriver) return "no HIP device usable: the amdgpu kernel driver is missing or too old (" + code + ")";
#else
    if (err == cudaErrorNoDevice) return "no CUDA device found (" + code + ")";
    if (err == cudaErrorInsufficientDriver) return "no CUDA device usable: the NVIDIA driver is missing or too old (" + code + ")";
#endif
    return "the " WL_GPU_RUNTIME_NAME " runtime failed to start (" + code + ")";
}

#if WL_GPU_HIP && defined(WARPLAB_HIP_ARCHS)
// The kernels exist only for the offload targets hipcc built (WARPLAB_HIP_ARCHS, "gfx90a,gfx908");
// on any other AMD GPU every launch would fail, so that device counts as unavailable.
bool builtFor(const std::string& gcnArchName) {
    const std::string arch = gcnArchName.substr(0, gcnArchName.find(':'));  // "gfx90a:sramecc+:xnack-"
    const std::string built = "," WARPLAB_HIP_ARCHS ",";
    return built.find("," + arch + ",") != std::string::npos;
}
#endif

struct DeviceInfo {
    std::string reason;
    int device = 0;  // the device asked about (the current one at the first question)
    int sms = 0;
};

// Asked once: the answer does not change while the process runs. Every GPU command asks it
// before its contexts start, so it asks only what it needs, one attribute; the whole property
// set (the name) takes milliseconds per question and is asked only where a name is shown.
const DeviceInfo& info() {
    static const DeviceInfo d = [] {
        DeviceInfo r;
        int count = 0;
        gpuError_t err = gpuGetDeviceCount(&count);
        if (err != gpuSuccess) {
            (void)gpuGetLastError();
            r.reason = countFailure(err);
            return r;
        }
        if (count == 0) {
            r.reason = "no " WL_GPU_RUNTIME_NAME " device found";
            return r;
        }
        if (gpuGetDevice(&r.device) != gpuSuccess ||
            gpuDeviceGetAttribute(&r.sms, gpuDevAttrMultiProcessorCount, r.device) != gpuSuccess) {
            (void)gpuGetLastError();
            r.reason = "the " WL_GPU_RUNTIME_NAME " device could not be queried";
            return r;
        }
#if WL_GPU_HIP && defined(WARPLAB_HIP_ARCHS)
        gpuDeviceProp prop{};
        if (gpuGetDeviceProperties(&prop, r.device) != gpuSuccess) {
            (void)gpuGetLastError();
            r.reason = "the " WL_GPU_RUNTIME_NAME " device could not be queried";
            return r;
        }
        if (!builtFor(prop.gcnArchName)) {
            r.reason = std::string("the HIP device ") + prop.name + " (" + prop.gcnArchName +
                       ") has no kernels in this build, made for " WARPLAB_HIP_ARCHS " (set WARPLAB_HIP_ARCHS)";
            return r;
        }
#endif
        return r;
    }();
    return d;
}
}  // namespace

const std::string& unavailableReason() { return info().reason; }
bool available() { return info().reason.empty(); }
std::string deviceName() {
    if (!available()) return {};
    static const std::string name = [] {
        gpuDeviceProp prop{};
        if (gpuGetDeviceProperties(&prop, info().device) == gpuSuccess) return std::string(prop.name);
        (void)gpuGetLastError();
        return std::string("unknown device");
    }();
    return name;
}
int multiprocessorCount() { return info().sms; }

}  // namespace warplab::compute::gpu
