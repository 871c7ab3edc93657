// A batch of soft-DTW pairs already in GPU memory, read in place: the Python module hands the
// engine PyTorch's CUDA tensors so (their device pointers), with no trip through host memory.
#pragma once

namespace warplab::compute {

struct SoftDtwDeviceBatch {
    const float* x = nullptr;   // count x n x dims floats, C order, on `device`
    const float* y = nullptr;   // count x m x dims floats, C order, on `device`
    int count = 0, n = 0, m = 0, dims = 1;
    int device = 0;
    void* stream = nullptr;     // the caller's cudaStream_t (hipStream_t); null: the default stream
    double* values = nullptr;   // count values, written (raw, no --sqrt)
    void* gradients = nullptr;  // count x n x dims, d value / d x, written: float with fp32, else double
    bool fp32 = false;          // the fp32 kernels (univariate) instead of the fp64 ones
};

}  // namespace warplab::compute
