// Pattern discovery on an opened recording: the glue between io::Recording / io::Region and
// compute::PatternRequest, shared by `warplab-cli patterns` and the GUI's "Find patterns".
#pragma once
#include <string>
#include <vector>

#include "compute/patterns/pattern_discovery.h"
#include "io/recording.h"
#include "io/regions.h"

namespace warplab::io {

// The channel used when none is chosen: FP1-F7 when present (the first channel of the CHB-MIT
// montage, a fronto-temporal derivation where chb01's seizures show clearly), else the first
// data signal. -1 when the recording has no data signal.
int defaultPatternChannel(const Recording& rec);

// The seizure regions that apply to `signal` (marked on all channels or on that one), in seconds.
std::vector<compute::SecondsSpan> seizureSpansFor(const std::vector<Region>& regions, int signal);

// A request that reads `signal` of `rec` lazily, one block of epochs at a time; `rec` must
// outlive the request. `rateHz` > 0 overrides the recording's rate (a CSV recording given with
// --rate). Regions of other kinds than Seizure are ignored. Throws IoError naming "channel".
compute::PatternRequest patternRequest(const Recording& rec, int signal, const std::vector<Region>& regions,
                                       double rateHz = 0);

// One call for the GUI's "Find patterns" button: the default channel, the seizures from the
// annotations that contain "seizure" (the bundled sample marks 42-82 s so), defaults for e, s, w.
// The matrix is kept in the result (for export from the view) when it is small.
// Throws EngineError (field "seizures") when the recording has no such annotation.
compute::PatternRequest defaultPatternRequest(const Recording& rec);

}  // namespace warplab::io
