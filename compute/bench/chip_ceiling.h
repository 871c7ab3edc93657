// The arithmetic ceiling of a GPU for a metric, in DP cells per second, where it is known, so
// that the kernel-comparison chart can draw it next to the measured kernels.
#pragma once
#include <optional>
#include <string>

#include "compute/core/params.h"

namespace warplab::compute {

struct ChipCeiling {
    double cellsPerSecond = 0;
    std::string label;  // e.g. "NVIDIA H100 fp32 min/max pipe"
};

// Known for Hopper (H100, H200: 132 SMs at 1.98 GHz): fp32 dtw/cdtw/sdtw 8.4e12 (the min/max
// pipe at half the FMA rate), softdtw 1.4e12 (the exp/log unit), twed 3.3e12. nullopt for other
// devices and metrics.
std::optional<ChipCeiling> ceilingFor(const std::string& deviceName, Metric metric);

// The ceiling of the GPU this process uses; nullopt without a GPU backend or device.
std::optional<ChipCeiling> gpuCeiling(Metric metric);

}  // namespace warplab::compute
