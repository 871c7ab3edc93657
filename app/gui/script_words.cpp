#include "app/gui/script_words.h"

#include <QLocale>

namespace warplab::app {

QString pyString(const QString& s) {
    QString out = s;
    out.replace('\\', "\\\\").replace('"', "\\\"");
    return '"' + out + '"';
}

QString shellWord(const QString& s) {
    static const QString plain = QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+,#");
    bool quote = s.isEmpty() || s.startsWith('#');
    for (QChar c : s) quote = quote || !plain.contains(c);
    if (!quote) return s;
    QString out = s;
    out.replace('\'', "'\\''");
    return '\'' + out + '\'';
}

QString exactNumber(double v) {
    const QString g = QString::number(v, 'g', QLocale::FloatingPointShortest);
    if (!g.contains('e')) return g;
    // "1e-05" would not survive "START-END" lists: the fixed form, trailing zeros dropped.
    QString f = QString::number(v, 'f', 20);
    while (f.endsWith('0')) f.chop(1);
    if (f.endsWith('.')) f.chop(1);
    return f;
}

QString pythonCostArgs(const compute::Params& p) {
    QString args = QStringLiteral("cost=%1").arg(pyString(QString::fromLatin1(compute::costName(p.cost).data())));
    if (p.znorm) args += QStringLiteral(", znorm=True");
    if (p.sqrt) args += QStringLiteral(", sqrt=True");
    return args;
}

QStringList cliCostWords(const compute::Params& p) {
    QStringList w{"--cost", QString::fromLatin1(compute::costName(p.cost).data())};
    if (p.znorm) w << "--znorm";
    if (p.sqrt) w << "--sqrt";
    return w;
}

QString pythonMetricArgs(const compute::Params& p) {
    QString args = QStringLiteral("metric=%1").arg(pyString(QString::fromLatin1(compute::metricName(p.metric).data())));
    if (p.metric == compute::Metric::Cdtw) args += QStringLiteral(", band=%1").arg(p.band);
    if (p.metric == compute::Metric::SoftDtw) args += QStringLiteral(", gamma=%1").arg(exactNumber(p.gamma));
    if (p.metric == compute::Metric::Twed) args += QStringLiteral(", nu=%1, lam=%2").arg(exactNumber(p.nu), exactNumber(p.lambda));
    return args + ", " + pythonCostArgs(p);
}

QStringList cliMetricWords(const compute::Params& p) {
    QStringList w{"--metric", QString::fromLatin1(compute::metricName(p.metric).data())};
    if (p.metric == compute::Metric::Cdtw) w << "--band" << QString::number(p.band);
    if (p.metric == compute::Metric::SoftDtw) w << "--gamma" << exactNumber(p.gamma);
    if (p.metric == compute::Metric::Twed) w << "--nu" << exactNumber(p.nu) << "--lambda" << exactNumber(p.lambda);
    return w + cliCostWords(p);
}

QString cliWindow(long long first, long long last, double rateHz) {
    return exactNumber(double(first) / rateHz) + ':' + exactNumber(double(last - first) / rateHz);
}

QString bandWord(const compute::spectral::FrequencyBand& band) {
    const QString range = exactNumber(band.lowHz) + '-' + exactNumber(band.highHz);
    if (band.name.empty()) return range;
    if (const auto preset = compute::spectral::findBand(band.name); preset && *preset == band)
        return QString::fromStdString(band.name);
    return QString::fromStdString(band.name) + '=' + range;
}

}  // namespace warplab::app
