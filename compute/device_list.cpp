// GPU labels for views (device_list.h): the GPU library's list when one is linked.
#include "compute/device_list.h"

#if WARPLAB_HAVE_GPU
#include "compute/gpu/device_set.h"
#include "compute/gpu/gpu_device.h"
#endif

namespace warplab::compute {

std::vector<std::string> gpuDeviceLabels() {
    std::vector<std::string> out;
#if WARPLAB_HAVE_GPU
    for (int d = 0; d < gpu::deviceCount(); ++d) out.push_back(gpu::deviceLabel(d));
#endif
    return out;
}

std::string gpuUnavailableReason() {
#if WARPLAB_HAVE_GPU
    return gpu::unavailableReason();
#else
    return "this program was built without a GPU backend";
#endif
}

}  // namespace warplab::compute
