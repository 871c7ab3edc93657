#include "app/gui/view_units.h"

#include "widgets/alignment_view.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/recording_access.h"
#include "widgets/search_results_view.h"
#include "widgets/value_units.h"

namespace warplab::app {

QString commonSignalUnit(const io::Recording& rec) {
    QString unit;
    bool first = true;
    for (const auto& s : widgets::signalList(rec)) {
        const QString u = QString::fromStdString(s.unit).trimmed();
        if (first) unit = u;
        else if (u != unit) return {};
        first = false;
    }
    return unit;
}

void applyJobUnits(const QString& slot, compute::Params p, const QString& signalUnit, widgets::CostMatrixView* cost,
                   widgets::AlignmentView* alignment, widgets::DistanceMatrixView* distances, widgets::SearchResultsView* search) {
    if (slot == "pair") {
        const QString unit = widgets::distanceUnit(p, signalUnit);
        cost->setUnits(unit, widgets::displayUnit(signalUnit), widgets::costScaleLabel(p, signalUnit));
        alignment->setValueUnit(unit);
    } else if (slot == "matrix") {
        distances->setValueUnit(widgets::distanceUnit(p, signalUnit), widgets::distanceScaleLabel(p, signalUnit));
    } else if (slot == "search") {
        p.metric = compute::Metric::Sdtw;  // the search is subsequence DTW whatever the panel shows
        search->setValueUnit(widgets::distanceUnit(p, signalUnit), widgets::unitSymbol(p, signalUnit));
    }
}

}  // namespace warplab::app
