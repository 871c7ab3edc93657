// Shared by the GPU test programs (tests/gpu/test_gpu_*.cpp): one line per check, the failure
// count for the exit code, random-walk series and the relative error they are judged by.
// Each program exits 1 on a failure and 77 (CTest's SKIP_RETURN_CODE) without a device.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compute/core/series.h"

namespace warplab::gputest {

using warplab::compute::Series;
using warplab::compute::SeriesSet;

inline int failures = 0, checks = 0;

inline void report(bool ok, const std::string& what, double maxRel) {
    ++checks;
    if (!ok) ++failures;
    std::printf("%s %-70s max_rel_err=%.3g\n", ok ? "PASS" : "FAIL", what.c_str(), maxRel);
    std::fflush(stdout);
}

inline Series randomSeries(std::mt19937& rng, std::size_t n) {
    // A random walk: neighbouring samples correlate as in EEG, so warping paths are not trivial.
    std::normal_distribution<float> step(0.f, 1.f);
    std::vector<float> v(n);
    float x = 0;
    for (auto& s : v) { x = 0.9f * x + step(rng); s = x; }
    return Series(std::move(v));
}

inline double relErr(double got, double ref) {
    if (std::isinf(ref) || std::isinf(got)) return (std::isinf(ref) && std::isinf(got)) ? 0.0 : INFINITY;
    if (std::isnan(got)) return INFINITY;
    return std::fabs(got - ref) / std::max(1.0, std::fabs(ref));
}

inline SeriesSet readUcr(const std::string& path) {
    SeriesSet set;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        double label, v;
        if (!(ls >> label)) continue;
        std::vector<float> vals;
        while (ls >> v) vals.push_back(float(v));
        set.emplace_back(std::move(vals));
    }
    return set;
}

// One sample per line (the Bonn segments' format); empty when the file is missing.
inline std::vector<float> readColumn(const std::string& path) {
    std::vector<float> v;
    std::ifstream in(path);
    float x;
    while (in >> x) v.push_back(x);
    return v;
}

// The Bonn EEG segments of `sets` ("Z", "F", "S"; five of each) joined end to end, in that order;
// `s001` (may be null) gets segment S001 alone. Empty when they are missing.
inline std::vector<float> bonnJoined(const std::string& dataDir, const std::vector<std::string>& sets,
                                     std::vector<float>* s001 = nullptr) {
    std::vector<float> joined;
    for (const std::string& set : sets)
        for (int i = 1; i <= 5; ++i) {
            char name[64];
            std::snprintf(name, sizeof name, "/bonn/%s/%s%03d.txt", set.c_str(), set.c_str(), i);
            const std::vector<float> v = readColumn(dataDir + name);
            if (set == "S" && i == 1 && s001) *s001 = v;
            joined.insert(joined.end(), v.begin(), v.end());
        }
    return joined;
}

// The exit code of a test program: 1 on any failure.
inline int finish() {
    std::printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}

}  // namespace warplab::gputest
