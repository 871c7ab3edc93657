// Engine internals shared by engine.cpp and engine_matrix.cpp: input checks and z-normalisation
// before any kernel sees the data.
#pragma once
#include <cmath>
#include <string>

#include "compute/core/params.h"
#include "compute/core/preprocess.h"
#include "compute/core/series.h"

namespace warplab::compute::detail {

// Checks every series of `in` (field names "<name>[i]") and returns either `in` itself or,
// with znorm, a z-normalised copy kept in `storage`.
const SeriesSet& prepareSet(const SeriesSet& in, const std::string& name, const Params& p,
                            SeriesSet& storage);

// Checks one series and returns it or its z-normalised copy in `storage`.
const Series& prepareOne(const Series& in, const std::string& name, const Params& p, Series& storage);
// The same without the check, for a series already checked: the CPU's copy of a search's
// inputs, made only when the CPU searches (the GPU z-normalises on the device, and the host's
// copy of a 40-hour reference costs about as much as the device's whole search).
inline const Series& normalisedIfAsked(const Series& in, const Params& p, Series& storage) {
    if (!p.znorm) return in;
    storage = znormalized(in);
    return storage;
}

// The value reported to the user: the raw accumulated cost or its square root with --sqrt.
inline double finish(double raw, const Params& p) { return p.sqrt ? std::sqrt(raw) : raw; }

}  // namespace warplab::compute::detail
