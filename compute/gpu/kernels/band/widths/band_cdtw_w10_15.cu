// Band cdtw kernels for half-widths 10..15 (see band_cdtw_kernel.h): one file per range so
// that the instantiations compile in parallel.
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"

#include "compute/gpu/kernels/band/band_cdtw_kernel.h"

namespace warplab::compute::gpu {
WL_BAND_INSTANTIATE(10)
WL_BAND_INSTANTIATE(11)
WL_BAND_INSTANTIATE(12)
WL_BAND_INSTANTIATE(13)
WL_BAND_INSTANTIATE(14)
WL_BAND_INSTANTIATE(15)
}  // namespace warplab::compute::gpu
