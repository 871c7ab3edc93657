// The alignment (Align, or a distance-matrix cell opened): the query against the reference.
#include "app/gui/analysis_scripts.h"

#include <QObject>

#include "app/gui/script_words.h"

namespace warplab::app {

QString pythonOpening(const AnalysisRecipe& r) {
    return QStringLiteral("import warplab\n\nrec = warplab.open_recording(%1)\n").arg(pyString(r.recording));
}

QString pythonRead(const SampleCut& c) {
    return QStringLiteral("rec.read(%1, %2, %3)").arg(pyString(QString::fromStdString(c.channel))).arg(c.first).arg(c.last);
}

QString pythonBand(const AnalysisRecipe& r, const QString& expr, double rateHz) {
    if (!r.freqBand) return expr;
    return QStringLiteral("warplab.filter(%1, %2, %3)").arg(expr, exactNumber(rateHz), pyString(bandWord(*r.freqBand)));
}

Script alignmentPython(const AnalysisRecipe& r) {
    QString text = pythonOpening(r);
    text += QStringLiteral("x = %1  # the query\n").arg(pythonBand(r, pythonRead(r.x), r.x.rateHz));
    text += QStringLiteral("y = %1  # the reference\n").arg(pythonBand(r, pythonRead(r.y), r.y.rateHz));
    if (r.lowMemory) {
        // Too large for the full matrix on screen: the distance alone, as the window computed it.
        text += QStringLiteral("cost = warplab.distance_matrix([x], [y], %1)[0, 0]\n").arg(pythonMetricArgs(r.params));
    } else {
        text += QStringLiteral("cost, path = warplab.align(x, y, %1)\n").arg(pythonMetricArgs(r.params));
    }
    text += QStringLiteral("print(repr(float(cost)))\n");
    return {text, {}};
}

Script alignmentCommand(const AnalysisRecipe& r, const QString& cli) {
    if (r.lowMemory)
        return {{}, QObject::tr("the pair is too large for a full matrix, and warplab-cli align builds one (use Copy as Python)")};
    if (r.freqBand)
        return {{}, QObject::tr("warplab-cli align does not filter to a frequency band (use Copy as Python)")};
    const QString file = shellWord(r.recording);
    QStringList words{cli, "align", file, file, "--channel", shellWord(QString::fromStdString(r.x.channel)),
                      "--window", cliWindow(r.x.first, r.x.last, r.x.rateHz)};
    if (r.y.channel != r.x.channel) words << "--reference-channel" << shellWord(QString::fromStdString(r.y.channel));
    if (r.y.first != r.x.first || r.y.last != r.x.last || r.y.channel != r.x.channel)
        words << "--reference-window" << cliWindow(r.y.first, r.y.last, r.y.rateHz);
    words << cliMetricWords(r.params);
    return {words.join(' ') + '\n', {}};
}

}  // namespace warplab::app
