#include "widgets/region_style.h"

namespace warplab::widgets {

QColor regionColor(io::RegionKind kind) {
    switch (kind) {
    case io::RegionKind::Seizure: return QColor(220, 50, 47);
    case io::RegionKind::Query: return QColor(0, 95, 230);  // saturated: light blue vanished under dense traces
    case io::RegionKind::Reference: return QColor(133, 153, 0);
    }
    return Qt::gray;
}

QString regionKindLabel(io::RegionKind kind) {
    switch (kind) {
    case io::RegionKind::Seizure: return QStringLiteral("Seizure");
    case io::RegionKind::Query: return QStringLiteral("Query");
    case io::RegionKind::Reference: return QStringLiteral("Reference");
    }
    return {};
}

}  // namespace warplab::widgets
