// The lane kernels compiled for baseline (flags set for this file in compute/CMakeLists.txt).
#include <experimental/simd>

#include "compute/cpu/dtw_lanes.h"

namespace warplab::compute::lanes::baseline {
#include "compute/cpu/dtw_lanes_impl.h"
}  // namespace warplab::compute::lanes::baseline
