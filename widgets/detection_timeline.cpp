#include "widgets/detection_timeline.h"

#include <algorithm>
#include <cmath>

#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>

namespace warplab::widgets {

namespace {
constexpr int kRowHeight = 30;   // seizures in the upper half, detections in the lower
constexpr int kAxisHeight = 18;  // the time axis under the rows
constexpr int kMargin = 6;
constexpr int kMinEventWidth = 3;  // a 10 s event in a day-long row stays visible and clickable
}  // namespace

QColor eventColor(EventKind kind) {
    switch (kind) {
    case EventKind::Hit: return QColor(46, 125, 50);          // green
    case EventKind::Miss: return QColor(198, 40, 40);         // red
    case EventKind::Detection: return QColor(21, 101, 192);   // blue
    case EventKind::FalseAlarm: return QColor(239, 108, 0);   // orange
    }
    return Qt::gray;
}

DetectionTimeline::DetectionTimeline(QWidget* parent) : QWidget(parent) {
    setObjectName("detectionTimeline");
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void DetectionTimeline::setResult(const compute::CrossvalResult* result) {
    result_ = result;
    events_.clear();
    longestS_ = 1;
    if (result_) {
        for (int f = 0; f < int(result_->folds.size()); ++f) {
            const auto& fold = result_->folds[std::size_t(f)];
            longestS_ = std::max(longestS_, fold.durationS);
            const auto& sc = fold.scoring;
            for (int i = 0; i < int(sc.reference.size()); ++i)
                events_.push_back({f, sc.referenceDetected[std::size_t(i)] ? EventKind::Hit : EventKind::Miss, i,
                                   sc.reference[std::size_t(i)].startS, sc.reference[std::size_t(i)].endS});
            for (int i = 0; i < int(sc.hypothesis.size()); ++i)
                events_.push_back({f, sc.hypothesisFalse[std::size_t(i)] ? EventKind::FalseAlarm : EventKind::Detection, i,
                                   sc.hypothesis[std::size_t(i)].startS, sc.hypothesis[std::size_t(i)].endS});
        }
        if (current_ >= int(result_->folds.size())) current_ = -1;
    }
    // Every row shows, whatever room the scroll area had before (it scrolls when short).
    setMinimumHeight(sizeHint().height());
    updateGeometry();
    update();
}

void DetectionTimeline::setCurrentFold(int fold) {
    current_ = fold;
    update();
}

int DetectionTimeline::labelWidth() const {
    int w = fontMetrics().horizontalAdvance(QStringLiteral("chb00_00.edf"));
    if (result_)
        for (const auto& f : result_->folds)
            w = std::max(w, fontMetrics().horizontalAdvance(QString::fromStdString(f.recording)));
    return std::min(w + 2 * kMargin, std::max(80, width() / 4));
}

int DetectionTimeline::rowTop(int fold) const { return kMargin + fold * kRowHeight; }

double DetectionTimeline::xOf(double seconds) const {
    const int left = labelWidth(), right = width() - kMargin;
    return left + (right - left) * seconds / longestS_;
}

QSize DetectionTimeline::sizeHint() const {
    const int rows = result_ ? int(result_->folds.size()) : 0;
    return {600, 2 * kMargin + std::max(1, rows) * kRowHeight + kAxisHeight};
}

QSize DetectionTimeline::minimumSizeHint() const { return {200, sizeHint().height()}; }

QRect DetectionTimeline::eventRect(const TimelineEvent& e) const {
    const int top = rowTop(e.fold);
    const bool upper = e.kind == EventKind::Hit || e.kind == EventKind::Miss;
    const int x0 = int(std::floor(xOf(e.startS))), x1 = int(std::ceil(xOf(e.endS)));
    const int y = upper ? top + 3 : top + kRowHeight / 2 + 1;
    return QRect(x0, y, std::max(kMinEventWidth, x1 - x0), kRowHeight / 2 - 4);
}

void DetectionTimeline::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!result_ || result_->folds.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Run the detector's cross-validation (Analysis menu) to see its events here."));
        return;
    }
    const int left = labelWidth();
    const QFontMetrics fm = fontMetrics();
    for (int f = 0; f < int(result_->folds.size()); ++f) {
        const auto& fold = result_->folds[std::size_t(f)];
        const int top = rowTop(f);
        if (f == current_) p.fillRect(QRect(0, top, width(), kRowHeight), palette().highlight().color().lighter(180));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(kMargin, top, left - 2 * kMargin, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(QString::fromStdString(fold.recording), Qt::ElideMiddle, left - 2 * kMargin));
        // The recording itself: a light bar as long as it lasts, the line between the halves.
        const int x1 = int(xOf(fold.durationS));
        p.fillRect(QRect(left, top + 2, x1 - left, kRowHeight - 4), palette().alternateBase());
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(left, top + kRowHeight / 2, x1, top + kRowHeight / 2);
    }
    for (const TimelineEvent& e : events_) {
        const QColor c = eventColor(e.kind);
        p.fillRect(eventRect(e), c);
    }
    // Time axis: hours or minutes at round steps, on the longest recording's scale.
    const int axisTop = rowTop(int(result_->folds.size())) + 2;
    p.setPen(palette().color(QPalette::Text));
    p.drawLine(left, axisTop, width() - kMargin, axisTop);
    const double steps[] = {10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800, 43200, 86400};
    double step = steps[std::size(steps) - 1];
    for (double s : steps)
        if ((width() - kMargin - left) * s / longestS_ >= 70) {
            step = s;
            break;
        }
    for (double t = 0; t <= longestS_ + 1e-9; t += step) {
        const int x = int(xOf(t));
        p.drawLine(x, axisTop, x, axisTop + 3);
        const QString label = step >= 3600 ? tr("%1 h").arg(t / 3600, 0, 'g', 3)
                              : step >= 60 ? tr("%1 min").arg(t / 60, 0, 'g', 4)
                                           : tr("%1 s").arg(t, 0, 'g', 5);
        const int w = fm.horizontalAdvance(label);
        if (x + w / 2 <= width()) p.drawText(x - w / 2, axisTop + 3 + fm.ascent(), label);
    }
}

void DetectionTimeline::mousePressEvent(QMouseEvent* event) {
    if (!result_) return;
    const QPoint pos = event->position().toPoint();
    // The narrowest event under the cursor wins (a short detection inside a long seizure's row).
    const TimelineEvent* best = nullptr;
    for (const auto& e : events_) {
        const QRect r = eventRect(e).adjusted(-2, -2, 2, 2);
        if (r.contains(pos) && (!best || r.width() < eventRect(*best).width() + 4)) best = &e;
    }
    if (best) {
        setCurrentFold(best->fold);
        Q_EMIT eventClicked(*best);
        return;
    }
    const int fold = (pos.y() - kMargin) / kRowHeight;
    if (pos.y() >= kMargin && fold >= 0 && fold < int(result_->folds.size())) {
        setCurrentFold(fold);
        Q_EMIT foldClicked(fold);
    }
}

}  // namespace warplab::widgets
