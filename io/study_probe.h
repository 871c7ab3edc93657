// One file of a study as far as its header tells (internal to io/study_*.cpp).
#pragma once
#include <string>
#include <vector>

#include "io/study.h"

namespace warplab::io {

// A recording as far as its header tells; status Damaged with the reason when it cannot be read.
struct Probe {
    StudyRecording rec;
    double absS = 0;  // seconds since 1970 when the header gives the date and time
    std::vector<std::string> warnings;
    bool plus = false;
};

// Reads the header only (never samples); status Missing when the file does not exist, Damaged
// with the reason when it cannot be read.
Probe probe(const std::string& path);

}  // namespace warplab::io
