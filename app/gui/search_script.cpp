// The search: the query region searched in its whole channel, its own place excluded.
#include "app/gui/analysis_scripts.h"

#include <QObject>

#include "app/gui/script_words.h"

namespace warplab::app {

namespace {
const char* kPrintRows =
    "print(\"rank,cost,start,end\")\n"
    "for m in matches:\n"
    "    print(f\"{m['rank']},{float(m['cost'])!r},{m['start']},{m['end']}\")\n";
}

Script searchPython(const AnalysisRecipe& r) {
    if (r.half2)
        return {{}, QObject::tr("it ran in half precision (half2), which warplab.search does not offer (use Copy as command)")};
    QString text = pythonOpening(r);
    text += QStringLiteral("query = %1  # the query region\n").arg(pythonBand(r, pythonRead(r.x), r.x.rateHz));
    text += QStringLiteral("reference = %1  # its whole channel\n").arg(pythonBand(r, pythonRead(r.y), r.y.rateHz));
    QString args = QStringLiteral("k=%1").arg(r.topK);
    if (r.window) args += QStringLiteral(", mode=\"window\", band=%1").arg(r.params.band);
    args += ", " + pythonCostArgs(r.params);
    if (!r.includeSelf) {
        // The query's own samples in the reference: no match may overlap them.
        args += QStringLiteral(", exclude=(%1, %2)").arg(r.x.first - r.y.first).arg(r.x.last - 1 - r.y.first);
        if (r.toleranceSamples > 0) args += QStringLiteral(", exclusion_tolerance=%1").arg(r.toleranceSamples);
    }
    text += QStringLiteral("matches = warplab.search(query, reference, %1)\n").arg(args);
    text += QString::fromLatin1(kPrintRows);
    return {text, {}};
}

Script searchCommand(const AnalysisRecipe& r, const QString& cli) {
    const QString file = shellWord(r.recording);
    QStringList words{cli, "search", "--query", file, "--reference", file, "--channel",
                      shellWord(QString::fromStdString(r.x.channel)), "--window", cliWindow(r.x.first, r.x.last, r.x.rateHz),
                      "--top", QString::number(r.topK)};
    if (r.window) words << "--mode" << "window" << "--band" << QString::number(r.params.band);
    if (r.half2) words << "--precision" << "half2";
    words << cliCostWords(r.params);
    if (r.freqBand) words << "--freq-band" << shellWord(bandWord(*r.freqBand));  // the rows then start with the band
    if (r.includeSelf) words << "--include-self";
    else if (r.toleranceSamples > 0) words << "--exclusion-tolerance" << QString::number(r.toleranceSamples);
    return {words.join(' ') + '\n', {}};
}

}  // namespace warplab::app
