// cpu.reference: the scalar reference as a registry kernel, one pair at a time in double.
// Slow but exact; every metric; the engine runs its tiles on all cores.
#include "compute/cpu/reference_kernel.h"

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"

namespace warplab::compute {

void ReferenceKernel::computeTile(const TileTask& task) {
    const Tile& t = task.tile;
    const bool zeroDiag = selfDistanceIsZero(task.params.metric);
    for (std::size_t r = t.rowBegin; r < t.rowEnd; ++r) {
        if (task.cancel && task.cancel->cancelled()) return;  // the engine reports Cancelled
        for (std::size_t c = t.colBegin; c < t.colEnd; ++c) {
            double& out = task.out[(r - t.rowBegin) * t.cols() + (c - t.colBegin)];
            if (task.upperOnly && c < r) continue;
            if (task.upperOnly && c == r && zeroDiag) { out = 0; continue; }
            out = reference::rawDistance(task.rows[r], task.cols[c], task.params);
        }
    }
}

}  // namespace warplab::compute
