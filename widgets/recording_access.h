// io::Recording::signals() collides with Qt's `signals` keyword macro. Qt code includes the
// recording through this header (which hides the macro while the declaration is parsed) and
// reads the signal list through signalList().
#pragma once
#include <QtCore/qobjectdefs.h>

#pragma push_macro("signals")
#undef signals
#include "io/recording.h"

namespace warplab::widgets {
inline const std::vector<io::SignalInfo>& signalList(const io::Recording& r) { return r.signals(); }
}  // namespace warplab::widgets
#pragma pop_macro("signals")
