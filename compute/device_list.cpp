// GPU labels for views (device_list.h): the GPU library's list when one is linked.
#include "compute/device_list.h"

#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/device_set.h"
#include "compute/gpu/runtime/gpu_device.h"
#endif

namespace warplab::compute {

std::vector<std::string> gpuDeviceLabels() {
    std::vector<std::string> out;
#if WARPLAB_HAVE_GPU
    for (int d = 0; d < gpu::deviceCount(); ++d) out.push_back(gpu::deviceLabel(d));
#endif
    return out;
}

std::jthread warmUpGpus(std::vector<int> devices) {
    return std::jthread([devices = std::move(devices)] {
#if WARPLAB_HAVE_GPU
        std::vector<int> list;
        try {
            list = gpu::resolveDevices(devices);
        } catch (...) {
            return;
        }
        std::vector<std::jthread> each;
        for (int d : list) each.emplace_back([d] { gpu::startContext(d); });
#else
        (void)devices;
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
