#include "widgets/filter_text.h"

#include <QObject>
#include <QStringList>

namespace warplab::widgets {

QString filterSummary(const io::FilterSettings& f) {
    QStringList parts;
    const auto hz = [](double v) { return QString::number(v, 'g', 4); };
    if (f.highpassHz > 0 && f.lowpassHz > 0) parts << QObject::tr("%1–%2 Hz").arg(hz(f.highpassHz), hz(f.lowpassHz));
    else if (f.highpassHz > 0) parts << QObject::tr("high-pass %1 Hz").arg(hz(f.highpassHz));
    else if (f.lowpassHz > 0) parts << QObject::tr("low-pass %1 Hz").arg(hz(f.lowpassHz));
    if (f.notchHz > 0) parts << QObject::tr("notch %1 Hz").arg(hz(f.notchHz));
    return parts.join(QStringLiteral(", "));
}

}  // namespace warplab::widgets
