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

}  // namespace warplab::widgets
