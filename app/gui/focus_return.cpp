#include "app/gui/focus_return.h"

#include <QApplication>
#include <QDialog>
#include <QEvent>
#include <QGuiApplication>
#include <QTimer>
#include <QWidget>
#include <QWindow>

namespace warplab::app {

FocusReturn::FocusReturn(QWidget* window, QWidget* home) : QObject(window), window_(window), home_(home) {
    qApp->installEventFilter(this);
    // A native dialog is no QDialog: when the window gets the focus back with nothing focused
    // inside it, the traces take it.
    connect(qApp, &QGuiApplication::focusWindowChanged, this, [this](QWindow* w) {
        if (window_ && w && w == window_->windowHandle() && (!QApplication::focusWidget() || QApplication::focusWidget() == window_))
            giveBack();
    });
}

bool FocusReturn::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Hide) {
        auto* dialog = qobject_cast<QDialog*>(watched);
        if (dialog && dialog->isWindow() && window_ && dialog->window() != window_.data() && !queued_) {
            queued_ = true;
            QTimer::singleShot(0, this, &FocusReturn::giveBack);  // after the dialog's own hide handling
        }
    }
    return QObject::eventFilter(watched, event);
}

void FocusReturn::giveBack() {
    queued_ = false;
    if (!window_ || !home_ || !window_->isVisible()) return;
    // Another dialog still open (a modal one, or a nested file dialog) keeps the keyboard.
    if (QApplication::activeModalWidget() || QApplication::activePopupWidget()) return;
    QWidget* focus = QApplication::focusWidget();
    if (focus && focus->window() != window_.data()) {
        auto* dialog = qobject_cast<QDialog*>(focus->window());
        if (dialog && dialog->isVisible()) return;  // the user moved on to a non-modal dialog
    }
    window_->activateWindow();
    window_->raise();
    home_->setFocus(Qt::OtherFocusReason);  // always the traces: predictable, whatever had it before
}

}  // namespace warplab::app
