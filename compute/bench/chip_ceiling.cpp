#include "compute/bench/chip_ceiling.h"

#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/gpu_device.h"
#endif

namespace warplab::compute {

std::optional<ChipCeiling> ceilingFor(const std::string& deviceName, Metric metric) {
    // H100 and H200 share the GH100 compute die: the same ceilings hold for both.
    const bool hopper = deviceName.find("H100") != std::string::npos || deviceName.find("H200") != std::string::npos;
    if (!hopper) return std::nullopt;
    switch (metric) {
        case Metric::Dtw:
        case Metric::Cdtw:
            return ChipCeiling{8.4e12, deviceName + " fp32 min/max pipe"};
        case Metric::Sdtw:
            // The search designs' half2 rows do two cells per instruction: their line is twice
            // as high, which the label says rather than drawing a second line.
            return ChipCeiling{8.4e12, deviceName + " fp32 min/max pipe (half2 rows: 16.8e12)"};
        case Metric::SoftDtw:
            return ChipCeiling{1.4e12, deviceName + " exp/log unit"};
        case Metric::Twed:
            return ChipCeiling{3.3e12, deviceName + " fp32 TWED"};
        case Metric::Euclidean:
            break;
    }
    return std::nullopt;
}

std::optional<ChipCeiling> gpuCeiling(Metric metric) {
#if WARPLAB_HAVE_GPU
    if (gpu::available()) return ceilingFor(gpu::deviceName(), metric);
#endif
    (void)metric;
    return std::nullopt;
}

}  // namespace warplab::compute
