// Leave-one-out cross-validation of the detector over a study: for each held-out recording, a
// detector is built from the other recordings only (their patterns, their epochs, their
// thresholds), applied to the held-out recording and scored against its seizures (SzCORE,
// compute/scoring/scoring.h). A recording with several seizures is held out whole, so no sample
// of the held-out recording ever reaches training. Leave-one-seizure-out holds out each
// recording with a seizure (interictal-only recordings always train and are never tested);
// leave-one-recording-out holds out every recording, seizure-free ones too (they can only add
// false alarms). Each fold says how much recording time it scored.
//
// The sweep keeps what re-deciding needs (crossValidateCached): each fold's detector, its
// patterns' training ROCs and their distances to every epoch of the held-out recording, so that
// another operating point or vote rule is re-scored with rescore() without any DTW.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "compute/detect/detector.h"
#include "compute/scoring/scoring.h"

namespace warplab::compute {

enum class CrossvalFolds {
    Seizure,    // each recording with a seizure held out in turn
    Recording,  // every recording held out in turn, seizure-free ones too
};

struct CrossvalOptions {
    CrossvalFolds folds = CrossvalFolds::Seizure;
    BuildOptions build;
    EventScoringOptions event;
    SampleScoringOptions sample;
    bool keepDetectors = false;   // keep each fold's detector in the result
};

struct CrossvalFold {
    int recordingIndex = -1;      // the held-out recording (PatternSegment::recordingIndex)
    std::string recording;
    std::vector<std::string> training;  // the recordings it was trained on
    double durationS = 0;         // scored recording time
    std::size_t seizures = 0;     // marked seizures of the held-out recording
    DetectionScores event, sample;
    std::vector<SeizureOutcome> outcomes;
    std::vector<DetectedEvent> detections;
    EventScoring scoring;         // the events as scored (merged, split) and which were hits / false alarms
    Detector detector;            // when keepDetectors (always after rescore)
};

struct CrossvalResult {
    std::vector<CrossvalFold> folds;
    DetectionScores event, sample;  // pooled over the folds
    double testedS = 0, totalS = 0; // recording time scored, and in the whole study
};

// `requests`: one per channel, each with one segment per recording (studyPatternRequest);
// segments are matched across channels by recordingIndex. Throws EngineError (BadInput
// "seizures") when fewer than two recordings hold a seizure: a fold must train on one.
// Progress runs once from 0 to 1 over all folds.
CrossvalResult crossValidate(const std::vector<PatternRequest>& requests, const CrossvalOptions& options,
                             const RunOptions& run);

// What a fold keeps to be decided again: its detector as built, each pattern's training ROC
// (same order) and the sweep of the held-out recording (per pattern, per epoch distances).
struct CachedFold {
    int recordingIndex = -1;
    std::string recording;
    std::vector<std::string> training;
    double durationS = 0;
    std::vector<TimedEvent> seizures;  // marked in the held-out recording
    Detector detector;
    std::vector<TrainingRoc> rocs;
    Detection detection;
};

struct CrossvalCache {
    CrossvalOptions options;
    std::vector<CachedFold> folds;
    double totalS = 0;
    // Wall seconds spent on pattern matrices (findPatterns: the study's one, or one per fold)
    // and on the rest (rankings, thresholds, sweeps).
    double matrixSeconds = 0, foldSeconds = 0;
};

// Every fold from one matrix of the whole study (per channel: every pattern against every
// epoch, computed once by findPatterns, so GPUs, --devices, threads, cancel and progress are the
// pattern run's). A fold's discovery matrix is the sub-matrix of the patterns and epochs not from
// its held-out recording: each distance depends on its pattern and epoch alone, and the fold's
// layout (labels per recording, patterns never crossing recordings) is the study's without that
// recording. The fold's ranking, its detector's training distances and its held-out sweep are
// read from that matrix, so no DTW runs per fold. A detector pattern that is not a matrix row
// (one spanning two seizures of a recording: discovery compares their concatenation, the
// detector the recording's own samples there) is swept apart as buildDetector and applyDetector
// would. Gives what crossValidatePerFold gives, bit for bit. Holds one matrix of doubles per
// channel and the order of each of its rows, sorted once for every fold's ranking (415 patterns
// x 589,823 epochs: 1.96 GB and 0.98 GB).
CrossvalCache crossValidateCached(const std::vector<PatternRequest>& requests, const CrossvalOptions& options,
                                  const RunOptions& run);

// The same by the definition: each fold discovers its patterns anew on its training recordings
// (findPatterns), builds its detector (buildDetector) and sweeps the held-out recording
// (applyDetector), one pattern matrix per fold. The reference the one-matrix path is checked
// and timed against.
CrossvalCache crossValidatePerFold(const std::vector<PatternRequest>& requests, const CrossvalOptions& options,
                                   const RunOptions& run);

// Every fold decided again with each pattern's threshold at `op` on its training ROC and
// `rule`, then scored with `event` and `sample`: host work only, no distance is computed.
CrossvalResult rescore(const CrossvalCache& cache, const OperatingPoint& op, const DetectorRule& rule,
                       const EventScoringOptions& event, const SampleScoringOptions& sample);
// The same with the options the cache was built with.
CrossvalResult rescore(const CrossvalCache& cache);

// The requests without the recording `recordingIndex` (what fold training sees).
std::vector<PatternRequest> withoutRecording(const std::vector<PatternRequest>& requests, int recordingIndex);

}  // namespace warplab::compute
