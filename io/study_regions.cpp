// The user's regions of a study: seizures the user marks per recording (kept by sessions),
// checked against the recording and mapped between signal and study channel indices.
#include <algorithm>
#include <cmath>

#include "io/io_error.h"
#include "io/study.h"
#include "io/text_table.h"

namespace warplab::io {

void Study::addRegions(int recording, const std::vector<Region>& regions) {
    if (recording < 0 || recording >= int(recordings_.size()))
        throw IoError("", "recording", "index " + std::to_string(recording) + " outside the study");
    const StudyRecording& r = recordings_[std::size_t(recording)];
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const Region& g = regions[i];
        if (g.kind != RegionKind::Seizure) continue;
        const std::string field = "regions[" + std::to_string(i) + "]";
        if (!std::isfinite(g.startS) || !std::isfinite(g.endS) || g.startS < 0 || !(g.endS > g.startS) ||
            (r.durationS > 0 && g.endS > r.durationS + 1e-9))
            throw IoError(r.path, field,
                          formatDouble(g.startS) + "-" + formatDouble(g.endS) + " s is empty or outside the recording (0-" +
                              formatDouble(r.durationS) + " s)");
        int channel = -1;
        if (g.channel >= 0) {
            if (g.channel >= int(r.signals.size()))
                throw IoError(r.path, field, "channel " + std::to_string(g.channel) + " outside the recording's signals");
            channel = findChannel(r.signals[std::size_t(g.channel)].displayName);
        }
        seizures_.push_back({recording, g.startS, g.endS, channel, "region: " + g.note, true});
    }
    sortSeizures();
}

void Study::setRegions(int recording, const std::vector<Region>& regions) {
    std::vector<StudySeizure> kept = seizures_;
    seizures_.erase(std::remove_if(seizures_.begin(), seizures_.end(),
                                   [&](const StudySeizure& s) { return s.user && s.recording == recording; }),
                    seizures_.end());
    try {
        addRegions(recording, regions);
    } catch (...) {
        seizures_ = std::move(kept);  // all or nothing
        throw;
    }
}

std::vector<Region> Study::regionsOf(int recording) const {
    std::vector<Region> out;
    if (recording < 0 || recording >= int(recordings_.size())) return out;
    for (const auto& s : seizures_) {
        if (!s.user || s.recording != recording) continue;
        const int sig = s.channel < 0 ? -1 : channels_[std::size_t(s.channel)].signalOf[std::size_t(recording)];
        out.push_back({RegionKind::Seizure, sig, s.startS, s.endS,
                       s.source.rfind("region: ", 0) == 0 ? s.source.substr(8) : s.source});
    }
    return out;
}

}  // namespace warplab::io
