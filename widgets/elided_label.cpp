#include "widgets/elided_label.h"

#include <algorithm>

#include <QFontMetrics>
#include <QResizeEvent>

namespace warplab::widgets {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);  // one line; never widens its dock
}

void ElidedLabel::setFullText(const QString& text) {
    full_ = text;
    refit();
}

void ElidedLabel::setBaseToolTip(const QString& text) {
    base_ = text;
    refit();
}

QSize ElidedLabel::minimumSizeHint() const { return {20, QLabel::minimumSizeHint().height()}; }

QSize ElidedLabel::sizeHint() const {
    const int frame = width() - contentsRect().width();
    return {fontMetrics().horizontalAdvance(full_) + frame + 4, QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    refit();
}

void ElidedLabel::refit() {
    const int room = std::max(0, contentsRect().width() - 2);
    shown_ = fontMetrics().elidedText(full_, Qt::ElideRight, room);
    if (full_.isEmpty()) shown_.clear();
    setText(shown_);
    if (!base_.isEmpty()) setToolTip(full_.isEmpty() ? base_ : full_ + "\n" + base_);
    else setToolTip(shown_ == full_ ? QString() : full_);
}

}  // namespace warplab::widgets
