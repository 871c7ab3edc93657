// Seizure pattern discovery (METRICS.md, "Seizure pattern discovery"): for one EEG
// channel, every epoch-long span of the concatenated seizures (a pattern) is compared by band DTW with
// every epoch of the channel, and the patterns are ranked by how well their distances separate
// ictal from interictal epochs.
//
// The patterns x epochs matrix goes through Engine::distanceMatrixStreamed (patterns are the
// queries, epochs the targets), so the engine's fast CPU (SIMD) and GPU kernels do the work.
// It is computed in blocks of patterns x all epochs: each finished row is reduced to its
// quality, histogram and nearest epochs, and only one block of rows is held at a time
// (`memoryBudgetBytes`). Epochs are cut per block of columns from the channel (a view of the
// caller's samples, or read through a callback), so the epochs of a long channel never exist
// as copies all at once.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/results.h"
#include "compute/engine/engine.h"
#include "compute/patterns/epoch_layout.h"
#include "compute/patterns/quality.h"

namespace warplab::compute {

// Fills out[0..count) with samples [start, start+count) of the channel (physical units).
// Called from one thread at a time; may throw (an IoError of a lazy recording, say).
using SampleReader = std::function<void(long long start, long long count, float* out)>;

// One recording of a study: its samples of the channel, its seizures, and what
// results call it. Patterns are cut from this recording's own seizures (their concatenation,
// patterns never crossing into another recording) and epochs from this recording only, so
// nothing ever spans a file boundary or a gap between recordings.
struct PatternSegment {
    std::span<const float> samples;    // a view, or
    SampleReader reader;               // a lazy reader with
    long long sampleCount = 0;         // its sample count
    std::vector<SecondsSpan> seizures; // seconds from this recording's start (may be empty:
                                       // then the recording gives epochs but no pattern)
    std::string recording;             // name for results ("chb01_03.edf")
    int recordingIndex = -1;           // the caller's index (io::Study recording), passed through
    double clockStartS = 0;            // the study clock at this recording's first sample, seconds
};

// A segment's sample count whichever way it gives its samples (a view leaves sampleCount at 0),
// and all its samples: the view copied, or read whole through the reader.
long long segmentLength(const PatternSegment& s);
std::vector<float> segmentSamples(const PatternSegment& s);

struct PatternRequest {
    // The channel: either `samples` (a view; the caller keeps it alive for the call) or
    // `reader` with `sampleCount` (a lazy recording, a generated benchmark channel).
    // A study instead fills `segments` (one per recording) and leaves these four empty; the
    // single-recording form is the one-segment case of the same computation.
    std::span<const float> samples;
    SampleReader reader;
    long long sampleCount = 0;
    double rateHz = 0;                 // samples per second, > 0
    std::string channel;               // name for results and exports

    std::vector<SecondsSpan> seizures; // marked seizures of this channel, seconds
    std::vector<PatternSegment> segments; // a study: non-empty replaces samples/reader/
                                          // sampleCount/seizures (all must then be empty)
    // GPU band kernels: lay the channel (a study: its segments end to end) out in one host
    // buffer, upload it once and cut epochs on the device at their start offsets (never across
    // a segment's end), ranking each block of rows on the host while the device computes the
    // next (compute/engine/epoch_matrix.h, device_epochs.h). Holds the whole channel in host memory
    // and on the device, and 3 blocks of up to 32 rows within memoryBudgetBytes.
    // Off: epochs packed per tile through Engine::distanceMatrixStreamed (the older path).
    // Both paths give the same distances bit for bit and the same ranking.
    bool deviceEpochs = true;
    int epoch = 1024;                  // e: epoch and pattern length, samples
    int stride = 256;                  // s: stride of epochs and of patterns, samples
    int band = 16;                     // w: Sakoe-Chiba half-width of cdtw
    Quality quality = Quality::Auc;

