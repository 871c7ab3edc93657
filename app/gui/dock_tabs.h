// The tabs of tabified docks show their whole title ("Cost matrix", not "Cost ma…"): Qt's
// dock tab bars elide by default. Here they never elide, and each tab's tooltip names its dock
// in full (a dock's "tabToolTip" property, else its title). A side area's tabs sit under its
// docks where they all fit across it, and beside them (East or West, read downwards) where
// they do not: at 1280 x 800 the result area is about 500 px wide and 700 px high. Only where
// they fit neither way do scroll arrows remain.
#pragma once
#include <QObject>

class QMainWindow;
class QTabBar;
class QDockWidget;

namespace warplab::app {

class DockTabs : public QObject {
    Q_OBJECT
public:
    explicit DockTabs(QMainWindow* window);
    void refresh();  // the tab bars Qt created since (it makes them as docks get tabified)

    // The length the tabs of `bar` need along it, and the dock of its tab `i`.
    static int tabsLength(const QTabBar* bar);
    static QDockWidget* dockOfTab(const QTabBar* bar, int i);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void queue();
    QMainWindow* window_;
    bool queued_ = false;
};

}  // namespace warplab::app
