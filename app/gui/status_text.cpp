#include "app/gui/status_text.h"

#include <algorithm>

#include <QEvent>
#include <QPainter>
#include <QStatusBar>
#include <QStyleOption>

namespace warplab::app {

StatusText::StatusText(QStatusBar* bar) : QObject(bar), bar_(bar) {
    bar_->installEventFilter(this);
    connect(bar_, &QStatusBar::messageChanged, this, [this](const QString& message) {
        bar_->setToolTip(message);
        bar_->update();
    });
}

QRect StatusText::messageRect() const {
    // As QStatusBar places its message. While a message shows, its normal widgets are hidden:
    // the children still shown are the permanent ones (and the size grip, further right).
    const bool rtl = bar_->layoutDirection() == Qt::RightToLeft;
    int left = 6, right = bar_->width() - 12;
    for (QWidget* w : bar_->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!w->isVisible()) continue;
        if (rtl) left = std::max(left, w->x() + w->width() + 2);
        else right = std::min(right, w->x() - 2);
    }
    return QRect(left, 0, std::max(0, right - left), bar_->height());
}

QString StatusText::shownText() const {
    const QString message = bar_->currentMessage();
    if (message.isEmpty()) return {};
    // One line: a message with line breaks reads as one.
    QString line = message;
    line.replace('\n', ' ');
    return bar_->fontMetrics().elidedText(line, Qt::ElideRight, messageRect().width());
}

bool StatusText::eventFilter(QObject* watched, QEvent* event) {
    if (watched != bar_ || event->type() != QEvent::Paint || bar_->currentMessage().isEmpty())
        return QObject::eventFilter(watched, event);
    // QStatusBar's own painting of a message, the text cut to fit.
    QPainter p(bar_);
    QStyleOption opt;
    opt.initFrom(bar_);
    bar_->style()->drawPrimitive(QStyle::PE_PanelStatusBar, &opt, &p, bar_);
    p.setPen(bar_->palette().windowText().color());
    p.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine, shownText());
    return true;
}

}  // namespace warplab::app
