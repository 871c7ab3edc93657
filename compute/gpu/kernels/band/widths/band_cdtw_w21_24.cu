// Band cdtw kernels for half-widths 21..24 (see band_cdtw_kernel.h): one file per range so
// that the instantiations compile in parallel.
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"

#include "compute/gpu/kernels/band/band_cdtw_kernel.h"

namespace warplab::compute::gpu {
WL_BAND_INSTANTIATE(21)
WL_BAND_INSTANTIATE(22)
WL_BAND_INSTANTIATE(23)
WL_BAND_INSTANTIATE(24)
}  // namespace warplab::compute::gpu
