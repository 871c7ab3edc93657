// "Copy as Python" and "Copy as command": the alignment of the marked query and reference
// regions (what Align computes, with the metric panel's parameters) as a `warplab` Python
// snippet or a `warplab-cli` command, so that the result on screen can be reproduced in a script.
#pragma once
#include <functional>

#include <QString>

#include "compute/core/params.h"

class QWidget;

namespace warplab::app {

class ActionTable;
class Document;

// A script, or why there is none (no recording, no query or reference, a montage or filters the
// script cannot reproduce, a pair the command line cannot express).
struct Script {
    QString text;
    QString why;  // empty when text is usable
};

// `currentChannel` stands for regions marked on all channels (as Align takes it).
Script alignmentAsPython(const Document& doc, const compute::Params& params, int currentChannel);
// `cli`: how the command names the program ("warplab-cli", or a path).
Script alignmentAsCommand(const Document& doc, const compute::Params& params, int currentChannel,
                          const QString& cli = QStringLiteral("warplab-cli"));

// Adds "Copy as Python" and "Copy as command" to `menu`: each puts its script on the clipboard,
// or shows why there is none.
void addCopyAsScriptActions(ActionTable& actions, const QString& menu, QWidget* parent, const Document* doc,
                            std::function<compute::Params()> params, std::function<int()> currentChannel);

}  // namespace warplab::app
