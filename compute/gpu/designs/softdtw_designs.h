// The soft-DTW kernel designs that cuTimeWarp ("cuTimeWarp: Accelerating Soft Dynamic Time
// Warping on GPU", 2021) compares, written anew for WarpLab's registry so that the
// Kernels view and `bench` can set them beside WarpLab's own kernels on the same inputs:
//   Naive     one thread per pair, the whole (n+1) x (m+1) R matrix row-major in global memory
//   Diagonal  one block per pair, threads along anti-diagonals, R stored diagonal-major in
//             global memory (the cells of one anti-diagonal contiguous: the threads coalesce)
//   Stencil   one block per pair, three rotating anti-diagonals and the two series in shared
//             memory; pairs too long for shared memory take Diagonal
//   Banded    Stencil restricted to the Sakoe-Chiba band of Params::band (METRICS.md's band rule,
//             cells outside it +inf); too long: Diagonal with the same band
// (cuTimeWarp's fifth design, the tiled wavefront for long series, is cuda.tiled.)
// All accumulate in fp32 with the stable base-2 soft-min of softmin_fast.h; soft-DTW only.
#pragma once
#include "compute/core/params.h"
#include "compute/gpu/runtime/launch_args.h"

namespace warplab::compute::gpu {

enum class SoftDtwDesign { Naive, Diagonal, Stencil, Banded };

// Whether the Stencil / Banded kernels hold every pair of these sets in shared memory (else
// they run as Diagonal).
bool softDtwStencilFits(const PackedDevice& rows, const PackedDevice& cols);

// Raw soft-DTW of every pair (same output layout as the other kernels). `scratch` grows for
// the global R matrices of Naive and Diagonal, at most a quarter of the free device memory; a
// pair whose matrix does not fit in that is refused (EngineError Device), never attempted.
// A metric other than softdtw is refused (EngineError BadParameter).
void launchSoftDtwDesign(SoftDtwDesign design, Metric metric, const PackedDevice& rows, const PackedDevice& cols,
                         const PairsView& pairs, const Params& params, DeviceBuffer<unsigned char>& scratch,
                         gpuStream_t s);

}  // namespace warplab::compute::gpu
