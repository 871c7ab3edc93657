// The tabs of tabified docks show their whole title ("Cost matrix", not "Cost ma…"): Qt's
// dock tab bars elide by default. Here they never elide, get scroll arrows when the tabs do not
// fit, and each tab's tooltip names its dock.
#pragma once
#include <QObject>

class QMainWindow;

namespace warplab::app {

class DockTabs : public QObject {
    Q_OBJECT
public:
    explicit DockTabs(QMainWindow* window);
    void refresh();  // the tab bars Qt created since (it makes them as docks get tabified)

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QMainWindow* window_;
    bool queued_ = false;
};

}  // namespace warplab::app
