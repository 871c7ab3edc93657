#include "app/gui/dock_tabs.h"

#include <QEvent>
#include <QMainWindow>
#include <QTabBar>
#include <QTimer>

namespace warplab::app {

DockTabs::DockTabs(QMainWindow* window) : QObject(window), window_(window) {
    window_->installEventFilter(this);
    refresh();
}

bool DockTabs::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && (event->type() == QEvent::ChildAdded || event->type() == QEvent::LayoutRequest) && !queued_) {
        queued_ = true;
        QTimer::singleShot(0, this, &DockTabs::refresh);
    }
    return QObject::eventFilter(watched, event);
}

void DockTabs::refresh() {
    queued_ = false;
    for (QTabBar* bar : window_->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        bar->setElideMode(Qt::ElideNone);
        bar->setUsesScrollButtons(true);
        bar->setExpanding(false);
        for (int i = 0; i < bar->count(); ++i) bar->setTabToolTip(i, bar->tabText(i));
    }
}

}  // namespace warplab::app
