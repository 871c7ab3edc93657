// The fp32 soft-DTW value and gradient batch (softDtwGradientBatch with GradientPrecision::Fp32,
// softdtw_grad.h): a forward pass in the warp-shuffle layout that stores half the DP matrix (every
// other step's columns and every bottom row), then a backward pass that recomputes the rest and
// never stores E. Univariate series only.
#pragma once
#include "compute/gpu/kernels/softdtw/softdtw_grad.h"
#include "compute/gpu/runtime/packed_series.h"

namespace warplab::compute::gpu {

SoftDtwGradients softDtwGradientBatchFp32(const SeriesSet& x, const SeriesSet& y, const Params& params,
                                          GradientShape shape = {});

// The same kernels on series already on the device: `count` pairs, x of n samples and y of m
// (SetViews into device memory), values and the gradient (at `offsets`) written there, on
// `stream`, asynchronously (softDtwGradientOnDevice, softdtw_grad.h, is the checked entry).
void softDtwGradientOnDeviceFp32(SetView xv, SetView yv, int count, int n, int m, const Params& params, double* values,
                                 float* grads, const long long* offsets, gpuStream_t stream);

}  // namespace warplab::compute::gpu
