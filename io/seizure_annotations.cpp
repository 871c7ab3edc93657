#include "io/seizure_annotations.h"

#include <algorithm>
#include <cctype>

#include "io/recording.h"

namespace warplab::io {

bool annotationNamesSeizure(const std::string& text) {
    std::string word;
    auto names = [](const std::string& w) {
        if (w == "sz" || w == "seizure" || w == "seizures" || w.rfind("seizure", 0) == 0) return true;
        return w.size() > 2 && w.rfind("sz", 0) == 0 &&
               std::all_of(w.begin() + 2, w.end(), [](unsigned char c) { return std::isdigit(c); });
    };
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const unsigned char c = i < text.size() ? static_cast<unsigned char>(text[i]) : ' ';
        if (std::isalnum(c)) {
            word += char(std::tolower(c));
        } else {
            if (!word.empty() && names(word)) return true;
            word.clear();
        }
    }
    return false;
}

std::vector<Region> namedSeizureRegions(const Recording& rec) {
    std::vector<Region> out;
    const double end = rec.durationS();
    for (const Annotation& a : rec.annotations()) {
        if (!annotationNamesSeizure(a.text) || !(a.durationS > 0)) continue;
        const double s = std::max(0.0, a.onsetS), e = std::min(end, a.onsetS + a.durationS);
        if (e > s) out.push_back({RegionKind::Seizure, -1, s, e, "annotation: " + a.text});
    }
    return out;
}

}  // namespace warplab::io
