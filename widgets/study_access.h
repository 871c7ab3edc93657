// io/study.h for Qt code: StudyRecording has a member named `signals`, which Qt defines as a
// keyword macro; the macro is hidden while the header is read (as recording_access.h does).
#pragma once
#include <QtCore/qobjectdefs.h>

#pragma push_macro("signals")
#undef signals
#include "io/study.h"
#pragma pop_macro("signals")
