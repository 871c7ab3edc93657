// A named, selectable compute kernel (cpu.reference, cpu.simd, cuda.antidiagonal, ...). The
// engine, `warplab-cli bench` and the GUI's kernel comparison list and run them all alike.
#pragma once
#include <vector>
#include <cstddef>
#include <cstdint>
#include <string>

#include "compute/core/job.h"
#include "compute/core/params.h"
#include "compute/core/series.h"
#include "compute/core/tile.h"

namespace warplab::compute {

// One tile of a distance matrix to fill. Inputs are already preprocessed (z-normalised when
// asked); the kernel writes the raw accumulated cost (the engine applies --sqrt).
struct TileTask {
    const SeriesSet& rows;
    const SeriesSet& cols;
    const Params& params;
    Tile tile;
    bool upperOnly = false;  // symmetric all-pairs: only cells with col >= row are needed
    double* out = nullptr;   // tile.rows() x tile.cols(), row-major
    const CancelToken* cancel = nullptr;
    // Nonzero: rows and cols stay unchanged for as long as tasks carry this id (the engine
    // gives each call its own), so a kernel may keep what it packed from them between tiles.
    std::uint64_t inputsId = 0;
    // GPU kernels: the runtime indices of the devices the tile may run on (RunOptions::devices
    // resolved by the engine); null or empty: the thread's current device.
    const std::vector<int>* devices = nullptr;
};

class Kernel {
public:
    virtual ~Kernel() = default;
    virtual std::string name() const = 0;            // registry name, e.g. "cpu.simd"
    virtual std::string description() const = 0;     // one line for lists and tooltips
    virtual Backend backend() const = 0;
    virtual bool supports(Metric m) const = 0;
    // Empty when the kernel can run on this machine, else why not ("no CUDA device found").
    virtual std::string unavailableReason() const { return {}; }
    // CPU kernels: the engine runs several tiles at once on its thread pool.
    // GPU kernels: tiles are submitted one after another from one thread.
    virtual bool threadParallel() const { return backend() == Backend::Cpu; }
    // GPU kernels: how many tiles the engine should have in flight at once (from as many
    // threads), so that one tile's transfers overlap another's kernel.
    virtual int tilesInFlight() const { return 1; }
    // Among available kernels of one backend, the engine picks the highest priority by default.
    virtual int priority() const { return 0; }
    virtual std::size_t preferredTileRows() const { return 16; }
    virtual std::size_t preferredTileCols() const { return 64; }
    virtual void computeTile(const TileTask& task) = 0;
};

}  // namespace warplab::compute
