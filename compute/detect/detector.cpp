#include "compute/detect/detector.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <numeric>

#include <tbb/parallel_for.h>

#include "compute/core/error.h"
#include "compute/core/thread_arena.h"
#include "compute/engine/engine.h"
#include "compute/patterns/epoch_layout.h"

namespace warplab::compute {

namespace {

using K = EngineError::Kind;

// Epochs per engine call: bounds the copies of epochs held at once (4096 x 1024 floats = 16 MiB).
constexpr std::size_t kEpochBlock = 4096;

std::atomic<long long> distanceCalls{0};

// All samples of segment k of a request (the single recording when it has no segments).
std::vector<float> requestSamples(const PatternRequest& r, std::size_t k) {
    if (!r.segments.empty()) return segmentSamples(r.segments[k]);
    PatternSegment whole;
    whole.samples = r.samples;
    whole.reader = r.reader;
    whole.sampleCount = r.sampleCount;
    return segmentSamples(whole);
}

std::string fixed(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

std::optional<OperatingPoint> parseOperatingPoint(std::string_view text) {
    if (text == "youden") return OperatingPoint{};
    if (text.rfind("fpr:", 0) == 0) {
        const std::string_view v = text.substr(4);
        double x = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        if (ec != std::errc() || end != v.data() + v.size() || !(x >= 0 && x <= 1)) return std::nullopt;
        return OperatingPoint{OperatingPoint::Kind::FalsePositiveRate, x};
    }
    return std::nullopt;
}

std::string operatingPointName(const OperatingPoint& op) {
    return op.kind == OperatingPoint::Kind::Youden ? "youden" : "fpr:" + fixed(op.target);
}

std::vector<std::string> Detector::channels() const {
    std::vector<std::string> out;
    for (const auto& p : patterns)
        if (std::find(out.begin(), out.end(), p.channel) == out.end()) out.push_back(p.channel);
    return out;
}

namespace {

// The Youden point by one pass over the sorted distances. TPR - FPR = (tp * nN - fp * nI) /
// (nI * nN): compared in whole numbers, exactly. Ties: every epoch at the threshold votes.
RocPoint youdenPoint(const TrainingRoc& roc) {
    const std::size_t n = roc.distances.size();
    const long long nI = static_cast<long long>(roc.ictalCount), nN = static_cast<long long>(n) - nI;
    const double* d = roc.distances.data();
    const unsigned char* ictal = roc.ictal.data();
    long long tp = 0, fp = 0, bestJ = 0, bestTp = 0, bestFp = 0;
    double bestT = -1;
    for (std::size_t i = 0; i < n;) {
        const double t = d[i];
        for (; i < n && d[i] == t; ++i) {
            tp += ictal[i];
            fp += 1 - ictal[i];
        }
        const long long j = tp * nN - fp * nI;
        if (j > bestJ) {
            bestJ = j;
            bestT = t;
            bestTp = tp;
            bestFp = fp;
        }
    }
    // Below every distance: no vote at all (the threshold -1 can never be reached).
    if (bestJ == 0) return {-1, 0, 0};
    return {bestT, double(bestTp) / double(nI), double(bestFp) / double(nN)};
}

}  // namespace

TrainingRoc trainingRoc(std::span<const double> d, std::span<const unsigned char> ictal) {
    const std::size_t n = d.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return d[a] < d[b]; });
    TrainingRoc roc;
    roc.distances.resize(n);
    roc.ictal.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        roc.distances[i] = d[order[i]];
        roc.ictal[i] = ictal[order[i]] ? 1 : 0;
        roc.ictalCount += roc.ictal[i];
        if (!roc.ictal[i]) roc.interictalAt.push_back(std::uint32_t(i));
    }
    if (roc.ictalCount == 0 || roc.ictalCount == n)
        throw EngineError(K::BadInput, "seizures", "a threshold needs ictal and interictal training epochs");
    roc.youden = youdenPoint(roc);
    return roc;
}

RocPoint thresholdAt(std::span<const double> d, std::span<const unsigned char> ictal, const OperatingPoint& op) {
    return thresholdAt(trainingRoc(d, ictal), op);
}

