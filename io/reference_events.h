// The seizures a detection is scored against, from whichever source marks them: a BIDS
// events table (`*_events.tsv`), a CHB-MIT summary (chbNN-summary.txt, the recording's entry),
// the EDF+ annotations of a recording that name a seizure (io/seizure_annotations.h), or a
// regions file (io/regions_exchange.h: "*.csv" or "*_regions.edf"; its seizure regions).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "compute/scoring/scoring.h"

namespace warplab::io {

struct ReferenceEvents {
    std::vector<compute::TimedEvent> events;  // seconds from the recording start
    std::optional<double> durationS;          // the recording's length, when the source says it
    std::string source;                       // "events table", "CHB-MIT summary", "EDF+ annotations", "regions file"
};

// `recordingPath` ("" when none) names the recording: which entry of a summary, the channel
// names of a regions file. Throws IoError naming the file and the reason (an unknown kind of
// file, a summary without that recording, a bad row).
ReferenceEvents readReferenceEvents(const std::string& path, const std::string& recordingPath);

}  // namespace warplab::io
