// The narrow-band cdtw kernel (`cuda.band`): one thread per pair, the whole Sakoe-Chiba band
// of the current row in registers. For bands up to kMaxBandKernelHalfWidth and series of one
// common length (the pattern-search workload: many epochs of one length against patterns of
// that length); everything else goes to the general shuffle kernel (launchShuffleDtw).
#pragma once
#include "compute/core/params.h"
#include "compute/gpu/runtime/launch_args.h"

namespace warplab::compute::gpu {

constexpr int kMaxBandKernelHalfWidth = 32;

// True when launchBandCdtw takes these inputs: cdtw, univariate, band <= 32, every row and
// column series of one length.
bool bandKernelApplies(const PackedDevice& rows, const PackedDevice& cols, const Params& params);

// Computes every pair of `pairs` (raw accumulated cost, as the other kernels). Requires
// bandKernelApplies(); throws EngineError(Internal) otherwise.
// dpx: the three-input minimum as one Hopper DPX integer operation (see band_cdtw_kernel.h);
// the same results bit for bit.
void launchBandCdtw(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs,
                    const Params& params, gpuStream_t s, bool dpx = false);

// One instantiation per half-width W (band_cdtw_w*.cu, split so that they compile in parallel):
// every pair of `pairs`, one thread each, in blocks of the kernel's own size.
template <int W>
void launchBandWidth(bool absCost, bool dpx, SetView rows, SetView cols, PairsView pairs, int n, gpuStream_t s);

}  // namespace warplab::compute::gpu
