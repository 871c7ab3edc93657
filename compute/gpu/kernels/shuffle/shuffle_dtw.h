// The register-tiled warp-shuffle kernel for dtw and cdtw (`cuda.shuffle`); subsequence DTW
// has its own stripe kernel (sdtw_passes.h). Each lane holds R rows of the query in
// registers; the G lanes of a group sweep the columns in a skewed wavefront, passing the
// bottom cell of their rows down with a shuffle. Rows beyond G*R are further "stripes" whose
// boundary row goes through a buffer in device memory, so every length has a path. Cells
// outside the Sakoe-Chiba band are never computed: each segment only visits its band columns,
// and narrow bands use short segments and small groups, several pairs per warp.
#pragma once
#include "compute/core/params.h"
#include "compute/gpu/runtime/launch_args.h"

namespace warplab::compute::gpu {

// dtw / cdtw / softdtw (params.metric), univariate, fp32. `scratch` grows for the stripe buffers.
void launchShuffleDtw(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs,
                      const Params& params, DeviceBuffer<float>& scratch, gpuStream_t s);

// The rows per lane and lanes per group launchShuffleDtw picks (for reports and tests).
struct ShuffleShape { int rowsPerLane, groupLanes; };
ShuffleShape shuffleShape(int maxRows, long bandWidth /* < 0: full */, bool twin);

}  // namespace warplab::compute::gpu
