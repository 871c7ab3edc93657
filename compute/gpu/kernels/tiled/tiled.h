// The tiled wavefront for series too long for one block (`cuda.tiled`, `hip.tiled`): the DP
// matrix of each pair is cut into tiles of kTiledRows x kTiledCols cells, one group of 32 lanes
// per tile (kTiledRowsPerLane rows per lane in registers, the columns swept in a skewed
// wavefront with shuffles). Tiles on one tile anti-diagonal are independent, so one launch
// covers one tile diagonal of every pair of the batch. Between tiles the DP lives in linear
// memory per pair: the bottom row of the tile above (one float per column), the right column
// of the tile to the left (one per row) and the corner cells, which both of those overwrite
// one diagonal too early (three rotating slots per tile column). dtw, cdtw (tiles wholly
// outside the band are never swept), softdtw and twed; univariate, fp32 accumulation.
#pragma once
#include "compute/core/params.h"
#include "compute/gpu/runtime/launch_args.h"

namespace warplab::compute::gpu {

constexpr int kTiledLanes = 32;
constexpr int kTiledRowsPerLane = 16;
constexpr int kTiledRows = kTiledLanes * kTiledRowsPerLane;  // 512
constexpr int kTiledCols = 512;

// dtw, cdtw, softdtw or twed on univariate series; anything else takes the anti-diagonal kernel.
bool tiledApplies(const PackedDevice& rows, const PackedDevice& cols, const Params& params);

// Launches (tile diagonals) per batch of pairs whose longest series are maxRows x maxCols.
int tiledDiagonals(int maxRows, int maxCols);

// Raw distance of every pair (same output layout as the other kernels). `scratch` grows for
// the boundary buffers; pairs go in batches whose buffers fit a quarter of the free memory.
void launchTiled(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs, const Params& params,
                 DeviceBuffer<float>& scratch, gpuStream_t s);

}  // namespace warplab::compute::gpu
