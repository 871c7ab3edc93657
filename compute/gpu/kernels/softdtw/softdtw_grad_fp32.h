// The fp32 soft-DTW value and gradient batch (softDtwGradientBatch with GradientPrecision::Fp32,
// softdtw_grad.h): a forward pass in the warp-shuffle layout that stores the DP matrix, then a
// backward pass that never stores E. Univariate series only.
#pragma once
#include "compute/gpu/kernels/softdtw/softdtw_grad.h"

namespace warplab::compute::gpu {

SoftDtwGradients softDtwGradientBatchFp32(const SeriesSet& x, const SeriesSet& y, const Params& params);

}  // namespace warplab::compute::gpu
