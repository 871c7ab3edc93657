// Colours and names of region kinds, shared by the signal view and the region list.
#pragma once
#include <QColor>
#include <QString>

#include "io/regions.h"

namespace warplab::widgets {

QColor regionColor(io::RegionKind kind);  // opaque; views add their own transparency
QString regionKindLabel(io::RegionKind kind);

}  // namespace warplab::widgets
