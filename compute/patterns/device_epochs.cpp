#include "compute/patterns/device_epochs.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string>

#include <tbb/parallel_for.h>

#include "compute/core/error.h"
#include "compute/core/huge_pages.h"

namespace warplab::compute {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Every segment a view, each starting where the one before it ends.
bool segmentsEndToEnd(const PatternRequest& r) {
    if (r.segments.empty()) return false;
    for (std::size_t k = 0; k < r.segments.size(); ++k) {
        const auto& v = r.segments[k].samples;
        if (v.empty()) return false;
        if (k > 0) {
            const auto& p = r.segments[k - 1].samples;
            if (v.data() != p.data() + p.size()) return false;
        }
    }
    return true;
}

}  // namespace

LoadedSamples loadSegments(PatternRequest& r) {
    LoadedSamples out;
    if (r.segments.empty()) return out;
    std::vector<long long> offset(r.segments.size());
    for (std::size_t k = 0; k < r.segments.size(); ++k) {
        const PatternSegment& g = r.segments[k];
        if (!g.samples.empty() || !g.reader || g.sampleCount <= 0) return {};  // findPatterns reports these
        offset[k] = out.count;
        out.count += g.sampleCount;
    }
    out.samples.reset(new float[std::size_t(out.count)]);
    // Touched first by the readers, while the GPUs' contexts are made: 2 MiB pages take 512
    // times fewer faults, each of which waits on the address space the drivers are mapping.
    adviseHugePages(out.samples.get(), std::size_t(out.count) * sizeof(float));
    constexpr long long kPiece = 1LL << 24;
    tbb::parallel_for(std::size_t(0), r.segments.size(), [&](std::size_t k) {
        const PatternSegment& g = r.segments[k];
        for (long long a = 0; a < g.sampleCount; a += kPiece)
            g.reader(a, std::min(kPiece, g.sampleCount - a), out.samples.get() + offset[k] + a);
    }, tbb::simple_partitioner());
    for (std::size_t k = 0; k < r.segments.size(); ++k) {
        PatternSegment& g = r.segments[k];
        g.samples = std::span<const float>(out.samples.get() + offset[k], std::size_t(g.sampleCount));
        g.reader = nullptr;
        g.sampleCount = 0;
    }
    return out;
}

ChannelBuffer channelBuffer(const PatternRequest& r, const SegmentedLayout& L) {
    ChannelBuffer b;
    const std::size_t nSeg = L.segments.size();
    std::vector<long long> offset(nSeg);
    for (std::size_t k = 0; k < nSeg; ++k) {
        offset[k] = b.sampleCount;
        b.stretches.push_back({b.sampleCount, L.segments[k].n});
        b.sampleCount += L.segments[k].n;
    }
    if (r.segments.empty() && !r.samples.empty()) {
        // A view as it is (no copy), to be checked in parallel slices with the same finite test
        // and message as the reader path.
        b.check = [&r, &L, n = b.sampleCount] {
            const long long slice = 1LL << 22;
            tbb::parallel_for(0LL, (n + slice - 1) / slice, [&](long long q) {
                const long long a = q * slice, c = std::min(n - a, slice);
                checkSegmentFinite(r, L, 0, a, c, r.samples.data() + a);
            });
        };
        b.samples = r.samples.data();
        return b;
    }
    if (segmentsEndToEnd(r)) {
        // The segments already lie end to end in one buffer: used as it is, each slice checked
        // with its own segment's message.
        b.check = [&r, &L, offset] {
            const long long slice = 1LL << 22;
            tbb::parallel_for(std::size_t(0), L.segments.size(), [&](std::size_t k) {
                const long long n = L.segments[k].n;
                tbb::parallel_for(0LL, (n + slice - 1) / slice, [&](long long q) {
                    const long long a = q * slice, c = std::min(n - a, slice);
                    checkSegmentFinite(r, L, k, a, c, r.segments[k].samples.data() + a);
                });
            });
        };
        b.samples = r.segments.front().samples.data();
        return b;
    }
    // A study's recordings are read in parallel (an io::Study recording has its own EDF
    // handle); within one segment the reader is called from one thread, in order. The buffer is
    // not zeroed first: the readers' first touch of its pages is spread over the threads.
    b.owned.reset(new float[std::size_t(b.sampleCount)]);
    adviseHugePages(b.owned.get(), std::size_t(b.sampleCount) * sizeof(float));
    constexpr long long kPiece = 1LL << 24;  // 64 MB of floats per read call
    tbb::parallel_for(std::size_t(0), nSeg, [&](std::size_t k) {
        for (long long a = 0; a < L.segments[k].n; a += kPiece)
            readSegment(r, L, k, a, std::min(kPiece, L.segments[k].n - a), b.owned.get() + offset[k] + a);
    }, tbb::simple_partitioner());
    b.samples = b.owned.get();
    return b;
}

