// The unit of the numbers a view shows for a metric's result, so that every value names it
// or says it is unitless: DTW with the squared local cost on a recording in uV accumulates
// squared uV ("accumulated squared cost, µV²"); with --sqrt it is µV again; z-normalised
// series have no unit.
#pragma once
#include <QString>

#include "compute/core/params.h"

namespace warplab::widgets {

// "µV" for EDF's ASCII "uV"; "signal units" when the recording gives none.
QString displayUnit(const QString& recorded);

// The unit of a distance or accumulated cost computed with `p` on series in `signalUnit`
// (as recorded, e.g. "uV"), e.g. "accumulated squared cost, µV²".
QString distanceUnit(const compute::Params& p, const QString& signalUnit);

// The unit alone, for colour bars and column headers where room is short: "µV²" (squared
// cost), "µV" (absolute cost, or the square root of a squared one), "mV^½", "unitless"
// (z-normalised), "µV + penalties" (TWED).
QString unitSymbol(const compute::Params& p, const QString& signalUnit);

// One colour-bar label per quantity: "accumulated cost (µV²)" for a pair's cost matrix,
// "dtw distance (µV²)" for a distance matrix.
QString costScaleLabel(const compute::Params& p, const QString& signalUnit);
QString distanceScaleLabel(const compute::Params& p, const QString& signalUnit);

}  // namespace warplab::widgets
