// Units of the result views follow the job that fills them: when a job is submitted, the
// views it will fill get the unit of its values (widgets/value_units.h) for the metric panel's
// settings and the recording's signal unit.
#pragma once
#include <QString>

#include "compute/core/params.h"

namespace warplab::io {
class Recording;
}
namespace warplab::widgets {
class CostMatrixView;
class AlignmentView;
class DistanceMatrixView;
class SearchResultsView;
}  // namespace warplab::widgets

namespace warplab::app {

// The signals' common unit as recorded ("uV"); "" when they differ or none is given.
QString commonSignalUnit(const io::Recording& rec);

// `slot` is the job's slot: "pair" (cost matrix, alignment), "matrix", "search".
void applyJobUnits(const QString& slot, compute::Params p, const QString& signalUnit, widgets::CostMatrixView* cost,
                   widgets::AlignmentView* alignment, widgets::DistanceMatrixView* distances, widgets::SearchResultsView* search);

}  // namespace warplab::app