RocPoint thresholdAt(const TrainingRoc& roc, const OperatingPoint& op) {
    const std::size_t n = roc.distances.size(), nN = roc.interictalAt.size();
    if (roc.ictalCount == 0 || nN == 0) throw EngineError(K::BadInput, "seizures", "a threshold needs ictal and interictal training epochs");
    if (op.kind == OperatingPoint::Kind::Youden) return roc.youden;
    // The most false positives the target allows: the largest k with k / nN <= target, as
    // compared in doubles.
    const double nNd = double(nN), nId = double(roc.ictalCount);
    std::size_t k = std::size_t(std::clamp(std::floor(op.target * nNd), 0.0, nNd));
    while (k < nN && double(k + 1) / nNd <= op.target) ++k;
    while (k > 0 && double(k) / nNd > op.target) --k;
    if (k >= nN) return {roc.distances[n - 1], 1.0, 1.0};
    // The (k+1)-th interictal epoch must not vote: the threshold is the largest distance below
    // its own (epochs tied with it would vote with it).
    const double stop = roc.distances[roc.interictalAt[k]];
    const std::size_t end = std::size_t(std::lower_bound(roc.distances.begin(), roc.distances.end(), stop) - roc.distances.begin());
    if (end == 0) return {-1, 0, 0};
    const std::size_t fp = std::size_t(std::lower_bound(roc.interictalAt.begin(), roc.interictalAt.end(), std::uint32_t(end)) -
                                       roc.interictalAt.begin());
    return {roc.distances[end - 1], double(end - fp) / nId, double(fp) / nNd};
}

std::vector<std::vector<double>> epochDistances(const std::vector<std::vector<float>>& patterns,
                                                std::span<const float> channel, int epoch, int stride, int band,
                                                const RunOptions& options) {
    distanceCalls.fetch_add(1, std::memory_order_relaxed);
    const long long nE = epochCount(static_cast<long long>(channel.size()), epoch, stride);
    std::vector<std::vector<double>> out(patterns.size(), std::vector<double>(std::size_t(std::max(0LL, nE))));
    if (nE <= 0 || patterns.empty()) return out;
    SeriesSet queries;
    for (const auto& p : patterns) queries.emplace_back(p);
    Params params;
    params.metric = Metric::Cdtw;
    params.cost = Cost::Squared;
    params.band = band;
    for (std::size_t b = 0; b < std::size_t(nE); b += kEpochBlock) {
        const std::size_t e = std::min<std::size_t>(std::size_t(nE), b + kEpochBlock);
        SeriesSet epochs;
        epochs.reserve(e - b);
        for (std::size_t j = b; j < e; ++j) {
            const auto first = channel.begin() + std::ptrdiff_t(j * std::size_t(stride));
            epochs.emplace_back(std::vector<float>(first, first + epoch));
        }
        const DistanceMatrix m = Engine::distanceMatrix(queries, &epochs, params, options);
        for (std::size_t p = 0; p < patterns.size(); ++p)
            for (std::size_t j = b; j < e; ++j) out[p][j] = m.at(p, j - b);
    }
    return out;
}

long long epochDistanceCalls() { return distanceCalls.load(std::memory_order_relaxed); }

std::vector<std::vector<double>> trainingDistances(const PatternRequest& r, const PatternRanking& rk,
                                                   const std::vector<std::vector<float>>& patterns, const RunOptions& options) {
    std::vector<std::vector<double>> dist(patterns.size(), std::vector<double>(rk.epochCount));
    for (std::size_t k = 0; k < rk.segments.size(); ++k) {
        const auto& seg = rk.segments[k];
        if (seg.epochCount == 0 || patterns.empty()) continue;
        const std::vector<float> x = requestSamples(r, k);
        const auto part = epochDistances(patterns, x, rk.epoch, rk.stride, rk.band, options);
        for (std::size_t p = 0; p < patterns.size(); ++p)
            std::copy(part[p].begin(), part[p].end(), dist[p].begin() + std::ptrdiff_t(seg.epochBegin));
    }
    return dist;
}

