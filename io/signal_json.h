// One signal of a recording as JSON, as `warplab-cli info --json` prints it and the Python
// package's Recording.signals gives it: the same fields for a file and for each recording of a study.
#pragma once
#include <nlohmann/json.hpp>

#include "io/recording.h"

namespace warplab::io {

// `withName`: also "name", the display name every other part of WarpLab uses (text output,
// --channel, the GUI): unique per recording, e.g. "T8-P8 (2)" for CHB-MIT's second T8-P8,
// where "label" is the raw header label, as the file has it.
inline nlohmann::ordered_json signalJson(const SignalInfo& s, bool withName) {
    nlohmann::ordered_json j;
    j["index"] = s.index;
    j["label"] = s.label;
    if (withName) j["name"] = s.displayName;
    j["unit"] = s.unit;
    j["rate_hz"] = s.rateHz;
    j["samples"] = s.samples;
    j["physical_min"] = s.physicalMin;
    j["physical_max"] = s.physicalMax;
    return j;
}

}  // namespace warplab::io
