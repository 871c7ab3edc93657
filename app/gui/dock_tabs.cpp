#include "app/gui/dock_tabs.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QTabBar>
#include <QTimer>

namespace warplab::app {

namespace {
bool vertical(const QTabBar* bar) {
    const QTabBar::Shape s = bar->shape();
    return s == QTabBar::RoundedEast || s == QTabBar::RoundedWest || s == QTabBar::TriangularEast || s == QTabBar::TriangularWest;
}
}  // namespace

DockTabs::DockTabs(QMainWindow* window) : QObject(window), window_(window) {
    window_->installEventFilter(this);
    refresh();
}

bool DockTabs::eventFilter(QObject* watched, QEvent* event) {
    const auto type = event->type();
    if ((watched == window_ && (type == QEvent::ChildAdded || type == QEvent::LayoutRequest)) || type == QEvent::Resize)
        queue();  // a dock's resize: its separator was dragged
    return QObject::eventFilter(watched, event);
}

void DockTabs::queue() {
    if (queued_) return;
    queued_ = true;
    QTimer::singleShot(0, this, &DockTabs::refresh);
}

int DockTabs::tabsLength(const QTabBar* bar) {
    const QSize all = bar->sizeHint();  // every tab at its full size, one after the other
    return vertical(bar) ? all.height() : all.width();
}

QDockWidget* DockTabs::dockOfTab(const QTabBar* bar, int i) {
    // Qt's dock area keeps the tab's dock widget as the tab's data (a quintptr).
    const quintptr id = bar->tabData(i).value<quintptr>();
    for (QDockWidget* d : bar->parentWidget()->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        if (quintptr(d) == id) return d;
    return nullptr;
}

void DockTabs::refresh() {
    queued_ = false;
    for (QDockWidget* d : window_->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) d->installEventFilter(this);
    for (QTabBar* bar : window_->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        bar->setElideMode(Qt::ElideNone);
        bar->setUsesScrollButtons(true);
        bar->setExpanding(false);
        for (int i = 0; i < bar->count(); ++i) {
            const QDockWidget* d = dockOfTab(bar, i);
            const QString full = d ? d->property("tabToolTip").toString() : QString();
            bar->setTabToolTip(i, full.isEmpty() ? bar->tabText(i) : full);
        }
        if (!bar->isVisible() || bar->count() < 2) continue;
        QDockWidget* dock = dockOfTab(bar, bar->currentIndex());
        if (!dock || dock->isFloating()) continue;
        const Qt::DockWidgetArea area = window_->dockWidgetArea(dock);
        if (area != Qt::LeftDockWidgetArea && area != Qt::RightDockWidgetArea) continue;
        // The area's width: the docks', plus the tab bar's where it stands beside them.
        const int across = dock->width() + (vertical(bar) ? bar->width() : 0);
        const QTabWidget::TabPosition want = tabsLength(bar) <= across - 4 ? QTabWidget::South
                                             : area == Qt::RightDockWidgetArea ? QTabWidget::East
                                                                               : QTabWidget::West;
        if (window_->tabPosition(area) != want) window_->setTabPosition(area, want);
    }
}

}  // namespace warplab::app