void computeDeviceEpochRows(const DeviceEpochRowsInput& in, const RunOptions& options, PatternRanking& out) {
    const PatternRequest& r = in.request;
    const SegmentedLayout& L = in.layout;
    const std::size_t e = std::size_t(r.epoch);
    const auto tRead = std::chrono::steady_clock::now();
    const ChannelBuffer channel = channelBuffer(r, L);
    out.readSeconds += secondsSince(tRead);

    EpochMatrixRequest q;
    // Epoch starts: each segment's epochs at its offset, in the global column order of the
    // layout (segment after segment), so column j here is column j of the host path.
    q.starts = epochStarts(channel.stretches, channel.sampleCount, r.epoch, r.stride);
    if (q.starts.size() != std::size_t(L.epochs))
        throw EngineError(EngineError::Kind::Internal, "epochs",
                          "the device path cut " + std::to_string(q.starts.size()) + " epochs, the layout " +
                              std::to_string(L.epochs));
    // Patterns of this share: pattern i is the epoch-long span of its own segment's query at
    // patternOrigin(L, i, s).queryOffset (never i * s once there are several segments).
    const std::size_t nRows = in.rowEnd - in.rowBegin;
    std::vector<float> patterns(nRows * e);
    for (std::size_t i = in.rowBegin; i < in.rowEnd; ++i)
        std::memcpy(patterns.data() + (i - in.rowBegin) * e,
                    in.query.data() + patternOrigin(L, i, r.stride).queryOffset, e * sizeof(float));
    q.queries = patterns.data();
    q.queryCount = nRows;
    q.samples = channel.samples;
    q.sampleCount = channel.sampleCount;
    q.e = r.epoch;
    q.params = in.params;
    q.dpx = in.dpx;
    q.rowBlock = in.rowBlock;
    out.epochSeconds += secondsSince(tRead);
    // The view's finite check, while the devices take their copies of the channel: the device
    // work starts only after it passed (gpuEpochMatrix), so a bad sample is still refused
    // before any distance is computed.
    double checkSeconds = 0;
    if (channel.check)
        q.alongSetup = [&] {
            const auto t = std::chrono::steady_clock::now();
            channel.check();
            checkSeconds = secondsSince(t);
        };

    const std::size_t nE = q.starts.size();
    // Rows sorted on the device where the build can (the host then only scans them); rows in
    // epoch order as well where the matrix is kept or streamed out.
    q.sortRows = gpuEpochMatrixSortsRows() && in.scoreSorted != nullptr;
    q.keepRows = !q.sortRows || in.keepRow != nullptr || r.matrixSink != nullptr;
    EpochMatrixStats stats;
    q.stats = &stats;
    // The blocks of several devices are ranked at once (each block's rows in parallel too);
    // the scores and the matrix sink are taken one block at a time. Blocks arrive in any order:
    // findPatterns sorts the scores by (quality, index), and the sink writes tiles in place.
    q.concurrentSink = true;
    std::mutex taking;
    const auto tCall = std::chrono::steady_clock::now();
    gpuEpochMatrix(q, [&](const RowBlock& block) {
        const std::size_t r0 = block.rowBegin, r1 = block.rowEnd;
        std::vector<PatternScore> scores(r1 - r0);
        tbb::parallel_for(r0, r1, [&](std::size_t i) {
            const std::size_t at = (i - r0) * nE;
            if (block.rows && in.keepRow) in.keepRow(in.rowBegin + i, std::span<const double>(block.rows + at, nE));
            scores[i - r0] = block.sortedDistance
                                 ? in.scoreSorted(in.rowBegin + i, SortedView<float>{std::span<const float>(block.sortedDistance + at, nE),
                                                                                     std::span<const std::uint32_t>(block.sortedEpoch + at, nE)})
                                 : in.score(in.rowBegin + i, std::span<const double>(block.rows + at, nE));
        });
        std::lock_guard lock(taking);
        for (auto& sc : scores) out.ranked.push_back(std::move(sc));
        if (r.matrixSink) r.matrixSink(Tile{in.rowBegin + r0, in.rowBegin + r1, 0, nE}, block.rows);
    }, options);
    // The ranking's share of the time: what the calling thread waited for it (on one device
    // mostly while the device computed the next blocks; the rest of the ranking ran beside).
    const double rank = stats.sinkWaitSeconds;
    out.readSeconds += checkSeconds;
    out.epochSeconds += checkSeconds;
    out.engineSeconds += secondsSince(tCall) - rank - checkSeconds;
    out.deviceSetupSeconds += stats.setupSeconds;
    out.devicePrepSeconds += stats.prepSeconds;
    out.deviceQueueSeconds += stats.queueSeconds;
    out.deviceLoopSeconds += stats.loopSeconds;
    out.deviceTeardownSeconds += stats.teardownSeconds;
    out.deviceBusySeconds.resize(std::max(out.deviceBusySeconds.size(), stats.deviceSeconds.size()), 0.0);
    out.deviceSpanSeconds.resize(out.deviceBusySeconds.size(), 0.0);
    for (std::size_t d = 0; d < stats.deviceSeconds.size(); ++d) {
        out.deviceBusySeconds[d] += stats.deviceSeconds[d];
        out.deviceSpanSeconds[d] += stats.spanSeconds[d];
    }
    out.rankSeconds += rank;
}

}  // namespace warplab::compute
