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

void ElidedLabel::setMaxLines(int lines) {
    maxLines_ = std::max(1, lines);
    refit();
}

QSize ElidedLabel::minimumSizeHint() const { return {20, sizeHint().height()}; }

QSize ElidedLabel::sizeHint() const {
    const int frame = width() - contentsRect().width();
    const int lineHeight = QLabel::sizeHint().height() / std::max(1, int(text().count('\n')) + 1);
    return {fontMetrics().horizontalAdvance(full_) + frame + 4, std::max(QFontMetrics(font()).height(), lineHeight) * lines_ + frame};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    refit();
}

void ElidedLabel::refit() {
    const int room = std::max(0, contentsRect().width() - 2);
    const QFontMetrics fm = fontMetrics();
    QStringList lines;
    QString rest = full_;
    // Whole words on every line but the last, which is cut where it does not fit.
    while (int(lines.size()) < maxLines_ - 1 && fm.horizontalAdvance(rest) > room) {
        int cut = -1;
        for (int k = rest.indexOf(' '); k > 0; k = rest.indexOf(' ', k + 1)) {
            if (fm.horizontalAdvance(rest.left(k)) > room) break;
            cut = k;
        }
        if (cut <= 0) break;
        lines << rest.left(cut);
        rest = rest.mid(cut + 1);
    }
    const QString last = fm.elidedText(rest, Qt::ElideRight, room);
    elided_ = last != rest;
    lines << last;
    shown_ = full_.isEmpty() ? QString() : lines.join('\n');
    setText(shown_);
    const int count = full_.isEmpty() ? 1 : int(lines.size());
    if (count != lines_) {
        lines_ = count;
        updateGeometry();
    }
    if (!base_.isEmpty()) setToolTip(full_.isEmpty() ? base_ : full_ + "\n" + base_);
    else setToolTip(elided_ ? full_ : QString());
}

}  // namespace warplab::widgets
