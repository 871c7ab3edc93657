// Between the window's state and a session file (io/session.h): the recording, filters,
// regions and analysis settings go out; coming back, the recording is reopened first.
#pragma once
#include <QString>

#include "io/session.h"

namespace warplab::widgets {
class MetricPanel;
class SignalView;
}  // namespace warplab::widgets

namespace warplab::app {

class Document;

// Builds a session from the window's state; `previous` keeps fields of the file it came from.
io::Session captureSession(const Document& doc, const widgets::MetricPanel& metric, const widgets::SignalView& view,
                           const io::Session& previous);

// Applies a loaded session: opens its recording (false and an error signal from the document
// when that fails), then regions, filters, settings and the channel selection (montage).
bool restoreSession(const io::Session& s, Document& doc, widgets::MetricPanel& metric, widgets::SignalView& view);

}  // namespace warplab::app
