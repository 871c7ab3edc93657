// Which EDF+ annotations name a seizure, so that a recording that carries its seizure as an
// annotation (the bundled sample: "seizure" at 42 s for 40 s) shows it as a Seizure region
// when it opens. A text names a seizure when one of its words (runs of letters and digits),
// lowercased, is "seizure", "seizures", "sz", or "sz" followed by digits ("sz1"), or starts
// with "seizure" ("seizure-onset"). Markers without a duration are not regions.
#pragma once
#include <string>
#include <vector>

#include "io/regions.h"

namespace warplab::io {

class Recording;

bool annotationNamesSeizure(const std::string& text);

// Seizure regions (all channels) of the annotations that name a seizure and have a duration,
// clipped to the recording; note "annotation: <text>".
std::vector<Region> namedSeizureRegions(const Recording& rec);

}  // namespace warplab::io
