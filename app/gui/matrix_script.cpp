// The distance matrix: all pairs of the channels over a window, or of a channel's epochs.
#include "app/gui/analysis_scripts.h"

#include <QObject>

#include "app/gui/script_words.h"

namespace warplab::app {

namespace {
const char* kPrintRows = "for row in D:\n    print(\",\".join(repr(float(v)) for v in row))\n";
}

Script matrixPython(const AnalysisRecipe& r) {
    QString text = pythonOpening(r);
    if (r.epochS > 0) {
        // The epochs as the window steps them: the same sums of doubles, the same floor.
        text.prepend(QStringLiteral("import math\n"));
        text += QStringLiteral("x = %1  # the whole channel\n").arg(pythonRead(r.x));
        text += QStringLiteral("rate, epoch, stride, duration = %1, %2, %3, %4\n")
                    .arg(exactNumber(r.x.rateHz), exactNumber(r.epochS), exactNumber(r.strideS), exactNumber(r.durationS));
        text += QStringLiteral("starts, t = [], 0.0\n"
                               "while t + epoch <= duration + 1e-9:\n"
                               "    starts.append(t)\n"
                               "    t += stride\n"
                               "X = [%1 for t in starts]\n")
                    .arg(pythonBand(r, QStringLiteral("x[math.floor(t * rate):min(len(x), math.floor((t + epoch) * rate))]"),
                                    r.x.rateHz));
    } else {
        text += QStringLiteral("X = [  # the rows and columns\n");
        for (const SampleCut& c : r.rows) text += QStringLiteral("    %1,\n").arg(pythonBand(r, pythonRead(c), c.rateHz));
        text += QStringLiteral("]\n");
    }
    text += QStringLiteral("D = warplab.distance_matrix(X, %1)\n").arg(pythonMetricArgs(r.params));
    text += QString::fromLatin1(kPrintRows);
    return {text, {}};
}

Script matrixCommand(const AnalysisRecipe& r, const QString&) {
    return {{}, r.epochS > 0 ? QObject::tr("warplab-cli dm reads series files and does not cut a channel into epochs (use Copy as Python)")
                             : QObject::tr("warplab-cli dm reads one channel of a recording, not all of them (use Copy as Python)")};
}

}  // namespace warplab::app
