// The Bonn segments of tests/data laid end to end as a study for the detector's tests:
// recording i = Z00i, S00i, F00i (70.8 s at 173.61 Hz) with the 23.6 s seizure segment F in the
// middle marked, as one channel's PatternRequest with one segment per recording.
#pragma once
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tests/io/synthetic_study.h"

namespace warplab::testing {

inline std::vector<float> bonnSegment(const std::string& path) {
    std::ifstream in(path);
    std::vector<float> x;
    double v = 0;
    while (in >> v) x.push_back(float(v));
    return x;
}

constexpr double kBonnRateHz = 173.61;

// `count` recordings from the folder `root` holding sets Z, S and F; empty when a segment is
// missing or not of 4097 samples (the caller fails).
inline SyntheticStudy bonnStudy(const std::string& root, int count) {
    SyntheticStudy s;
    const double segS = 4097 / kBonnRateHz;
    char name[32];
    for (int i = 1; i <= count; ++i) {
        std::vector<float> x;
        for (const char* set : {"Z", "S", "F"}) {
            std::snprintf(name, sizeof name, "/%s/%s%03d.txt", set, set, i);
            const auto seg = bonnSegment(root + name);
            if (seg.size() != 4097) return {};
            x.insert(x.end(), seg.begin(), seg.end());
        }
        addRecording(s, std::move(x), {{segS, 2 * segS}}, "bonn" + std::to_string(i));
    }
    finish(s, kBonnRateHz);
    return s;
}

}  // namespace warplab::testing
