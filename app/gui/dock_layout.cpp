#include "app/gui/dock_layout.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>
#include <QTimer>

namespace warplab::app {

DockLayout::DockLayout(QMainWindow* window, QList<QDockWidget*> resultDocks, QDockWidget* sideDock)
    : QObject(window), window_(window), results_(std::move(resultDocks)) {
    const QByteArray state = QSettings().value(settingsKey()).toByteArray();
    restored_ = !state.isEmpty() && window_->restoreState(state, kStateVersion);
    for (QDockWidget* d : results_)
        if (restored_ ? d->isVisibleTo(window_) : !d->property(kOpensWithItsResult).toBool()) openWhenRevealed_ << d;
    for (QDockWidget* d : results_) d->hide();
    // Side panels at a sensible width on first use; a restored layout keeps its own.
    if (!restored_ && sideDock)
        QTimer::singleShot(0, window_, [this, sideDock] { window_->resizeDocks({sideDock}, {280}, Qt::Horizontal); });
}

void DockLayout::reveal(QDockWidget* dock) {
    if (collapsed_) {
        collapsed_ = false;
        for (QDockWidget* d : openWhenRevealed_) d->show();
        if (!restored_ && !openWhenRevealed_.isEmpty())
            window_->resizeDocks({openWhenRevealed_.first()}, {int(window_->width() * 0.45)}, Qt::Horizontal);
    }
    dock->show();
    dock->raise();
}

void DockLayout::save() {
    if (collapsed_)
        for (QDockWidget* d : openWhenRevealed_) d->show();
    QSettings().setValue(settingsKey(), window_->saveState(kStateVersion));
}

}  // namespace warplab::app
