// Active display/analysis filters in words, as the traces and result titles show them:
// "1–30 Hz, notch 60 Hz", "high-pass 0.5 Hz", "" when none is on.
#pragma once
#include <QString>

#include "io/filters.h"

namespace warplab::widgets {

QString filterSummary(const io::FilterSettings& filters);

}  // namespace warplab::widgets
