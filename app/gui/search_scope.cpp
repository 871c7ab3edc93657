#include "app/gui/search_scope.h"

#include <cmath>

namespace warplab::app {

compute::SearchScope applySearchChoice(const widgets::SearchChoice& choice, std::size_t firstSample, std::size_t m,
                                       double rate, compute::Params& p) {
    compute::SearchScope scope;
    // No match may overlap the query's samples (beyond the overlap allowed): overlap_exclusion.h.
    if (!choice.includeSelf && m > 0)
        scope.spans = {compute::ExcludedSpan{firstSample, firstSample + m - 1, std::size_t(std::llround(choice.toleranceS * rate))}};
    if (choice.half2 && !choice.window) scope.precision = compute::SearchPrecision::Half2;
    if (choice.window) {
        p.metric = compute::Metric::Cdtw;
        p.band = int(std::floor(choice.bandPercent / 100.0 * double(m)));
        p.cost = compute::Cost::Squared;
    }
    return scope;
}

}  // namespace warplab::app
