// A seizure detector built from a pattern ranking (compute/patterns/pattern_discovery.h), and
// its sweep over a recording.
//
// Building: the top N patterns of a channel's ranking (several channels may each give theirs),
// each with a distance threshold read off its training ROC (its band-DTW distances to the
// training epochs, labelled ictal or not) at the chosen operating point: the Youden point
// (largest TPR - FPR) or the largest threshold whose epoch false-positive rate stays within a
// target. Applying: every epoch of the recording (the same length and stride) gets one vote
// per pattern whose distance lies within its threshold; an epoch with at least `votes` votes is
// positive; positive epochs that overlap or lie closer than `mergeGapS` form one event (onset,
// duration, and as confidence the largest share of patterns that voted in it), kept when it
// holds at least `minEpochs` positive epochs. Deciding again after a threshold or rule change
// needs only the distances (decide()), not the DTW sweep.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compute/core/job.h"
#include "compute/patterns/pattern_discovery.h"

namespace warplab::compute {

struct OperatingPoint {
    enum class Kind { Youden, FalsePositiveRate };
    Kind kind = Kind::Youden;
    double target = 0.01;  // FalsePositiveRate: the largest epoch FPR allowed, in [0, 1]
};
// "youden" or "fpr:0.01"; nullopt when neither.
std::optional<OperatingPoint> parseOperatingPoint(std::string_view text);
std::string operatingPointName(const OperatingPoint& op);

struct DetectorPattern {
    std::string channel;           // the channel label it was cut from and is compared with
    std::vector<float> samples;    // epoch-long
    double threshold = 0;          // a vote when the distance is <= threshold
    double quality = 0;            // its ranking quality (training)
    double trainingTpr = 0, trainingFpr = 0;  // at the threshold, on the training epochs
    std::string recording;         // where it was cut (for people)
    double startS = 0;
};

struct DetectorRule {
    int votes = 1;                 // patterns within their threshold for a positive epoch
    int minEpochs = 1;             // positive epochs an event needs
    double mergeGapS = 0;          // events closer than this are joined
};

struct Detector {
    double rateHz = 0;
    int epoch = 1024, stride = 256, band = 16;
    std::string filter;            // the frequency band the channel was filtered to ("" = none)
    OperatingPoint operatingPoint;
    DetectorRule rule;
    std::vector<DetectorPattern> patterns;
    std::vector<std::string> channels() const;  // distinct, in pattern order
};

struct RocPoint {
    double threshold = 0, tpr = 0, fpr = 0;
};
// The threshold at `op` over one pattern's training distances. Needs an epoch of each class.
// Ties: every epoch at the threshold distance counts as voting, as in application.
RocPoint thresholdAt(std::span<const double> distances, std::span<const unsigned char> ictal, const OperatingPoint& op);

// One pattern's training distances sorted once, so that its threshold at another operating
// point needs no sort and no DTW: the Youden point is found when it is made, a target
// false-positive rate by a binary search (what an interactive operating point needs).
struct TrainingRoc {
    std::vector<double> distances;        // ascending
    std::vector<unsigned char> ictal;     // of the epoch at the same place
    std::size_t ictalCount = 0;
    std::vector<std::uint32_t> interictalAt;  // places of the interictal epochs in `distances`
    RocPoint youden{-1, 0, 0};
};
// Throws EngineError (BadInput "seizures") without an epoch of each class.
TrainingRoc trainingRoc(std::span<const double> distances, std::span<const unsigned char> ictal);
RocPoint thresholdAt(const TrainingRoc& roc, const OperatingPoint& op);

// Distances (band DTW, squared cost, as in discovery) of each pattern to every epoch of a
// channel: result[p][j], epoch j at sample j * stride.
std::vector<std::vector<double>> epochDistances(const std::vector<std::vector<float>>& patterns,
                                                std::span<const float> channel, int epoch, int stride, int band,
                                                const RunOptions& options);
// How many times epochDistances has run in this process (tests check that re-deciding runs none).
long long epochDistanceCalls();

struct BuildOptions {
    std::size_t top = 5;           // patterns per channel
    OperatingPoint operatingPoint;
    DetectorRule rule;
    std::string filter;
};
// The training sweep of one channel: `patterns` (cut from the recordings) against every epoch
// of `ranking` (the request's epochs, segment by segment), result[p][j] in the ranking's epoch
// order. What buildDetector computes unless given the distances.
std::vector<std::vector<double>> trainingDistances(const PatternRequest& request, const PatternRanking& ranking,
                                                   const std::vector<std::vector<float>>& patterns,
                                                   const RunOptions& options);
// The same rows from elsewhere (cross-validation reads them from one matrix of the whole study):
// channel c's chosen patterns (rankings[c].ranked[0..patterns.size()), samples as cut) -> their
// distances to every epoch of rankings[c]; equal to trainingDistances' for the same detector.
using TrainingSweep = std::function<std::vector<std::vector<double>>(std::size_t channel,
                                                                      const std::vector<std::vector<float>>& patterns)>;

// One ranking per request (findPatterns' results, same order). The training epochs are the
// requests' own. Throws EngineError (BadParameter "top", "votes"; BadInput when a ranking does
// not belong to its request).
// `rocs` (may be null) receives each detector pattern's TrainingRoc, in pattern order.
// `sweep` (may be empty: trainingDistances) gives the training distances.
Detector buildDetector(const std::vector<PatternRequest>& requests, const std::vector<PatternRanking>& rankings,
                       const BuildOptions& build, const RunOptions& options, std::vector<TrainingRoc>* rocs = nullptr,
                       const TrainingSweep& sweep = {});

// Checks a detector is usable (sizes, thresholds, rule). Throws EngineError naming the field.
void validateDetector(const Detector& d);

struct DetectedEvent {
    double startS = 0, endS = 0;
    double confidence = 0;         // largest share of patterns voting in one of its epochs
    std::size_t firstEpoch = 0, lastEpoch = 0;
};

struct Detection {
    std::vector<std::vector<double>> distances;  // per pattern, per epoch
    std::vector<int> votes;                      // per epoch
    std::vector<DetectedEvent> events;
};

// The samples of one channel of the recording, by label; throws when it has none.
using ChannelSamples = std::function<std::vector<float>(const std::string& channel)>;

// Sweeps a recording sampled at `rateHz`. Throws EngineError BadInput "rate" when the rate is
// not the detector's, "epoch" when the recording is shorter than one epoch.
Detection applyDetector(const Detector& d, const ChannelSamples& channel, double rateHz, const RunOptions& options);

// Votes and events from distances already computed (after changing thresholds or the rule).
void decide(const Detector& d, Detection& detection);
// The same without a Detection to write to: the events, and the votes when `votes` is given.
std::vector<DetectedEvent> decide(const Detector& d, const std::vector<std::vector<double>>& distances,
                                  std::vector<int>* votes = nullptr);

}  // namespace warplab::compute
