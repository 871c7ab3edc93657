// The whole of a CHB-MIT chbNN-summary.txt, for io::Study: the sampling rate, the channel
// lists (a later "Channels changed:" list applies to the files after it), and per file its
// clock start and end and its seizures. (regions.h's seizuresFromChbSummary reads one file's
// seizures for a single recording; this reads every entry.)
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace warplab::io {

struct SummaryEntry {
    std::string file;                 // "chb01_03.edf"
    int line = 0;                     // of its "File Name:" line
    bool hasTimes = false;            // start and end clock times given
    double startClockS = 0;           // "13:43:04" -> seconds of the day (hours may exceed 23,
    double endClockS = 0;             // as some CHB-MIT summaries write "24:01:03")
    std::vector<std::pair<double, double>> seizures;  // seconds from the file start
    std::vector<std::string> channels;  // the channel list in effect for this file (labels)
};

struct ChbSummary {
    double rateHz = 0;                // "Data Sampling Rate: 256 Hz" (0 when absent)
    std::vector<SummaryEntry> entries;
};

// Throws IoError(path, "line N", reason) for an unreadable time, seizure line or count, a
// seizure count that disagrees with its lines, an end not after its start, and a summary
// without any "File Name:" entry.
ChbSummary parseChbSummary(const std::string& path);

// True when the file's first kilobyte holds a "File Name:" or "Data Sampling Rate:" line.
bool looksLikeChbSummary(const std::string& path);

// The CHB-MIT summary of a folder: the one file whose name ends in "summary.txt"
// (case-insensitive) and reads like a summary; "" when there is none or more than one
// (defined in summary_crops.cpp).
std::string chbSummaryInFolder(const std::string& folder);

}  // namespace warplab::io
