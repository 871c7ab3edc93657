// The register-tiled TWED kernel (`cuda.twed`, `cuda.twed_fp64`): a group of G lanes per pair,
// R rows of the query per lane, the columns swept in a skewed wavefront with the bottom cell of
// each lane passed down by a warp shuffle. For univariate rows of one length n <= 1024 and
// columns of one length (any m); everything else goes to the anti-diagonal kernel.
#pragma once
#include "compute/core/params.h"
#include "compute/gpu/runtime/launch_args.h"

namespace warplab::compute::gpu {

constexpr int kTwedWarpMaxRows = 1024;

bool twedWarpApplies(const PackedDevice& rows, const PackedDevice& cols, const Params& params);

// Raw TWED of every pair (same output layout as the other kernels). Requires twedWarpApplies().
template <typename T>
void launchTwedWarp(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs,
                    const Params& params, gpuStream_t s);

}  // namespace warplab::compute::gpu
