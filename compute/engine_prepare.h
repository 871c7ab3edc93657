// Engine internals shared by engine.cpp and engine_matrix.cpp: input checks and z-normalisation
// before any kernel sees the data.
#pragma once
#include <cmath>
#include <string>

#include "compute/core/params.h"
#include "compute/core/series.h"

namespace warplab::compute::detail {

// Checks every series of `in` (field names "<name>[i]") and returns either `in` itself or,
// with znorm, a z-normalised copy kept in `storage`.
const SeriesSet& prepareSet(const SeriesSet& in, const std::string& name, const Params& p,
                            SeriesSet& storage);

// Checks one series and returns it or its z-normalised copy in `storage`.
const Series& prepareOne(const Series& in, const std::string& name, const Params& p, Series& storage);

// The value reported to the user: the raw accumulated cost or its square root with --sqrt.
inline double finish(double raw, const Params& p) { return p.sqrt ? std::sqrt(raw) : raw; }

}  // namespace warplab::compute::detail
