#include "compute/patterns/pattern_discovery.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "compute/core/error.h"
#include "compute/core/thread_arena.h"
#include "compute/patterns/device_epochs.h"
#include "compute/patterns/study_layout.h"

namespace warplab::compute {

namespace {

using K = EngineError::Kind;

constexpr std::size_t kDefaultBudget = std::size_t(2) << 30;  // rows of doubles held at once
constexpr std::size_t kCpuEpochBlock = 16384;                 // 64 MiB of epochs at e = 1024
constexpr std::size_t kGpuEpochBlock = 65536;                 // fewer, larger launches and copies

}  // namespace

long long segmentLength(const PatternSegment& s) { return s.samples.empty() ? s.sampleCount : (long long)s.samples.size(); }

std::vector<float> segmentSamples(const PatternSegment& s) {
    if (!s.samples.empty()) return {s.samples.begin(), s.samples.end()};
    std::vector<float> out(std::size_t(std::max(0LL, s.sampleCount)));
    if (s.sampleCount > 0) s.reader(0, s.sampleCount, out.data());
    return out;
}

namespace {

long long channelLength(const PatternRequest& r) {
    return r.samples.empty() ? r.sampleCount : (long long)r.samples.size();
}


// What validation works out once: spans, labels, sizes, and the segments (study_layout.h; one
// for a single recording).
using Layout = SegmentedLayout;

Layout layoutOf(const PatternRequest& r) {
    const std::string ch = r.channel.empty() ? std::string("the channel") : "channel '" + r.channel + "'";
    if (!(r.rateHz > 0) || !std::isfinite(r.rateHz))
        throw EngineError(K::BadParameter, "rate", "sampling rate must be a finite number > 0 Hz, got " + std::to_string(r.rateHz));
    if (r.epoch < 1)
        throw EngineError(K::BadParameter, "epoch", "epoch length e must be >= 1 sample, got " + std::to_string(r.epoch));
    if (r.stride < 1)
        throw EngineError(K::BadParameter, "stride", "stride s must be >= 1 sample, got " + std::to_string(r.stride) +
                                                         " (s = 0 would repeat the same epoch without end)");
    if (r.band < 0)
        throw EngineError(K::BadParameter, "band", "band w must be >= 0, got " + std::to_string(r.band));
    if (!r.segments.empty()) return segmentedLayoutOf(r);  // a study: one segment per recording
    Layout L;
    L.n = channelLength(r);
    if (L.n <= 0 || (r.samples.empty() && !r.reader))
        throw EngineError(K::BadInput, "samples", ch + " has no samples");
    if (r.epoch > L.n)
        throw EngineError(K::BadParameter, "epoch",
                          "epoch length e = " + std::to_string(r.epoch) + " samples is longer than " + ch + " (" +
                              std::to_string(L.n) + " samples, " + secondsText(double(L.n) / r.rateHz) + ")");
    if (r.seizures.empty())
        throw EngineError(K::BadInput, "seizures",
                          "no seizure marked on " + ch + ": mark at least one seizure region (--seizures, --summary or --annotation)");
    L.spans = seizureSampleSpans(r.seizures, r.rateHz, L.n);
    L.query = queryLength(L.spans);
    if (L.query < r.epoch)
        throw EngineError(K::BadInput, "seizures",
                          "the marked seizures of " + ch + " total " + std::to_string(L.query) + " samples (" +
                              secondsText(double(L.query) / r.rateHz) + "), shorter than one epoch (e = " +
                              std::to_string(r.epoch) + " samples, " + secondsText(r.epoch / r.rateHz) +
                              "): mark longer seizures or choose a smaller epoch");
    L.epochs = epochCount(L.n, r.epoch, r.stride);
    L.patterns = epochCount(L.query, r.epoch, r.stride);
    L.ictal = ictalEpochs(L.spans, L.epochs, r.epoch, r.stride);
    L.ictalCount = std::size_t(std::count(L.ictal.begin(), L.ictal.end(), 1));
    requireIctalAndInterictal(L, ch);
    addSingleSegment(r, L);
    return L;
}

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void checkCancel(const RunOptions& o) {
    if (o.cancel && o.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");
}

// Reduces one finished row, sorted by (distance, epoch), to the pattern's score: quality,
// histogram, class means and nearest epochs. Every path (host sort, device sort, float or
// double distances) goes through here, so equal sorted rows give bit-identical scores; the
// means are summed in sorted order for that reason.
template <typename D>
PatternScore scoreSorted(const PatternRequest& r, const Layout& L, std::size_t i, SortedView<D> sorted) {
    PatternScore sc;
    sc.index = i;
    const PatternOrigin origin = patternOrigin(L, i, r.stride);
    sc.segment = origin.segment;
    sc.querySample = origin.querySample;
    sc.recordingSample = origin.recordingSample;
    sc.startS = double(sc.recordingSample) / r.rateHz;
    sc.clockS = L.segments[sc.segment].clockStartS + sc.startS;
    sc.quality = qualitySorted(r.quality, sorted, L.ictal);

    const std::size_t n = sorted.size();
    double sumI = 0, sumN = 0;
    auto& h = sc.histogram;
    h.lo = double(sorted.distance.front());
    h.hi = double(sorted.distance.back());
    const std::size_t bins = std::max<std::size_t>(1, r.histogramBins);
    h.ictal.assign(bins, 0);
    h.interictal.assign(bins, 0);
    const double width = h.hi - h.lo;
    for (std::size_t k = 0; k < n; ++k) {
        const double v = double(sorted.distance[k]);
        std::size_t b = width > 0 ? std::size_t((v - h.lo) / width * double(bins)) : 0;
        b = std::min(b, bins - 1);
        if (L.ictal[sorted.epoch[k]]) {
            ++h.ictal[b];
            sumI += v;
        } else {
            ++h.interictal[b];
            sumN += v;
        }
    }
    sc.meanIctal = sumI / double(L.ictalCount);
    sc.meanInterictal = sumN / double(n - L.ictalCount);

    const std::size_t k = std::min(r.nearestCount, n);
    for (std::size_t q = 0; q < k; ++q) {
        const std::size_t j = sorted.epoch[q];
        const EpochOrigin eo = epochOrigin(L, j);
        const double startS = double(eo.local) * r.stride / r.rateHz;
        sc.nearest.push_back({j, eo.segment, startS, L.segments[eo.segment].clockStartS + startS, double(sorted.distance[q]),
                              L.ictal[j] != 0});
    }
    return sc;
}

// A host-sorted row, in the view sortRow chose, scored as above.
PatternScore scoreSortedRow(const PatternRequest& r, const Layout& L, std::size_t i, const SortedRow& s) {
    return s.floats ? scoreSorted(r, L, i, s.viewF()) : scoreSorted(r, L, i, s.viewD());
}

// A row in epoch order: sorted on the host, then scored as above.
PatternScore scoreRow(const PatternRequest& r, const Layout& L, std::size_t i, std::span<const double> row) {
    return scoreSortedRow(r, L, i, sortRow(row));
}

// What a ranking says of its request before any distance: channel, sizes, labels, segments.
PatternRanking rankingHeader(const PatternRequest& r, const Layout& L) {
    PatternRanking out;
    out.channel = r.channel;
    out.rateHz = r.rateHz;
    out.sampleCount = L.n;
    out.epoch = r.epoch;
    out.stride = r.stride;
    out.band = r.band;
    out.quality = r.quality;
    out.seizures = L.spans;
    out.epochIctal = L.ictal;
    out.epochCount = std::size_t(L.epochs);
    out.ictalCount = L.ictalCount;
    out.patternCount = std::size_t(L.patterns);
    for (const auto& p : L.segments)
        out.segments.push_back({p.recording, p.recordingIndex, p.clockStartS, p.n, p.patternBegin, std::size_t(p.patterns),
                                p.epochBegin, std::size_t(p.epochs), p.ictalCount, p.spans});
    return out;
}

// The best first, ties by the lower pattern index: a total order, so every path ranks alike.
void sortRanked(std::vector<PatternScore>& ranked) {
    std::stable_sort(ranked.begin(), ranked.end(), [](const PatternScore& a, const PatternScore& b) {
        return a.quality > b.quality || (a.quality == b.quality && a.index < b.index);
    });
}

PatternRanking run(const PatternRequest& r, const Layout& L, const RunOptions& options, double progressBase,
                   double progressScale) {
    const auto t0 = std::chrono::steady_clock::now();
    PatternRanking out = rankingHeader(r, L);

    Params params;
    params.metric = Metric::Cdtw;
    params.cost = Cost::Squared;
    params.band = r.band;
    const Kernel& kernel = Engine::resolveKernel(Metric::Cdtw, options);
    out.kernel = kernel.name();

    // The query (concatenated seizures; per segment for a study) is small: read it once;
    // patterns are its epoch-long spans, never crossing from one segment's query into the next.
    const std::vector<float> query = readPatternQueries(r, L);
    const std::size_t e = std::size_t(r.epoch);
    const std::size_t nP = out.patternCount, nE = out.epochCount;

    const std::size_t budget = r.memoryBudgetBytes ? r.memoryBudgetBytes : kDefaultBudget;
    const std::size_t pb = std::clamp<std::size_t>(r.patternBlock ? r.patternBlock : budget / (nE * sizeof(double)), 1, nP);
    const std::size_t eb = std::clamp<std::size_t>(r.epochBlock          ? r.epochBlock
                                                  : kernel.backend() == Backend::Cpu ? kCpuEpochBlock
                                                                                     : kGpuEpochBlock, 1, nE);

    const bool keep = r.keepMatrix || double(nP) * double(nE) * sizeof(double) <= double(r.keepMatrixUpToBytes);
    if (keep) {
        out.matrix.rows = nP;
        out.matrix.cols = nE;
        out.matrix.values.assign(nP * nE, 0.0);
        out.matrix.params = params;
    }

    // A share of the patterns (an MPI rank's), or all of them.
    const std::size_t pBegin = std::min(r.patternBegin, nP), pEnd = r.patternEnd ? std::clamp(r.patternEnd, pBegin, nP) : nP;
    const double total = std::max(1.0, double(pEnd - pBegin) * double(nE));
    const auto finish = [&] {
        sortRanked(out.ranked);
        if (keep) {
            for (std::size_t i = 0; i < nP; ++i) out.matrix.rowNames.push_back("pattern " + std::to_string(i));
            for (std::size_t j = 0; j < nE; ++j) out.matrix.colNames.push_back("epoch " + std::to_string(j));
        }
        out.cells = total * cdtwBandCells(r.epoch, r.band);
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (options.progress) options.progress(progressBase + progressScale);
    };
    if (r.deviceEpochs && pEnd > pBegin && gpuEpochMatrixUnavailable(kernel.name(), params).empty()) {
        // The channel (a study: its segments end to end) once to the device, epochs cut there,
        // rows ranked block by block (device_epochs.h); the same layout and scoreRow as
        // below, so the same ranking.
        out.deviceEpochs = true;
        out.ranked.reserve(pEnd - pBegin);
        DeviceEpochRowsInput in{r, L, query, pBegin, pEnd, params, kernel.name().find("band_dpx") != std::string::npos};
        in.rowBlock = deviceRowBlock(budget, nE);
        in.score = [&](std::size_t i, std::span<const double> row) { return scoreRow(r, L, i, row); };
        in.scoreSorted = [&](std::size_t i, SortedView<float> sorted) { return scoreSorted(r, L, i, sorted); };
        if (keep)
            in.keepRow = [&](std::size_t i, std::span<const double> row) {
                std::copy(row.begin(), row.end(), out.matrix.values.begin() + std::ptrdiff_t(i * nE));
            };
        RunOptions o = options;
        if (options.progress)
            o.progress = [&](double f) { options.progress(progressBase + progressScale * f); };
        computeDeviceEpochRows(in, o, out);
        finish();
        return out;
    }
    double done = 0;
    // One block of rows, allocated once and not zeroed (every cell is written by a tile
    // before it is read): at the published size that is 1.96 GB of memset saved.
    const std::unique_ptr<double[]> rows(new double[pb * nE]);
    std::vector<float> chunk;
    SeriesSet epochs;
    const std::vector<EpochBlock> blocks = epochBlocks(L, r.epoch, r.stride, eb);
    out.ranked.reserve(nP);
    for (std::size_t r0 = pBegin; r0 < pEnd; r0 += pb) {
        const std::size_t r1 = std::min(pEnd, r0 + pb);
        SeriesSet patterns;
        patterns.reserve(r1 - r0);
        for (std::size_t i = r0; i < r1; ++i) {
            const float* p = query.data() + patternOrigin(L, i, r.stride).queryOffset;
            patterns.emplace_back(std::vector<float>(p, p + e), 1, "pattern " + std::to_string(i));
        }
        for (const EpochBlock& block : blocks) {
            checkCancel(options);
            auto tBlock = std::chrono::steady_clock::now();
            const std::size_t c0 = block.c0, c1 = block.c1;
            // One block of epochs: one stretch of samples per segment it touches (for one
            // recording, samples [c0*s, (c1-1)*s + e)). In memory and in one piece, each epoch
            // is copied straight from the caller's view; else the stretches are read once into
            // `chunk` and the epochs cut from them (study_layout.h).
            const float* base = epochBlockSamples(r, L, block, chunk);
            out.readSeconds += secondsSince(tBlock);
            // The engine takes owning Series: each epoch is copied once, in parallel.
            epochs.resize(c1 - c0);
            tbb::parallel_for(std::size_t(0), c1 - c0, [&](std::size_t j) {
                const float* p = base + block.epochOffset[j];
                epochs[j].values.assign(p, p + e);
                epochs[j].length = e;
                epochs[j].dims = 1;
            });

            out.epochSeconds += secondsSince(tBlock);
            tBlock = std::chrono::steady_clock::now();
            RunOptions o = options;
            const double blockCells = double(r1 - r0) * double(c1 - c0);
            if (options.progress)
                o.progress = [&, blockCells](double f) {
                    options.progress(progressBase + progressScale * (done + f * blockCells) / total);
                };
            Engine::distanceMatrixStreamed(patterns, &epochs, params, o, [&](const Tile& t, const double* v) {
                for (std::size_t a = 0; a < t.rows(); ++a)
                    std::copy(v + a * t.cols(), v + (a + 1) * t.cols(), rows.get() + (t.rowBegin + a) * nE + c0 + t.colBegin);
                if (r.matrixSink) r.matrixSink(Tile{r0 + t.rowBegin, r0 + t.rowEnd, c0 + t.colBegin, c0 + t.colEnd}, v);
            });
            done += blockCells;
            out.engineSeconds += secondsSince(tBlock);
        }
        checkCancel(options);
        const auto tRank = std::chrono::steady_clock::now();
        // Rows are independent: reduce them on all cores (each sorts up to n_e distances).
        std::vector<PatternScore> scores(r1 - r0);
        tbb::parallel_for(r0, r1, [&](std::size_t i) {
            std::span<const double> row(rows.get() + (i - r0) * nE, nE);
            scores[i - r0] = scoreRow(r, L, i, row);
            if (keep) std::copy(row.begin(), row.end(), out.matrix.values.begin() + std::ptrdiff_t(i * nE));
        });
        for (auto& sc : scores) out.ranked.push_back(std::move(sc));
        out.rankSeconds += secondsSince(tRank);
    }
    finish();
    return out;
}

}  // namespace

double cdtwBandCells(long long e, long long w) {
    if (w >= e - 1) return double(e) * double(e);
    return double(e) * double(2 * w + 1) - double(w) * double(w + 1);
}

PatternShape validatePatternRequest(const PatternRequest& request) {
    const Layout L = layoutOf(request);
    return {std::size_t(L.patterns), std::size_t(L.epochs), L.ictalCount};
}

PatternRanking findPatterns(const PatternRequest& request, const RunOptions& options) {
    const Layout L = layoutOf(request);
    return run(request, L, options, 0.0, 1.0);
}

std::vector<PatternRanking> findPatterns(const std::vector<PatternRequest>& requests, const RunOptions& options) {
    // Validate every channel before computing any, so a bad last channel fails at once.
    std::vector<Layout> layouts;
    double total = 0;
    for (const auto& r : requests) {
        layouts.push_back(layoutOf(r));
        total += double(layouts.back().patterns) * double(layouts.back().epochs);
    }
    std::vector<PatternRanking> out;
    double base = 0;
    for (std::size_t k = 0; k < requests.size(); ++k) {
        const double share = double(layouts[k].patterns) * double(layouts[k].epochs) / total;
        out.push_back(run(requests[k], layouts[k], options, base, share));
        base += share;
    }
    return out;
}

PatternRanking rankSortedPatternRows(const PatternRequest& request, const SortedRowSource& row, const RunOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    const Layout L = layoutOf(request);
    PatternRanking out = rankingHeader(request, L);
    const std::size_t nP = out.patternCount, nE = out.epochCount;
    out.ranked.resize(nP);
    // Rows are independent: each is filled and reduced on one core, as findPatterns reduces its
    // blocks of rows (the same scoreSorted, so the same scores for the same sorted distances).
    auto rankAll = [&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, nP, 1), [&](const tbb::blocked_range<std::size_t>& b) {
            SortedRow s;
            for (std::size_t i = b.begin(); i < b.end(); ++i) {
                if (options.cancel && options.cancel->cancelled()) return;
                row(i, s);
                if (s.epoch.size() != nE || (s.floats ? s.distanceF.size() : s.distanceD.size()) != nE)
                    throw EngineError(K::BadInput, "rows",
                                      "the sorted row of pattern " + std::to_string(i) + " of channel '" + request.channel +
                                          "' holds " + std::to_string(s.epoch.size()) + " epochs, not " + std::to_string(nE));
                out.ranked[i] = scoreSortedRow(request, L, i, s);
            }
        });
    };
    onThreads(options.threads, rankAll);
    checkCancel(options);
    sortRanked(out.ranked);
    out.rankSeconds = out.seconds = secondsSince(t0);
    if (options.progress) options.progress(1.0);
    return out;
}

std::size_t deviceRowBlock(std::size_t memoryBudgetBytes, std::size_t epochs) {
    const std::size_t budget = memoryBudgetBytes ? memoryBudgetBytes : kDefaultBudget;
    return std::clamp<std::size_t>(budget / (3 * std::max<std::size_t>(epochs, 1) * sizeof(double)), 1, 32);
}

std::size_t devicePinnedBufferBytes(long long samples, int epoch, int stride, std::size_t memoryBudgetBytes,
                                    int devices) {
    if (epoch <= 0 || stride <= 0) return 0;
    const std::size_t epochs = std::size_t(epochCount(samples, epoch, stride));
    if (epochs == 0) return 0;
    // The run gives each of D devices blocks of rowBlock / D rows (epoch_matrix.cu).
    const std::size_t rows = std::max<std::size_t>(1, deviceRowBlock(memoryBudgetBytes, epochs) / std::size_t(std::max(devices, 1)));
    return rows * epochs * sizeof(float);
}

}  // namespace warplab::compute
