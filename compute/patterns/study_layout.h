// Where patterns and epochs lie when a pattern request has several segments (a study: one
// segment per recording). The single-recording request is the one-segment case.
//
// Numbering: rows (patterns) and columns (epochs) are numbered globally, segment after
// segment. Segment k's patterns are the spans of length e at stride s of its own query (the
// concatenation of its own seizures); its epochs are those of its own samples. Nothing crosses from
// one segment into the next, so no pattern or epoch spans a file boundary or a gap. Ictal
// labels are worked out per segment (METRICS.md: at least half inside that recording's seizures).
//
// Epoch blocks: the pattern pipeline computes the matrix a block of columns at a time. A block
// here is up to `eb` consecutive columns, possibly from several segments; its samples are the
// concatenation of one stretch per segment ("pieces"), and epochOffset[j] says where epoch
// c0 + j starts in that buffer (for one segment, simply j * s).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "compute/patterns/epoch_layout.h"

namespace warplab::compute {

struct PatternRequest;

struct SegmentPlan {
    std::string recording;
    int recordingIndex = -1;
    double clockStartS = 0;
    long long n = 0, epochs = 0, patterns = 0, query = 0;
    std::vector<SampleSpan> spans;           // merged seizure spans of this segment
    std::size_t epochBegin = 0, patternBegin = 0, queryBegin = 0;  // global column / row / query offset
    std::size_t ictalCount = 0;
};

// The layout of a whole request (the pattern pipeline's `Layout`): totals, labels, segments.
struct SegmentedLayout {
    long long n = 0, epochs = 0, patterns = 0, query = 0;  // summed over segments
    std::vector<SampleSpan> spans;        // one segment: its spans (PatternRanking::seizures); else empty
    std::vector<unsigned char> ictal;     // per global epoch
    std::size_t ictalCount = 0;
    std::vector<SegmentPlan> segments;
};

// One block of columns [c0, c1) and where its samples come from.
struct EpochPiece {
    std::size_t segment = 0;
    long long first = 0, count = 0;  // samples [first, first+count) of that segment
    std::size_t bufferOffset = 0;    // where they go in the block's buffer
};
struct EpochBlock {
    std::size_t c0 = 0, c1 = 0;
    std::vector<EpochPiece> pieces;
    std::vector<std::size_t> epochOffset;  // per column c0 + j: its start in the buffer
    std::size_t bufferSamples = 0;
};

// Validates the segments of a study request (after the parameter checks every request gets)
// and lays them out. Throws EngineError: BadParameter "segments" when the single-recording
// fields are set as well; BadInput "segments[k]" (a segment without samples),
// "segments[k].seizures[i]" (naming the recording), "seizures" (no seizure anywhere, every
// recording's seizures shorter than one epoch, no ictal or no interictal epoch), "epoch" (no
// recording as long as one epoch).
SegmentedLayout segmentedLayoutOf(const PatternRequest& r);

// Throws EngineError (BadInput "seizures") unless `L` has an ictal and an interictal epoch:
// quality compares the two classes. `ch` names the channel in the message.
void requireIctalAndInterictal(const SegmentedLayout& L, const std::string& ch);

// The one-segment plan of a single-recording request whose totals are already in `L`.
void addSingleSegment(const PatternRequest& r, SegmentedLayout& L);

// Blocks of at most `eb` columns, in column order.
std::vector<EpochBlock> epochBlocks(const SegmentedLayout& L, long long e, long long s, std::size_t eb);

// Samples of segment k: a view when the segment (or the single recording) is in memory, else
// nullptr. readSegment reads [start, start+count) through the view or reader; both forms
// check that the samples are finite (BadInput "samples" naming channel, recording, sample).
const float* segmentView(const PatternRequest& r, std::size_t k);
void readSegment(const PatternRequest& r, const SegmentedLayout& L, std::size_t k, long long start, long long count,
                 float* out);
void checkSegmentFinite(const PatternRequest& r, const SegmentedLayout& L, std::size_t k, long long start,
                        long long count, const float* v);

// A block's samples: a view into the caller's samples when the block is one piece of an
// in-memory segment, else read into `buffer`. Checked finite either way.
const float* epochBlockSamples(const PatternRequest& r, const SegmentedLayout& L, const EpochBlock& b,
                               std::vector<float>& buffer);

// The concatenated queries of all segments (segment k's at plan.queryBegin).
std::vector<float> readPatternQueries(const PatternRequest& r, const SegmentedLayout& L);

// Pattern i (global row) and epoch j (global column) back to their segment.
struct PatternOrigin {
    std::size_t segment = 0;
    long long querySample = 0;      // in that segment's query
    long long recordingSample = 0;  // in that segment's samples
    std::size_t queryOffset = 0;    // in readPatternQueries' buffer
};
PatternOrigin patternOrigin(const SegmentedLayout& L, std::size_t i, long long stride);
struct EpochOrigin {
    std::size_t segment = 0;
    long long local = 0;            // epoch index inside the segment (starts at local * s)
};
EpochOrigin epochOrigin(const SegmentedLayout& L, std::size_t j);

// Seconds in messages: milliseconds at most, trailing zeros dropped ("3.004 s", "2.5 s").
std::string secondsText(double s);

}  // namespace warplab::compute
