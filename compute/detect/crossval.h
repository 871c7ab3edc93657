// Leave-one-out cross-validation of the detector over a study: for each recording that holds a
// marked seizure, a detector is built from the other recordings only (their patterns, their
// epochs, their thresholds), applied to the held-out recording and scored against its seizures
// (SzCORE, compute/scoring/scoring.h). A recording with several seizures is held out whole, so
// no sample of the held-out recording ever reaches training. Interictal-only recordings always
// train and are never tested: each fold says how much recording time it scored.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "compute/detect/detector.h"
#include "compute/scoring/scoring.h"

namespace warplab::compute {

struct CrossvalOptions {
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
    Detector detector;            // when keepDetectors
};

struct CrossvalResult {
    std::vector<CrossvalFold> folds;
    DetectionScores event, sample;  // pooled over the folds
    double testedS = 0, totalS = 0; // recording time scored, and in the whole study
};

// `requests`: one per channel, each with one segment per recording (studyPatternRequest);
// segments are matched across channels by recordingIndex. Throws EngineError (BadInput
// "seizures") when fewer than two recordings hold a seizure: a fold must train on one.
CrossvalResult crossValidate(const std::vector<PatternRequest>& requests, const CrossvalOptions& options,
                             const RunOptions& run);

// The requests without the recording `recordingIndex` (what fold training sees).
std::vector<PatternRequest> withoutRecording(const std::vector<PatternRequest>& requests, int recordingIndex);

}  // namespace warplab::compute