Detector buildDetector(const std::vector<PatternRequest>& requests, const std::vector<PatternRanking>& rankings,
                       const BuildOptions& build, const RunOptions& options, std::vector<TrainingRoc>* rocs,
                       const TrainingSweep& sweep) {
    if (requests.size() != rankings.size() || requests.empty())
        throw EngineError(K::BadInput, "rankings", "one ranking per request is needed");
    if (rocs) rocs->clear();
    if (build.top < 1) throw EngineError(K::BadParameter, "top", "at least one pattern per channel");
    Detector d;
    d.rateHz = requests.front().rateHz;
    d.epoch = requests.front().epoch;
    d.stride = requests.front().stride;
    d.band = requests.front().band;
    d.filter = build.filter;
    d.operatingPoint = build.operatingPoint;
    d.rule = build.rule;
    for (std::size_t c = 0; c < requests.size(); ++c) {
        const PatternRequest& r = requests[c];
        const PatternRanking& rk = rankings[c];
        if (r.rateHz != d.rateHz || r.epoch != d.epoch || r.stride != d.stride || r.band != d.band)
            throw EngineError(K::BadInput, "rankings", "every channel must share rate, epoch, stride and band");
        const std::size_t segs = r.segments.empty() ? 1 : r.segments.size();
        if (rk.segments.size() != segs || rk.epochIctal.size() != rk.epochCount)
            throw EngineError(K::BadInput, "rankings", "the ranking of channel '" + r.channel + "' is not of its request");
        const std::size_t top = std::min(build.top, rk.ranked.size());
        // The chosen patterns' samples, cut from the training channel.
        std::vector<std::vector<float>> samples(top);
        std::vector<std::vector<double>> dist;
        for (std::size_t k = 0; k < segs; ++k) {
            bool holdsOne = false;
            for (std::size_t p = 0; p < top; ++p) holdsOne = holdsOne || rk.ranked[p].segment == k;
            if (!holdsOne) continue;
            const std::vector<float> x = requestSamples(r, k);
            for (std::size_t p = 0; p < top; ++p)
                if (rk.ranked[p].segment == k) {
                    const auto first = x.begin() + std::ptrdiff_t(rk.ranked[p].recordingSample);
                    samples[p].assign(first, first + d.epoch);
                }
        }
        // Then every training epoch against all of them (or the caller's distances for them).
        dist = sweep ? sweep(c, samples) : trainingDistances(r, rk, samples, options);
        if (dist.size() != top)
            throw EngineError(K::BadInput, "rankings", "the training sweep of channel '" + r.channel + "' gave no row per pattern");
        for (const auto& row : dist)
            if (row.size() != rk.epochCount)
                throw EngineError(K::BadInput, "rankings", "a training sweep row of channel '" + r.channel + "' is not one per epoch");
        // Each pattern's ROC sorts its training distances (a study's: ~575,000): on all cores.
        std::vector<TrainingRoc> sorted(top);
        auto rocAll = [&] {
            tbb::parallel_for(std::size_t(0), top, [&](std::size_t p) { sorted[p] = trainingRoc(dist[p], rk.epochIctal); });
        };
        onThreads(options.threads, rocAll);
        for (std::size_t p = 0; p < top; ++p) {
            const PatternScore& s = rk.ranked[p];
            const RocPoint roc = thresholdAt(sorted[p], build.operatingPoint);
            if (rocs) rocs->push_back(std::move(sorted[p]));
            DetectorPattern dp;
            dp.channel = r.channel;
            dp.samples = std::move(samples[p]);
            dp.threshold = roc.threshold;
            dp.trainingTpr = roc.tpr;
            dp.trainingFpr = roc.fpr;
            dp.quality = s.quality;
            dp.recording = rk.segments[s.segment].recording;
            dp.startS = s.startS;
            d.patterns.push_back(std::move(dp));
        }
    }
    validateDetector(d);
    return d;
}

