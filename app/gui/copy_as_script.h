// "Copy as Python" and "Copy as command" in the Edit menu: the analysis whose result view was
// brought forward last (the alignment, the search, the distance matrix or the seizure patterns)
// as a `warplab` Python snippet or a `warplab-cli` command that reproduces the result on screen
// (analysis_scripts.h). The menu entries name that analysis.
#pragma once
#include <QString>

#include "app/gui/analysis_scripts.h"

class QMainWindow;

namespace warplab::app {

class ActionTable;
class AnalysisController;

// What the analysis is called in the menu ("alignment", "search", ...).
QString analysisName(AnalysisRecipe::Kind kind);
Script asPython(const AnalysisRecipe& r);
// `cli`: how the command names the program ("warplab-cli", or a path).
Script asCommand(const AnalysisRecipe& r, const QString& cli = QStringLiteral("warplab-cli"));

// Adds "edit.copyPython" and "edit.copyCommand" to `menu` (before actions.build(window)): each
// puts the script of the analysis shown on the clipboard, or says why there is none.
void addCopyAsScriptActions(ActionTable& actions, const QString& menu, QMainWindow* window, AnalysisController* analysis);

}  // namespace warplab::app
