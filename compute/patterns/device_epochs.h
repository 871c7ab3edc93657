// The device-epoch path of findPatterns: the channel (a study: its segments laid end
// to end) goes to the GPU once, epochs are spans of it read by the band kernel at their
// offsets (compute/engine/epoch_matrix.h), and each block of finished rows is reduced on the host
// while the device computes the next. Called by pattern_discovery.cpp, which keeps the layout
// (study_layout.h) and the per-row reduction, so that both paths rank with the same code.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "compute/patterns/pattern_discovery.h"
#include "compute/patterns/quality.h"
#include "compute/patterns/study_layout.h"
#include "compute/engine/epoch_matrix.h"

namespace warplab::compute {

// The request's samples as one buffer: segment k at offset[k] (end to end, no gap), each read
// through readSegment (checked finite; different segments read in parallel, each segment's
// reader from one thread). A single recording in memory, or segments that are views laid end
// to end in one buffer of the caller's (loadSegments), is used as it is, and its finite check
// is left in `check` for the caller to run: it reads the whole channel, as the devices' upload
// does, so the two run side by side (EpochMatrixRequest::alongSetup).
struct ChannelBuffer {
    std::unique_ptr<float[]> owned;  // not zeroed: every sample is written by its reader
    const float* samples = nullptr;
    long long sampleCount = 0;
    std::vector<Stretch> stretches;  // one per segment: {offset[k], segment k's samples}
    std::function<void()> check;     // empty when the samples were checked as they were read
};
ChannelBuffer channelBuffer(const PatternRequest& r, const SegmentedLayout& L);

struct DeviceEpochRowsInput {
    const PatternRequest& request;
    const SegmentedLayout& layout;
    const std::vector<float>& query;          // readPatternQueries
    std::size_t rowBegin = 0, rowEnd = 0;     // the share of patterns (global rows) computed here
    Params params;
    bool dpx = false;
    std::size_t rowBlock = 32;                // patterns per block (3 blocks of rows held at once)
    // Row i (global; all epochs) -> its score, from the row in epoch order (sorted on the host)
    // or from the row sorted on the device (where the build can: gpuEpochMatrixSortsRows);
    // called from several threads at once, one row each. Both give the same score.
    std::function<PatternScore(std::size_t i, std::span<const double> row)> score;
    std::function<PatternScore(std::size_t i, SortedView<float> sorted)> scoreSorted;
    // Where the matrix is kept: row i in epoch order (several threads at once); else null.
    std::function<void(std::size_t i, std::span<const double> row)> keepRow;
};

// Fills out.ranked (pattern order), out.epochSeconds (reading the channel, laying out the
// epochs), engineSeconds, rankSeconds, and calls request.matrixSink per block of rows (global
// row numbers). Throws what gpuEpochMatrix or the readers throw.
void computeDeviceEpochRows(const DeviceEpochRowsInput& in, const RunOptions& options, PatternRanking& out);

}  // namespace warplab::compute
