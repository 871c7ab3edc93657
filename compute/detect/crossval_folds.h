// What both ways of cross-validating share (crossval.cpp: each fold discovered anew;
// crossval_matrix.cpp: every fold read from one matrix of the whole study): which recordings
// are held out, what a fold says of itself before anything is computed, one progress bar over
// the whole job, and the held-out recording's samples of a channel.
#pragma once
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compute/detect/crossval.h"

namespace warplab::compute {

// The recordings held out in turn (segments of requests.front()). Throws EngineError
// (BadInput "study", "seizures") when the study cannot be cross-validated.
std::vector<const PatternSegment*> heldOutRecordings(const std::vector<PatternRequest>& requests, CrossvalFolds folds);

// A fold before training: the held-out recording, its seizures and duration, the training names.
CachedFold foldOf(const PatternSegment& test, const std::vector<PatternRequest>& training, double rateHz);

// Seconds of recording in the whole study (requests.front()'s segments).
double studySeconds(const std::vector<PatternRequest>& requests);

// The held-out recording's samples of `channel`, from the full requests only. Throws EngineError
// (BadInput "channel") when no request of that channel holds it.
std::vector<float> heldOutSamples(const std::vector<PatternRequest>& requests, const PatternSegment& test,
                                  const std::string& channel);

// One progress bar from 0 to 1 over the job: stage(lo, hi) gives options whose progress 0..1
// maps to [lo, hi] of it. It only goes forward (the engine's threads report concurrently).
class JobProgress {
public:
    explicit JobProgress(const RunOptions& run) : run_(run), state_(std::make_shared<State>()) {}
    RunOptions stage(double lo, double hi) const;
    void done() const {
        if (run_.progress) run_.progress(1.0);
    }

private:
    struct State {
        std::mutex mutex;
        double at = 0;
    };
    RunOptions run_;
    std::shared_ptr<State> state_;
};

// Throws EngineError (Cancelled) when the job was cancelled.
void checkCancelled(const RunOptions& run);

}  // namespace warplab::compute
