// Marked regions of a recording: seizures, queries, references, by hand or imported.
#pragma once
#include <string>
#include <vector>

namespace warplab::io {

enum class RegionKind { Seizure, Query, Reference };

struct Region {
    RegionKind kind = RegionKind::Seizure;
    int channel = -1;      // -1: all channels; else a signal index
    double startS = 0;     // seconds from the recording start
    double endS = 0;       // exclusive
    std::string note;
    // The channel's label ("F7-T7") in a session file: how a one-channel region finds its
    // channel again when the channel list differs (another montage); "" where unknown.
    std::string channelLabel;
};

std::string regionKindName(RegionKind k);  // "seizure", "query", "reference"

class Recording;

// Seizures of `recordingFile` (matched by base name) in a CHB-MIT chbNN-summary.txt.
// Throws IoError when the summary does not name the file or is malformed.
std::vector<Region> seizuresFromChbSummary(const std::string& summaryPath, const std::string& recordingFile);

// EDF+ annotations whose text contains `pattern` (case-insensitive) become seizure regions.
std::vector<Region> seizuresFromAnnotations(const Recording& rec, const std::string& pattern);

// Throws IoError (field "regions[i]") when a region lies outside the recording or is empty.
void checkRegions(const Recording& rec, const std::vector<Region>& regions);

}  // namespace warplab::io
