// The baseline GPU kernel family: one block per pair, threads along an anti-diagonal, three
// rotating diagonals (the linear-memory scheme of the TWED paper). Any length, any metric of
// the distance matrix (euclidean, dtw, cdtw, softdtw, twed), accumulated in float or double.
#pragma once
#include "compute/core/params.h"
#include "compute/gpu/runtime/launch_args.h"

namespace warplab::compute::gpu {

// Computes every pair of `pairs` (device arrays) on stream `s`. `scratch` grows when the
// diagonals of the longest pair do not fit in shared memory.
template <typename T>
void launchAntidiagonal(Metric metric, const PackedDevice& rows, const PackedDevice& cols,
                        const PairsView& pairs, const MetricArgs<T>& args,
                        DeviceBuffer<unsigned char>& scratch, gpuStream_t s);

}  // namespace warplab::compute::gpu
