// The device-epoch path of findPatterns (issue 10): the whole channel goes to the GPU once,
// epochs are windows of it read by the band kernel at their offsets (compute/window_matrix.h),
// and each block of finished rows is reduced on the host while the device computes the next.
// Called by pattern_discovery.cpp, which keeps the layout and the per-row reduction, so that
// both paths rank with the same code.
#pragma once
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "compute/patterns/pattern_discovery.h"

namespace warplab::compute {

struct WindowRowsInput {
    const PatternRequest& request;
    const std::vector<float>& query;          // concatenated seizures; pattern i = [i*s, i*s+e)
    const std::vector<long long>* starts;     // epoch starts, or nullptr for j * s
    std::size_t epochs = 0, patterns = 0;
    Params params;
    bool dpx = false;
    std::size_t rowBlock = 32;                // patterns per block (3 blocks of rows held at once)
    // Samples [start, start+count) of the channel, checked finite (a view or the reader).
    std::function<void(long long start, long long count, float* out)> read;
    // Row i (all epochs) -> its score; called from several threads at once, one row each.
    std::function<PatternScore(std::size_t i, std::span<const double> row)> score;
};

// Fills out.ranked (pattern order), out.epochSeconds, engineSeconds, rankSeconds, and calls
// request.matrixSink per block of rows. Throws what gpuWindowMatrix or the reader throws.
void computeWindowRows(const WindowRowsInput& in, const RunOptions& options, PatternRanking& out);

}  // namespace warplab::compute
