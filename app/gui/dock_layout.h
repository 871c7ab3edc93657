// The main window's dock layout: the result docks (cost matrix, alignment, distance matrix,
// ...) start collapsed so that the traces have the room, and open when the first result
// arrives; the user's arrangement (positions, sizes, tabs, which docks are open) is kept
// between runs with QMainWindow::saveState / restoreState in QSettings ("mainWindow/state").
#pragma once
#include <QList>
#include <QObject>

class QDockWidget;
class QMainWindow;

namespace warplab::app {

class DockLayout : public QObject {
    Q_OBJECT
public:
    // Restores the saved state (if any), then hides `resultDocks` until reveal().
    DockLayout(QMainWindow* window, QList<QDockWidget*> resultDocks, QDockWidget* sideDock);

    // A result arrived for `dock`: the result area opens as the user left it (the docks that
    // were open, at their size; on first use about 45 % of the window, with the docks not
    // marked kOpensWithItsResult) and `dock` is raised.
    void reveal(QDockWidget* dock);
    bool collapsed() const { return collapsed_; }
    // Writes the layout to QSettings (on close); docks still collapsed are saved as the user
    // left them, not as hidden.
    void save();

    static constexpr int kStateVersion = 1;
    // A dock with this property true is not opened with the others on first use, only when a
    // result of its own arrives (reveal): fewer tabs than the result area can show at 1280 x 800.
    static constexpr const char* kOpensWithItsResult = "opensWithItsResult";
    static QString settingsKey() { return QStringLiteral("mainWindow/state"); }

private:
    QMainWindow* window_;
    QList<QDockWidget*> results_;
    QList<QDockWidget*> openWhenRevealed_;  // open in the saved layout (all, on first use)
    bool restored_ = false;
    bool collapsed_ = true;
};

}  // namespace warplab::app
