// A study's seizures: kept in recording and start order, as compute spans per channel, and
// from EDF+ annotations whose text matches.
#include <algorithm>

#include "io/study.h"
#include "io/text_table.h"

namespace warplab::io {

void Study::sortSeizures() {
    std::stable_sort(seizures_.begin(), seizures_.end(), [](const StudySeizure& a, const StudySeizure& b) {
        return a.recording != b.recording ? a.recording < b.recording : a.startS < b.startS;
    });
}

std::vector<compute::SecondsSpan> Study::seizureSpans(int recording, int channel) const {
    std::vector<compute::SecondsSpan> out;
    for (const auto& s : seizures_)
        if (s.recording == recording && (s.channel < 0 || s.channel == channel)) out.push_back({s.startS, s.endS});
    return out;
}

int Study::addAnnotationSeizures(const std::string& pattern) {
    int added = 0;
    for (std::size_t i = 0; i < recordings_.size(); ++i) {
        const auto& r = recordings_[i];
        if (r.status != RecordingStatus::Ok) continue;
        if (r.format != Format::EDFPlusC && r.format != Format::EDFPlusD && r.format != Format::BDFPlusC &&
            r.format != Format::BDFPlusD)
            continue;
        std::shared_ptr<const Recording> rec;
        try {
            rec = recording(int(i));
        } catch (const std::exception& e) {
            warnings_.push_back(r.name + ": annotations not read: " + e.what());
            continue;
        }
        for (const auto& g : seizuresFromAnnotations(*rec, pattern)) {
            if (!(g.endS > g.startS)) {
                warnings_.push_back(r.name + ": annotation \"" + g.note.substr(12) + "\" at " + formatDouble(g.startS) +
                                    " s has no duration: not a seizure region");
                continue;
            }
            seizures_.push_back({int(i), g.startS, std::min(g.endS, r.durationS), -1, g.note});
            ++added;
        }
    }
    sortSeizures();
    return added;
}

}  // namespace warplab::io
