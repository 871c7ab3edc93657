// Exporting any QCustomPlot to PNG, SVG or PDF (chosen by the file's extension), and the
// right-click menu that offers it on every plot of the application. A plot whose view set the
// kExportTitleProperty (what was computed on which recording, metric, band and window) is
// exported with that title above it and in the file's metadata, so that a figure read
// elsewhere still says what it shows.
#pragma once
#include <QString>

#include <functional>

class QCustomPlot;

namespace warplab::widgets {

inline constexpr const char* kExportTitleProperty = "warplabExportTitle";

// Returns an empty string on success, else why the file could not be written.
QString exportPlot(QCustomPlot* plot, const QString& path);

// Adds "Export plot as PNG/SVG/PDF…" to the plot's context menu (a file dialog asks where);
// with `exportCsv` also "Export data as CSV…", which writes what the plot shows (it returns an
// empty string on success, else why not).
void installPlotExportMenu(QCustomPlot* plot, const QString& baseName,
                           std::function<QString(const QString& path)> exportCsv = {});

}  // namespace warplab::widgets
