// Series sets from files: UCR text (whitespace/comma/tab separated, one series per line,
// optional leading label, ragged lengths allowed), CSV with or without header, .npy,
// or an EDF/BDF channel (optional window). A multivariate file holds one series, one channel
// per line.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "compute/core/series.h"

namespace warplab::io {

struct SeriesFileOptions {
    bool labelColumn = false;          // drop a leading class label into Series::label
    bool multivariate = false;         // the whole file is one series, one channel per line
    std::string channel;               // for EDF/BDF: which signal
    std::optional<double> windowStartS, windowLengthS;  // for EDF/BDF: --window START:LEN (seconds)
};

// Throws IoError naming the file, line/field and reason (NaN, empty line, bad number, ...).
compute::SeriesSet readSeriesFile(const std::string& path, const SeriesFileOptions& options = {});

class Recording;

// Whether readSeriesFile reads `path` as an EDF/BDF recording (its header, or the extension).
bool isRecordingFile(const std::string& path);

// Where the channel window readSeriesFile would return from an EDF/BDF recording lies, found
// from the header alone (the same channel and --window rules and errors), so that a part of it
// can be read without the rest: an MPI rank reads only its stretch of a long reference.
struct ChannelWindow {
    std::shared_ptr<const Recording> recording;
    int signal = -1;
    long long start = 0, count = 0;  // the window's samples of the channel
    std::string name;                // the Series name readSeriesFile gives
};
ChannelWindow locateChannelWindow(const std::string& path, const SeriesFileOptions& options);
// Samples [from, to) of the window (0 <= from <= to <= count): the same values as that slice
// of readSeriesFile's series.
compute::Series readChannelWindow(const ChannelWindow& window, long long from, long long to);

}  // namespace warplab::io
