// The label of a stretch of one channel by the marked regions it lies in, so that rows of an
// epoch or channel distance matrix can be grouped ("seizure", "query", "reference", "").
#pragma once
#include <string>
#include <vector>

#include "io/regions.h"

namespace warplab::io {

// The kind of the region (on `channel` or on all channels) that overlaps [startS, endS) the
// most; on equal overlap the earlier region in the list; "" when none overlaps.
std::string regionKindLabel(const std::vector<Region>& regions, int channel, double startS, double endS);

}  // namespace warplab::io
