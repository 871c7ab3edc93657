#include "widgets/elided_label.h"

#include <algorithm>

#include <QFontMetrics>
#include <QResizeEvent>

namespace warplab::widgets {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens its dock
}

void ElidedLabel::setFullText(const QString& text) {
    full_ = text;
    refit();
}

QSize ElidedLabel::minimumSizeHint() const { return {20, QLabel::minimumSizeHint().height()}; }

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    refit();
}

void ElidedLabel::refit() {
    const int room = std::max(0, contentsRect().width() - 2);
    shown_ = fontMetrics().elidedText(full_, Qt::ElideRight, room);
    if (full_.isEmpty()) shown_.clear();
    setText(shown_);
    setToolTip(shown_ == full_ ? QString() : full_);
}

}  // namespace warplab::widgets
