// Seizure pattern discovery on one channel of the recording from the marked seizures.
#include "app/gui/analysis_scripts.h"

#include <QObject>

#include "app/gui/script_words.h"

namespace warplab::app {

Script patternsPython(const AnalysisRecipe& r) {
    QStringList seizures;
    for (const auto& [s, e] : r.seizures) seizures << QStringLiteral("(%1, %2)").arg(exactNumber(s), exactNumber(e));
    QString text = pythonOpening(r);
    const QString freqBand = r.freqBand ? QStringLiteral(", freq_band=%1").arg(pyString(bandWord(*r.freqBand))) : QString();
    text += QStringLiteral("ranking = warplab.find_patterns(rec, channel=%1, seizures=[%2], epoch=%3, stride=%4, band=%5%6)\n")
                .arg(pyString(QString::fromStdString(r.x.channel)), seizures.join(", "))
                .arg(r.epoch).arg(r.stride).arg(r.params.band).arg(freqBand);
    text += QStringLiteral("print(\"rank,quality,pattern_index,start_seconds\")\n"
                           "for p in ranking:\n"
                           "    print(f\"{p['rank']},{float(p['quality'])!r},{p['pattern_index']},{float(p['start_seconds'])!r}\")\n");
    return {text, {}};
}

Script patternsCommand(const AnalysisRecipe& r, const QString& cli) {
    QStringList seizures;
    for (const auto& [s, e] : r.seizures) seizures << exactNumber(s) + '-' + exactNumber(e);
    QStringList words{cli, "patterns", "--recording", shellWord(r.recording), "--channel",
                      shellWord(QString::fromStdString(r.x.channel)), "--seizures", seizures.join(','),
                      "--epoch", QString::number(r.epoch), "--stride", QString::number(r.stride),
                      "--band", QString::number(r.params.band)};
    if (r.freqBand) words << "--freq-band" << shellWord(bandWord(*r.freqBand));  // the rows then start with the band
    return {words.join(' ') + '\n', {}};
}

}  // namespace warplab::app
