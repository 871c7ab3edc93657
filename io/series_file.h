// Series sets from files: UCR text (whitespace/comma/tab separated, one series per line,
// optional leading label, ragged lengths allowed), CSV with or without header, .npy,
// or an EDF/BDF channel (optional window). A multivariate file holds one series, one channel
// per line.
#pragma once
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

}  // namespace warplab::io
