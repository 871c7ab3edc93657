// The fp32 soft-DTW value and gradient batch (softDtwGradientBatch with GradientPrecision::Fp32,
// softdtw_grad.h): a forward pass in the warp-shuffle layout that stores half the DP matrix (every
// other step's columns and every bottom row), then a backward pass that recomputes the rest and
// never stores E. Univariate series only.
#pragma once
#include "compute/gpu/kernels/softdtw/softdtw_grad.h"

namespace warplab::compute::gpu {

SoftDtwGradients softDtwGradientBatchFp32(const SeriesSet& x, const SeriesSet& y, const Params& params,
                                          GradientShape shape = {});

}  // namespace warplab::compute::gpu
