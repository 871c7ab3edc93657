#include "widgets/value_units.h"

#include <QObject>

namespace warplab::widgets {

QString displayUnit(const QString& recorded) {
    const QString u = recorded.trimmed();
    if (u.isEmpty()) return QObject::tr("signal units");
    if (u == "uV") return QString::fromUtf8("\u00b5V");
    return u;
}

QString distanceUnit(const compute::Params& p, const QString& signalUnit) {
    using compute::Metric;
    const QString u = displayUnit(signalUnit);
    // What the number is, then its unit; z-normalised series are unitless.
    auto with = [&](const QString& what, const QString& power) {
        return p.znorm ? QObject::tr("%1, unitless (z-normalised series)").arg(what) : QStringLiteral("%1, %2%3").arg(what, u, power);
    };
    const QString sq = QString::fromUtf8("\u00b2"), half = QString::fromUtf8("^\u00bd");
    if (p.metric == Metric::Twed)
        return p.znorm ? QObject::tr("TWED cost, unitless (z-normalised; ν·time and λ penalties added)")
                       : QObject::tr("TWED cost: |Δ| in %1 plus ν·time and λ penalties (no single unit)").arg(u);
    const bool squared = p.cost == compute::Cost::Squared;
    const QString what = p.metric == Metric::Euclidean ? (squared ? QObject::tr("sum of squared differences") : QObject::tr("sum of |differences|"))
                         : p.metric == Metric::SoftDtw ? (squared ? QObject::tr("soft-DTW squared cost (may be negative)")
                                                                  : QObject::tr("soft-DTW |a−b| cost (may be negative)"))
                         : squared ? QObject::tr("accumulated squared cost")
                                   : QObject::tr("accumulated |a−b| cost");
    if (p.sqrt) return with(QObject::tr("square root of the %1").arg(what), squared ? QString() : half);
    return with(what, squared ? sq : QString());
}

QString unitSymbol(const compute::Params& p, const QString& signalUnit) {
    if (p.znorm) return QObject::tr("unitless");
    const QString u = displayUnit(signalUnit);
    if (p.metric == compute::Metric::Twed) return QObject::tr("%1 + penalties").arg(u);
    const bool squared = p.cost == compute::Cost::Squared;
    if (p.sqrt) return squared ? u : u + QString::fromUtf8("^\u00bd");
    return squared ? u + QString::fromUtf8("\u00b2") : u;
}

QString costScaleLabel(const compute::Params& p, const QString& signalUnit) {
    const QString what = p.metric == compute::Metric::SoftDtw ? QObject::tr("accumulated soft-DTW cost") : QObject::tr("accumulated cost");
    return QStringLiteral("%1 (%2)").arg(what, unitSymbol(p, signalUnit));
}

QString distanceScaleLabel(const compute::Params& p, const QString& signalUnit) {
    return QObject::tr("%1 distance (%2)").arg(QString::fromLatin1(compute::metricName(p.metric).data()), unitSymbol(p, signalUnit));
}

}  // namespace warplab::widgets
