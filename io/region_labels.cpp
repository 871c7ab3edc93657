#include "io/region_labels.h"

#include <algorithm>

namespace warplab::io {

std::string regionKindLabel(const std::vector<Region>& regions, int channel, double startS, double endS) {
    double best = 0;
    std::string label;
    for (const Region& r : regions) {
        if (r.channel != -1 && r.channel != channel) continue;
        const double overlap = std::min(endS, r.endS) - std::max(startS, r.startS);
        if (overlap > best) {
            best = overlap;
            label = regionKindName(r.kind);
        }
    }
    return label;
}

}  // namespace warplab::io
