// Runs one GPU kernel design over one tile: packs and uploads the tile's series, lists its
// pairs, launches, and downloads the results. Shared by the registered kernels (gpu_kernels.cu)
// and the device benchmark (gpu_bench.cu), which also wants the kernel time alone.
#pragma once
#include "compute/registry/kernel.h"
#include "compute/gpu/runtime/launch_args.h"
#include "compute/gpu/runtime/tile_streams.h"

namespace warplab::compute::gpu {

// Band: the narrow-band cdtw kernel where it applies (band_cdtw.h), else the shuffle kernel;
// BandDpx the same with Hopper's DPX three-input minimum.
// TwedWarp: the register-tiled TWED kernel where it applies (twed_warp.h), else anti-diagonal.
// ShuffleDpx / ShuffleWave: the wavefront full-DTW kernel (shuffle_dpx.h), with / without DPX,
// where it applies, else as BandDpx / Band.
// Tiled: the tiled wavefront across blocks for long series (tiled.h) where it applies (one
// channel), else anti-diagonal.
// SoftNaive, SoftDiagonal, SoftStencil, SoftBanded: cuTimeWarp's soft-DTW designs
// (softdtw_designs.h), softdtw only.
enum class Design {
    Antidiagonal, Shuffle, Band, TwedWarp, BandDpx, ShuffleDpx, ShuffleWave, Tiled,
    SoftNaive, SoftDiagonal, SoftStencil, SoftBanded
};

// The design and accumulation of a registered GPU matrix kernel (gpu_kernels.cu); false for any
// other kernel. The device benchmark runs the kernel's own design through it.
bool registeredDesign(const Kernel& kernel, Design& design, bool& fp64);

class MatrixRunner {
public:
    MatrixRunner(Design design, bool fp64) : design_(design), fp64_(fp64) {}
    // Fills task.out (tile.rows() x tile.cols(); cells below the diagonal stay 0 with
    // upperOnly). Returns the device time of the launches alone, in seconds. Safe to call from
    // several threads: each call takes one of the runner's tile streams (tile_streams.h), so up to
    // tileStreamLimit() tiles are in flight at once.
    double run(const TileTask& task);
    // Launches on already-uploaded data (benchmark path, one thread); pairs are device arrays.
    void launch(Metric metric, const Params& params, const PackedDevice& rows, const PackedDevice& cols,
                const PairsView& pairs, gpuStream_t s);

private:
    double runOnTileStream(const TileTask& task, TileStreamLease& lease);
    void launch(Metric metric, const Params& params, const PackedDevice& rows, const PackedDevice& cols,
                const PairsView& pairs, gpuStream_t s, DeviceBuffer<unsigned char>& scratchBytes,
                DeviceBuffer<float>& scratchFloats);

    Design design_;
    bool fp64_;
    TileStreamPool tileStreams_;
    DeviceBuffer<unsigned char> benchScratchBytes_;  // for the public launch()
    DeviceBuffer<float> benchScratchFloats_;
};

}  // namespace warplab::compute::gpu
