// Band cdtw kernels for half-widths 0..9 (see band_cdtw_kernel.h): one file per range so
// that the instantiations compile in parallel.
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"

#include "compute/gpu/kernels/band/band_cdtw_kernel.h"

namespace warplab::compute::gpu {
WL_BAND_INSTANTIATE(0)
WL_BAND_INSTANTIATE(1)
WL_BAND_INSTANTIATE(2)
WL_BAND_INSTANTIATE(3)
WL_BAND_INSTANTIATE(4)
WL_BAND_INSTANTIATE(5)
WL_BAND_INSTANTIATE(6)
WL_BAND_INSTANTIATE(7)
WL_BAND_INSTANTIATE(8)
WL_BAND_INSTANTIATE(9)
}  // namespace warplab::compute::gpu
