#include "app/gui/analysis_recipe.h"

#include <algorithm>
#include <cmath>

#include "app/gui/document.h"

namespace warplab::app {

AnalysisRecipe recipeOn(const Document& doc, AnalysisRecipe::Kind kind, const compute::Params& params) {
    AnalysisRecipe r;
    r.kind = kind;
    r.params = params;
    r.freqBand = doc.frequencyBand();
    if (const auto rec = doc.recording()) r.recording = QString::fromStdString(doc.recordedRecording()->path());
    if (!doc.montage().empty())
        r.why = QObject::tr("it ran on a montage: a script reads the channels as recorded");
    else if (doc.filters().applyToAnalysis && doc.filters().enabled())
        r.why = QObject::tr("it ran on filtered samples: a script reads them unfiltered");
    return r;
}

SampleCut sampleCut(const Document& doc, int channel, double startS, double endS) {
    SampleCut c;
    const auto rec = doc.recording();
    if (!rec) return c;
    const auto& sigs = widgets::signalList(*rec);
    if (channel < 0 || channel >= int(sigs.size())) return c;
    const auto& s = sigs[std::size_t(channel)];
    c.channel = s.displayName;
    c.rateHz = s.rateHz;
    c.first = std::max(0LL, (long long)std::floor(startS * s.rateHz));
    c.last = std::min(s.samples, (long long)std::floor(endS * s.rateHz));
    return c;
}

}  // namespace warplab::app
