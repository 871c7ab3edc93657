// Cross-validation from one matrix of the whole study (crossval.h, crossValidateCached): each
// channel's patterns x epochs matrix is computed once, and every fold ranks, builds its detector
// and sweeps its held-out recording from rows and columns of it. Each row is sorted once
// (sorted_matrix.h), so a fold's rows come sorted by skipping its held-out columns, in linear
// time: that order takes 4 bytes per matrix cell beside the matrix's 8 (415 patterns x 589,823
// epochs: 0.98 GB beside 1.96 GB).
#include <algorithm>
#include <chrono>

#include "compute/core/error.h"
#include "compute/detect/crossval.h"
#include "compute/detect/crossval_folds.h"
#include "compute/patterns/sorted_matrix.h"

namespace warplab::compute {

namespace {

using K = EngineError::Kind;

// The matrix's share of the progress bar, then its rows' sort; the folds share the rest.
constexpr double kMatrixShare = 0.9, kSortShare = 0.02;

// Where a fold lies in one channel's whole-study matrix: its rows (patterns) and columns
// (epochs) are those of every recording but the held-out one, in the study's order, which is
// the order the fold's own layout numbers them in (withoutRecording keeps the order).
struct FoldMap {
    std::vector<std::size_t> rows, cols;  // fold row / column -> whole-study row / column
    const SegmentSummary* held = nullptr; // the held-out recording's segment (null: the channel lacks it)
    // The whole-study columns the fold leaves out (the held-out recording's; empty without one).
    std::size_t skipBegin() const { return held ? held->epochBegin : 0; }
    std::size_t skipEnd() const { return held ? held->epochBegin + held->epochCount : 0; }
};

FoldMap foldMap(const PatternRanking& whole, int heldOut) {
    FoldMap m;
    for (const SegmentSummary& s : whole.segments) {
        if (s.recordingIndex == heldOut) {
            m.held = &s;
            continue;
        }
        for (std::size_t i = 0; i < s.patternCount; ++i) m.rows.push_back(s.patternBegin + i);
        for (std::size_t j = 0; j < s.epochCount; ++j) m.cols.push_back(s.epochBegin + j);
    }
    return m;
}

// Whether a ranked pattern is one unbroken stretch of its recording. Discovery compares the
// concatenation of a recording's seizures; the detector cuts its pattern from the recording at
// the same start. Both are the same samples unless the pattern runs from one seizure into the
// next, where its matrix row is not the detector pattern's distances.
bool unbroken(const PatternRanking& rk, const PatternScore& s) {
    const long long last = s.querySample + rk.epoch - 1;
    return queryToRecordingSample(rk.segments[s.segment].seizures, last) == s.recordingSample + rk.epoch - 1;
}

void copyRow(const DistanceMatrix& m, std::size_t row, const std::vector<std::size_t>& cols, std::span<double> out) {
    const double* v = m.values.data() + row * m.cols;
    for (std::size_t j = 0; j < cols.size(); ++j) out[j] = v[cols[j]];
}

}  // namespace

CrossvalCache crossValidateCached(const std::vector<PatternRequest>& requests, const CrossvalOptions& o,
                                  const RunOptions& run) {
    const std::vector<const PatternSegment*> held = heldOutRecordings(requests, o.folds);
    const JobProgress progress(run);
    CrossvalCache cache;
    cache.options = o;
    cache.totalS = studySeconds(requests);

    // Every pattern of the study against every epoch, once per channel, kept whole. The pattern
    // run is the one discovery uses (GPUs, devices, threads, cancel); its own ranking is unused.
    std::vector<PatternRequest> study = requests;
    for (auto& r : study) {
        r.keepMatrix = true;
        r.matrixSink = {};
        r.patternBegin = r.patternEnd = 0;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<PatternRanking> matrices = findPatterns(study, progress.stage(0.0, kMatrixShare));
    const auto t1 = std::chrono::steady_clock::now();
    cache.matrixSeconds = std::chrono::duration<double>(t1 - t0).count();
    for (const auto& m : matrices)
        if (m.matrix.rows != m.patternCount || m.matrix.cols != m.epochCount)
            throw EngineError(K::BadInput, "matrix", "the study's pattern matrix of channel '" + m.channel + "' was not kept");
    // Every row sorted once; each fold's sorted rows are these with its held-out columns skipped.
    std::vector<SortedMatrix> sorted;
    sorted.reserve(matrices.size());
    for (const auto& m : matrices) sorted.emplace_back(m.matrix, run);
    if (run.progress) progress.stage(kMatrixShare, kMatrixShare + kSortShare).progress(1.0);

    const double n = double(held.size());
    constexpr double kFoldsAt = kMatrixShare + kSortShare;
    for (std::size_t k = 0; k < held.size(); ++k) {
        checkCancelled(run);
        const PatternSegment& test = *held[k];
        const double lo = kFoldsAt + (1 - kFoldsAt) * double(k) / n, step = (1 - kFoldsAt) / n;
        const std::vector<PatternRequest> training = withoutRecording(requests, test.recordingIndex);
        CachedFold fold = foldOf(test, training, requests.front().rateHz);

        // The fold's discovery: its sub-matrix ranked as findPatterns ranks its own matrix.
        std::vector<FoldMap> maps;
        std::vector<PatternRanking> rankings;
        for (std::size_t c = 0; c < training.size(); ++c) {
            maps.push_back(foldMap(matrices[c], test.recordingIndex));
            const FoldMap& m = maps.back();
            const SortedMatrix& whole = sorted[c];
            const double at = lo + step * 0.9 * double(c) / double(training.size());
            rankings.push_back(rankSortedPatternRows(
                training[c],
                [&](std::size_t i, SortedRow& row) { whole.sortedWithout(m.rows[i], m.skipBegin(), m.skipEnd(), row); },
                progress.stage(at, at + step * 0.9 / double(training.size()))));
            const PatternRanking& rk = rankings.back();
            if (rk.patternCount != m.rows.size() || rk.epochCount != m.cols.size())
                throw EngineError(K::BadInput, "matrix", "fold " + test.recording + " does not lie in the study's matrix");
        }

        // Its detector: the training distances of each chosen pattern are its matrix row over
        // the fold's columns. wholeRows: per detector pattern, its study row (-1: swept apart).
        std::vector<long long> wholeRows;
        const TrainingSweep sweep = [&](std::size_t c, const std::vector<std::vector<float>>& samples) {
            const PatternRanking& rk = rankings[c];
            std::vector<std::vector<double>> dist(samples.size());
            std::vector<std::vector<float>> apart;
            std::vector<std::size_t> apartAt;
            for (std::size_t p = 0; p < samples.size(); ++p) {
                const PatternScore& s = rk.ranked[p];
                if (unbroken(rk, s)) {
                    const std::size_t row = maps[c].rows[s.index];
                    dist[p].resize(rk.epochCount);
                    copyRow(matrices[c].matrix, row, maps[c].cols, dist[p]);
                    wholeRows.push_back((long long)row);
                } else {
                    apart.push_back(samples[p]);
                    apartAt.push_back(p);
                    wholeRows.push_back(-1);
                }
            }
            if (!apart.empty()) {
                auto part = trainingDistances(training[c], rk, apart, run);
                for (std::size_t a = 0; a < apart.size(); ++a) dist[apartAt[a]] = std::move(part[a]);
            }
            return dist;
        };
        fold.detector = buildDetector(training, rankings, o.build, run, &fold.rocs, sweep);
        if (wholeRows.size() != fold.detector.patterns.size())
            throw EngineError(K::BadInput, "matrix", "fold " + test.recording + ": a detector pattern has no matrix row");

        // The held-out sweep: the same rows over the held-out recording's columns, checked as
        // applyDetector checks a recording.
        const Detector& d = fold.detector;
        Detection& det = fold.detection;
        det.distances.resize(d.patterns.size());
        for (std::size_t q = 0; q < d.patterns.size(); ++q) {
            const std::size_t c = std::size_t(
                std::find_if(requests.begin(), requests.end(), [&](const PatternRequest& r) { return r.channel == d.patterns[q].channel; }) -
                requests.begin());
            const FoldMap* m = c < maps.size() ? &maps[c] : nullptr;
            if (!m || !m->held) {
                heldOutSamples(requests, test, d.patterns[q].channel);  // the channel lacks it: throws
                throw EngineError(K::BadInput, "channel", test.recording + " has no channel '" + d.patterns[q].channel + "'");
            }
            if (m->held->sampleCount < d.epoch)
                throw EngineError(K::BadInput, "epoch",
                                  "channel '" + d.patterns[q].channel + "' has " + std::to_string(m->held->sampleCount) +
                                      " samples, shorter than one epoch (" + std::to_string(d.epoch) + ")");
            if (wholeRows[q] >= 0) {
                const double* v = matrices[c].matrix.values.data() + std::size_t(wholeRows[q]) * matrices[c].matrix.cols +
                                  m->held->epochBegin;
                det.distances[q].assign(v, v + m->held->epochCount);
            } else {
                auto part = epochDistances({d.patterns[q].samples}, heldOutSamples(requests, test, d.patterns[q].channel),
                                           d.epoch, d.stride, d.band, run);
                det.distances[q] = std::move(part.front());
            }
        }
        decide(d, det);
        cache.folds.push_back(std::move(fold));
        if (run.progress) progress.stage(lo, lo + step).progress(1.0);
    }
    cache.foldSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    progress.done();
    return cache;
}

}  // namespace warplab::compute
