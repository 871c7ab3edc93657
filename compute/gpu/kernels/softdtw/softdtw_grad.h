// Soft-DTW value and gradient with respect to x for a batch of pairs on the GPU (Cuturi &
// Blondel's forward recursion, then their backward recursion for the expected alignment E),
// for a future barycenter or learning feature, in fp64 or fp32.
#pragma once
#include <cstddef>
#include <vector>

#include "compute/core/device_batch.h"
#include "compute/core/params.h"
#include "compute/core/series.h"

namespace warplab::compute::gpu {

struct SoftDtwGradients {
    std::vector<double> values;                 // R(n-1, m-1) of each pair (raw, no --sqrt)
    std::vector<std::vector<double>> gradients; // d value / d x, length * dims per pair
    double kernelSeconds = 0;                   // forward + backward + chain rule on the device (events,
                                                // after the work buffer's allocation and the uploads)
};

// Fp64: one block per pair along anti-diagonals, R and E in device memory, any channel count.
// Fp32: one block per pair, a warp per stripe of rows, rows in registers (softdtw_grad_fp32.cu),
// univariate only; within 1e-5 (value, relative) and 1e-3 of the largest |gradient| of the fp64
// reference.
enum class GradientPrecision { Fp64, Fp32 };

// The fp32 kernels' shape: rows per lane (4, 8 or 16; a stripe of 32 lanes covers 32 times
// that) and warps per pair (1 to 8, the stripes of a pair in flight at once). 0 chooses
// (chosenGradientShape, which also caps the warps at the longest pair's stripes: the shape that
// runs). The warps never change a bit; the rows per lane may move the last bits
// (where the compiler contracts a product into a sum differently at lane boundaries).
struct GradientShape {
    int rowsPerLane = 0;
    int warpsPerPair = 0;
};
GradientShape chosenGradientShape(int maxLength, std::size_t pairs, GradientShape asked = {});

// Pairs (x[i], y[i]); x and y have the same count. params.gamma and params.cost are used.
// Throws EngineError (BadInput: NaN, sizes, channels; Device: no device, out of memory).
SoftDtwGradients softDtwGradientBatch(const SeriesSet& x, const SeriesSet& y, const Params& params,
                                      GradientPrecision precision = GradientPrecision::Fp64, GradientShape shape = {});

// The same kernels on a batch already on the device (read and written in place, on its stream;
// returns once the stream has finished the batch). The samples are not checked for NaN here:
// the caller does that where the data lives. Throws EngineError (BadInput: sizes, channels with
// fp32, null pointers; Device: no device, out of memory).
void softDtwGradientOnDevice(const SoftDtwDeviceBatch& batch, const Params& params);

}  // namespace warplab::compute::gpu
