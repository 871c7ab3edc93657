// The wavefront full-DTW kernel (`cuda.shuffle_dpx`, and `cuda.shuffle_wave` without DPX): the
// shuffle kernel's layout (R = 32 rows of the query per lane, G lanes per pair, the bottom cell
// passed down by a warp shuffle) cut to what full DTW on series of one length needs:
//  - S = 8 columns per step in a skewed order inside the lane (cell (k, j+1) right after
//    (k+1, j)), eight independent dependency chains per lane and the per-step work (shuffles,
//    loads, the end-of-pair check) spread over 8 x 32 cells (about 14 % faster than S = 2);
//  - the minimum of the three neighbours as one Hopper DPX integer operation on the float bits
//    (costs are >= 0 or +inf), so a cell is FADD, VIMNMX3, FFMA;
//  - the lanes of a group run through their pairs back to back (lane l one step behind lane
//    l-1), so the G - 1 step ramp of the wavefront is paid once per warp, not per pair.
// Applies to dtw (and cdtw with a band as wide as the series), univariate, every row of one
// length n <= 1024 and every column of one length m; the launcher sends everything else to the
// kernels it would otherwise use (band_dpx / shuffle).
#pragma once
#include "compute/core/params.h"
#include "compute/gpu/runtime/launch_args.h"

namespace warplab::compute::gpu {

constexpr int kWaveMaxRows = 1024;

// True when launchWaveDtw takes these inputs itself (see above).
bool waveKernelApplies(const PackedDevice& rows, const PackedDevice& cols, const Params& params);

// Computes every pair of `pairs` (raw accumulated cost). dpx: the three-input minimum as one DPX
// operation (CUDA only; two fminf elsewhere, same results bit for bit). Inputs that
// waveKernelApplies() rejects go to launchBandCdtw (where it applies, with the same dpx) or to
// launchShuffleDtw. maxBlocks > 0 caps the grid (tests: many rounds of pairs per group).
void launchWaveDtw(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs, const Params& params,
                   DeviceBuffer<float>& scratch, gpuStream_t s, bool dpx, int maxBlocks = 0);

}  // namespace warplab::compute::gpu