void validateDetector(const Detector& d) {
    if (!(d.rateHz > 0) || !std::isfinite(d.rateHz)) throw EngineError(K::BadInput, "rate_hz", "must be a number > 0");
    if (d.epoch < 1) throw EngineError(K::BadInput, "epoch", "must be >= 1 sample");
    if (d.stride < 1) throw EngineError(K::BadInput, "stride", "must be >= 1 sample");
    if (d.band < 0) throw EngineError(K::BadInput, "band", "must be >= 0");
    if (d.patterns.empty()) throw EngineError(K::BadInput, "patterns", "a detector needs at least one pattern");
    for (std::size_t i = 0; i < d.patterns.size(); ++i) {
        const auto& p = d.patterns[i];
        const std::string f = "patterns[" + std::to_string(i) + "]";
        if (p.samples.size() != std::size_t(d.epoch))
            throw EngineError(K::BadInput, f + ".samples",
                              "has " + std::to_string(p.samples.size()) + " samples, the epoch " + std::to_string(d.epoch));
        for (float v : p.samples)
            if (!std::isfinite(v)) throw EngineError(K::BadInput, f + ".samples", "holds a value that is not finite");
        if (!std::isfinite(p.threshold)) throw EngineError(K::BadInput, f + ".threshold", "must be a finite number");
        if (p.channel.empty()) throw EngineError(K::BadInput, f + ".channel", "names no channel");
    }
    if (d.rule.votes < 1 || std::size_t(d.rule.votes) > d.patterns.size())
        throw EngineError(K::BadParameter, "votes",
                          "must lie in 1.." + std::to_string(d.patterns.size()) + " (the patterns), got " +
                              std::to_string(d.rule.votes));
    if (d.rule.minEpochs < 1) throw EngineError(K::BadParameter, "min-epochs", "must be >= 1");
    if (!(d.rule.mergeGapS >= 0) || !std::isfinite(d.rule.mergeGapS))
        throw EngineError(K::BadParameter, "merge-gap", "must be a finite number >= 0");
}

void decide(const Detector& d, Detection& det) { det.events = decide(d, det.distances, &det.votes); }

std::vector<DetectedEvent> decide(const Detector& d, const std::vector<std::vector<double>>& distances,
                                  std::vector<int>* votesOut) {
    const std::size_t nE = distances.empty() ? 0 : distances.front().size();
    std::vector<int> local;
    std::vector<int>& votes = votesOut ? *votesOut : local;
    votes.assign(nE, 0);
    for (std::size_t p = 0; p < d.patterns.size() && p < distances.size(); ++p) {
        const double t = d.patterns[p].threshold;
        const double* x = distances[p].data();
        int* v = votes.data();
        for (std::size_t j = 0; j < nE; ++j) v[j] += x[j] <= t ? 1 : 0;
    }
    const double n = double(d.patterns.size());
    std::vector<DetectedEvent> runs, events;
    std::vector<int> counts;
    for (std::size_t j = 0; j < nE; ++j) {
        if (votes[j] < d.rule.votes) continue;
        const double s = double(j) * d.stride / d.rateHz, e = (double(j) * d.stride + d.epoch) / d.rateHz;
        const double conf = votes[j] / n;
        if (!runs.empty() && s - runs.back().endS <= d.rule.mergeGapS) {
            runs.back().endS = e;
            runs.back().lastEpoch = j;
            runs.back().confidence = std::max(runs.back().confidence, conf);
            ++counts.back();
        } else {
            runs.push_back({s, e, conf, j, j});
            counts.push_back(1);
        }
    }
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (counts[i] >= d.rule.minEpochs) events.push_back(runs[i]);
    return events;
}

Detection applyDetector(const Detector& d, const ChannelSamples& channel, double rateHz, const RunOptions& options) {
    validateDetector(d);
    if (rateHz != d.rateHz)
        throw EngineError(K::BadInput, "rate",
                          "the detector was built at " + fixed(d.rateHz) + " Hz, the recording is sampled at " +
                              fixed(rateHz) + " Hz: resample the recording first");
    Detection det;
    det.distances.resize(d.patterns.size());
    for (const std::string& ch : d.channels()) {
        const std::vector<float> x = channel(ch);
        if (static_cast<long long>(x.size()) < d.epoch)
            throw EngineError(K::BadInput, "epoch",
                              "channel '" + ch + "' has " + std::to_string(x.size()) + " samples, shorter than one epoch (" +
                                  std::to_string(d.epoch) + ")");
        std::vector<std::vector<float>> pats;
        std::vector<std::size_t> which;
        for (std::size_t p = 0; p < d.patterns.size(); ++p)
            if (d.patterns[p].channel == ch) {
                pats.push_back(d.patterns[p].samples);
                which.push_back(p);
            }
        auto part = epochDistances(pats, x, d.epoch, d.stride, d.band, options);
        for (std::size_t i = 0; i < which.size(); ++i) det.distances[which[i]] = std::move(part[i]);
    }
    // Channels of one recording share a rate, so their epoch counts agree.
    decide(d, det);
    return det;
}

}  // namespace warplab::compute
