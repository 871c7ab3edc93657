// A detector (compute/detect/detector.h) as a small versioned JSON file, and its sweep over a
// recording of io/. The file:
//   {"format": "warplab-detector", "version": 1, "rate_hz", "epoch", "stride", "band",
//    "filter", "operating_point", "rule": {"votes", "min_epochs", "merge_gap_s"},
//    "patterns": [{"channel", "threshold", "quality", "training_tpr", "training_fpr",
//                  "recording", "start_s", "samples": [...]}]}
// "filter" is "" or the band ("8-13", "alpha=8-13" in Hz) the training channel was filtered to;
// the sweep filters each channel of the recording the same way (zero-phase Butterworth, order 4).
#pragma once
#include <string>

#include "compute/detect/detector.h"
#include "io/recording.h"

namespace warplab::io {

void saveDetector(const std::string& path, const compute::Detector& d);
// Throws IoError(path, field, reason): not JSON, another format or a newer version, a missing
// or mistyped field ("patterns[2].threshold"), a pattern whose length is not the epoch.
compute::Detector loadDetector(const std::string& path);

// Sweeps the recording: each channel the detector names is found by label or display name.
// Throws IoError(recording, "channel", ...) when one is missing and IoError(recording, "rate",
// ...) when its rate is not the detector's.
compute::Detection detectInRecording(const compute::Detector& d, const Recording& rec, const compute::RunOptions& options);

}  // namespace warplab::io
