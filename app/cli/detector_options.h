// Options that `detect`, `score` and `crossval` share, declared once so that their spelling
// and defaults agree: SzCORE's scoring rules, and how a detector is built from a study.
#pragma once
#include <string>
#include <vector>

#include "compute/detect/detector.h"
#include "compute/scoring/scoring.h"
#include "io/study.h"

namespace CLI {
class App;
}

namespace warplab::cli {

// --tolerance-before --tolerance-after --merge-gap --max-event --min-overlap --sample-rate
void addScoringOptions(CLI::App& cmd, compute::EventScoringOptions& event, compute::SampleScoringOptions& sample);

struct DetectorBuildFlags {
    std::vector<std::string> channels;
    std::string seizures;          // --seizures FILE:START-END,...
    int epoch = 1024, stride = 256, band = 16;
    std::size_t top = 5;
    std::string operatingPoint = "youden";
    compute::DetectorRule rule;
};
// --channel --seizures --epoch --stride --band --top --operating-point --votes --min-epochs --event-gap
void addDetectorBuildOptions(CLI::App& cmd, DetectorBuildFlags& o);
// Throws EngineError(BadParameter, "operating-point") for a bad --operating-point.
compute::BuildOptions toBuildOptions(const DetectorBuildFlags& o);
// What a detector is built from: studyPatternRequests of the flags' channels and seizures, with
// their epoch, stride and band, keeping no matrix. The requests read `study`, which must outlive them.
std::vector<compute::PatternRequest> detectorRequests(io::Study& study, const DetectorBuildFlags& o);

}  // namespace warplab::cli
