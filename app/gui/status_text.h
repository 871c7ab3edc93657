// The status bar's messages cut with "…" where they do not fit beside the job progress strip
// (QStatusBar clips them mid-letter), the whole message in the status bar's tooltip.
#pragma once
#include <QObject>
#include <QRect>
#include <QString>

class QStatusBar;

namespace warplab::app {

class StatusText : public QObject {
    Q_OBJECT
public:
    explicit StatusText(QStatusBar* bar);
    // The message as drawn: the current one, cut to messageRect().
    QString shownText() const;
    // Where the message goes: from the left to the first permanent widget shown.
    QRect messageRect() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QStatusBar* bar_;
};

}  // namespace warplab::app
