#include "app/cli/detector_options.h"

#include <CLI/CLI.hpp>

#include "app/cli/patterns_study.h"
#include "compute/core/error.h"

namespace warplab::cli {

void addScoringOptions(CLI::App& cmd, compute::EventScoringOptions& event, compute::SampleScoringOptions& sample) {
    cmd.add_option("--tolerance-before", event.toleranceBeforeS, "seconds before a seizure where a detection still counts")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd.add_option("--tolerance-after", event.toleranceAfterS, "seconds after a seizure where a detection still counts")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd.add_option("--merge-gap", event.mergeGapS, "events closer than this (seconds) are merged; 0: never")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd.add_option("--max-event", event.maxEventS, "events longer than this (seconds) are split; 0: never")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd.add_option("--min-overlap", event.minOverlap,
                   "fraction of a seizure's widened span a detection must cover; 0: any overlap")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 0.999999));
    cmd.add_option("--sample-rate", sample.sampleHz, "label rate of the sample-based scores, Hz")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
}

void addDetectorBuildOptions(CLI::App& cmd, DetectorBuildFlags& o) {
    cmd.add_option("--seizures", o.seizures, "--study: more seizures, FILE:START-END,... (seconds from that file's start)");
    cmd.add_option("--channel", o.channels,
                   "channel by label; repeat for several (their patterns vote together); default FP1-F7, else the first");
    cmd.add_option("--epoch", o.epoch, "epoch and pattern length e, samples")->capture_default_str();
    cmd.add_option("--stride", o.stride, "stride s of epochs and patterns, samples")->capture_default_str();
    cmd.add_option("--band", o.band, "Sakoe-Chiba band w of cdtw")->capture_default_str();
    cmd.add_option("--top", o.top, "best patterns kept per channel")->capture_default_str()->check(CLI::PositiveNumber);
    cmd.add_option("--operating-point", o.operatingPoint,
                   "each pattern's threshold on its training ROC: youden (largest TPR - FPR) or fpr:RATE (largest "
                   "threshold whose epoch false-positive rate is at most RATE)")
        ->capture_default_str();
    cmd.add_option("--votes", o.rule.votes, "patterns within their threshold for an epoch to be positive")->capture_default_str();
    cmd.add_option("--min-epochs", o.rule.minEpochs, "positive epochs an event needs")->capture_default_str();
    cmd.add_option("--event-gap", o.rule.mergeGapS, "events closer than this (seconds) are joined")->capture_default_str();
}

compute::BuildOptions toBuildOptions(const DetectorBuildFlags& o) {
    const auto op = compute::parseOperatingPoint(o.operatingPoint);
    if (!op)
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "operating-point",
                                   "must be youden or fpr:RATE with RATE in [0, 1], got \"" + o.operatingPoint + "\"");
    compute::BuildOptions b;
    b.top = o.top;
    b.operatingPoint = *op;
    b.rule = o.rule;
    return b;
}

std::vector<compute::PatternRequest> detectorRequests(io::Study& study, const DetectorBuildFlags& o) {
    auto requests = studyPatternRequests(study, o.channels, o.seizures);
    for (auto& r : requests) {
        r.epoch = o.epoch;
        r.stride = o.stride;
        r.band = o.band;
        r.keepMatrixUpToBytes = 0;
    }
    return requests;
}

}  // namespace warplab::cli
