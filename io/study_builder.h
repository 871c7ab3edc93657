// Builds a Study from probed recordings (internal to io/study_*.cpp).
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "io/study.h"
#include "io/study_cache.h"
#include "io/study_probe.h"

namespace warplab::io {

// Order, offsets, gaps, channels, seizures: Study's friend, so that the openers fill its members.
struct StudyBuilder {
    std::unique_ptr<Study> s{new Study()};
    std::vector<Probe> probes;
    std::vector<double> summaryAbs;  // per probe, from a summary (NaN: none)
    bool isSummary = false;          // times only from the summary (its own scale: day 0 = first)
    bool summaryDate = false;        // a header dated the summary's day 0 ...
    double summaryDateSeconds = 0;   // ... at this many seconds since 1970

    // `seizures`: per probe, the summary's seizures (start, end seconds from its start).
    static std::unique_ptr<Study> finish(StudyBuilder& b, const StudyOptions& o,
                                         const std::vector<std::vector<std::pair<double, double>>>& seizures);
};

}  // namespace warplab::io
