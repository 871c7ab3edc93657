// Gives the keyboard back to the traces when a dialog (a file dialog, an input dialog, an
// error box) closes: without a window manager, or with one that activates nothing, the
// window would otherwise be left with no focused widget, so that the mark keys (S, Q, R) and
// Ctrl+Shift+M did nothing until the user clicked the traces.
#pragma once
#include <QObject>
#include <QPointer>

class QWidget;

namespace warplab::app {

class FocusReturn : public QObject {
    Q_OBJECT
public:
    // `window` is the main window, `home` the widget that gets the focus back (the traces).
    FocusReturn(QWidget* window, QWidget* home);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void giveBack();
    QPointer<QWidget> window_, home_;
    bool queued_ = false;
};

}  // namespace warplab::app