    std::size_t histogramBins = 40;    // per pattern: ictal / interictal distance histograms
    std::size_t nearestCount = 10;     // per pattern: the nearest epochs kept
    bool keepMatrix = false;           // keep the whole matrix in the result, whatever its size
    // ... and keep it anyway when it takes at most this many bytes (so that a view can export
    // it); 0 = only when keepMatrix.
    std::size_t keepMatrixUpToBytes = std::size_t(64) << 20;
    // Rows of the matrix held at once are limited to this; 0 = 2 GiB.
    std::size_t memoryBudgetBytes = 0;
    std::size_t epochBlock = 0;        // epochs per engine call; 0 = automatic
    std::size_t patternBlock = 0;      // patterns per engine call; 0 = from the memory budget
    // Optional: every finished tile of the full matrix, in global (pattern, epoch)
    // coordinates, e.g. to io::MatrixStreamWriter for --dm-out. One thread at a time.
    TileSink matrixSink;
    // Only patterns [patternBegin, patternEnd) are computed and ranked (an MPI rank's share;
    // their scores are what the whole run gives them). patternEnd = 0: every pattern.
    std::size_t patternBegin = 0, patternEnd = 0;
};

// Equal-width histogram over [lo, hi] of one pattern's distances, split by epoch label.
struct DistanceHistogram {
    double lo = 0, hi = 0;
    std::vector<std::size_t> ictal, interictal;
    double binWidth() const { return ictal.empty() ? 0 : (hi - lo) / double(ictal.size()); }
};

struct NearEpoch {
    std::size_t epoch = 0;   // epoch index j (global: over all segments, in segment order)
    std::size_t segment = 0; // the segment (recording) it lies in; 0 for one recording
    double startS = 0;       // seconds from that segment's start: (j - epochBegin) * s / rate
    double clockS = 0;       // segment clockStartS + startS
    double distance = 0;
    bool ictal = false;
};

struct PatternScore {
    std::size_t index = 0;        // pattern index i (global: over all segments, in order)
    std::size_t segment = 0;      // the segment (recording) it was cut from; 0 for one recording
    double quality = 0;
    long long querySample = 0;    // offset in that segment's query: (i - patternBegin) * s
    long long recordingSample = 0;// where the pattern starts in that segment's channel
    double startS = 0;            // recordingSample / rate
    double clockS = 0;            // segment clockStartS + startS
    double meanIctal = 0, meanInterictal = 0;
    DistanceHistogram histogram;
    std::vector<NearEpoch> nearest;  // ascending distance
};

// Where each segment's patterns and epochs lie in the global (row, column) numbering.
struct SegmentSummary {
    std::string recording;
    int recordingIndex = -1;
    double clockStartS = 0;
    long long sampleCount = 0;
    std::size_t patternBegin = 0, patternCount = 0;  // rows [patternBegin, +patternCount)
    std::size_t epochBegin = 0, epochCount = 0;      // columns [epochBegin, +epochCount)
    std::size_t ictalCount = 0;
    std::vector<SampleSpan> seizures;                // merged sample spans of this segment
};

struct PatternRanking {
    std::string channel;
    std::vector<SegmentSummary> segments;  // one per segment (one for a single recording)
    double rateHz = 0;
    long long sampleCount = 0;             // summed over segments
    int epoch = 0, stride = 0, band = 0;
    Quality quality = Quality::Auc;
    std::vector<SampleSpan> seizures;      // merged, sorted sample spans of the query (one
                                           // recording; a study: see segments[k].seizures)
    std::vector<unsigned char> epochIctal; // label per epoch
    std::size_t epochCount = 0, ictalCount = 0, patternCount = 0;
    std::vector<PatternScore> ranked;      // best first (ties: lower pattern index first)
    DistanceMatrix matrix;                 // patterns (index order) x epochs when kept (else 0 x 0)
    std::string kernel;                    // the kernel that computed the matrix
    double seconds = 0;                    // wall time of the whole run, of which:
    double epochSeconds = 0;               //   reading the channel and cutting epochs, of which
    double readSeconds = 0;                //     reading samples (views: the finite check)
    double engineSeconds = 0;              //   the matrix (Engine::distanceMatrixStreamed)
    double rankSeconds = 0;                //   reducing rows to qualities, histograms, ranking
                                           //   (device epochs: the host's share not overlapped
                                           //   by the device; engineSeconds the rest of the call)
    bool deviceEpochs = false;             // the matrix came from the device-epoch path
    // Device epochs: getting the devices ready (channel upload, buffers; a view's finite check,
    // counted in readSeconds, runs at the same time), per device the time its blocks kept it
    // busy (kernels, row sort, copies), and the span from its first block's start to its last
    // block's end (busy + idle between blocks).
    double deviceSetupSeconds = 0;
    std::vector<double> deviceBusySeconds, deviceSpanSeconds;
    // And on the host: before the setup (devices, peer access, pair lists), the devices' first
    // blocks queued, the blocks' loop (set up -> last block ranked), freeing the devices'
    // buffers (EpochMatrixStats).
    double devicePrepSeconds = 0, deviceQueueSeconds = 0, deviceLoopSeconds = 0, deviceTeardownSeconds = 0;
    double cells = 0;                      // band cells computed (for throughput figures)
};

// Throws EngineError: BadParameter naming "epoch", "stride", "band", "rate"; BadInput naming
// "seizures", "seizures[i]", "samples"; Cancelled; whatever the engine or reader throws.
PatternRanking findPatterns(const PatternRequest& request, const RunOptions& options);

// Several channels as one job (one ranking per channel); progress covers the whole job.
std::vector<PatternRanking> findPatterns(const std::vector<PatternRequest>& requests, const RunOptions& options);

// Ranks the patterns of `request` from distances already computed and sorted, without any DTW:
// row(i, out) fills `out` with pattern i's distances (one per epoch, the request's own
// numbering: validatePatternRequest's shape) sorted by (distance, epoch), in the float view when
// every distance is a float, as sortRow gives them. The scores and order are findPatterns' for the
// same distances (the same reduction of each sorted row); the matrix, kernel and device figures
// are left empty. Called from several threads at once, one row each; `out` is reused from row to
// row on a thread. Cross-validation ranks each fold this way from one matrix of the whole study,
// its rows sorted once (compute/detect/crossval.h, compute/patterns/sorted_matrix.h). Throws
// layout errors as findPatterns does, BadInput "rows" when a row holds another number of epochs
// than the request's, and Cancelled.
using SortedRowSource = std::function<void(std::size_t pattern, SortedRow& out)>;
PatternRanking rankSortedPatternRows(const PatternRequest& request, const SortedRowSource& row, const RunOptions& options);

// Reads every segment of a study request through its reader into one buffer, segment after
// segment (recordings in parallel, each segment's reader from one thread, in order), and makes
// the segments views of it. A caller does this while the GPUs start (warmUpGpus, device_list.h)
// rather than inside findPatterns, which then takes the buffer as it is, without a copy, and
// still refuses a sample that is not finite. The caller keeps the buffer alive for the job.
// Leaves the request as it is (and returns an empty buffer) when it has no segments or a
// segment is not a reader with a sample count. Throws what the readers throw.
struct LoadedSamples {
    std::unique_ptr<float[]> samples;
    long long count = 0;
};
LoadedSamples loadSegments(PatternRequest& request);

// Checks a request without computing anything (the same errors findPatterns throws first)
// and returns the size of its matrix (patterns x epochs), e.g. to open a stream writer.
struct PatternShape {
    std::size_t patterns = 0, epochs = 0, ictalEpochs = 0;
};
PatternShape validatePatternRequest(const PatternRequest& request);

// Band cells of one cdtw_w between two series of length e (for cells-per-second figures).
double cdtwBandCells(long long e, long long w);

// Patterns per block of the GPU pattern run (three blocks of rows x all epochs are held, in
// device and pinned host memory, within the budget; 0 = the default budget).
std::size_t deviceRowBlock(std::size_t memoryBudgetBytes, std::size_t epochs);
// Bytes of each large pinned host buffer (sorted distances, their epochs) of one block on each
// of `devices` GPUs, for a channel of `samples` samples: what a caller pins ahead of the run
// (compute::prewarmPinned, device_list.h) while it reads or generates the channel. An upper
// bound of what the run takes (compute/gpu/runtime/epoch_matrix.cu may cut blocks smaller).
std::size_t devicePinnedBufferBytes(long long samples, int epoch, int stride, std::size_t memoryBudgetBytes,
                                    int devices);

}  // namespace warplab::compute
