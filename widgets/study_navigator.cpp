#include "widgets/study_navigator.h"

#include <algorithm>
#include <cmath>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "widgets/study_access.h"
#include "widgets/counted.h"

namespace warplab::widgets {
namespace {
constexpr int kMargin = 8;      // left and right of the time line
constexpr int kTextRow = 16;    // the summary line at the top
constexpr int kAxisRow = 16;    // clock labels at the bottom
constexpr int kMinBar = 3;      // a recording never narrower than this (a missing one of unknown length)

QString duration(double s) {
    s = std::abs(s);
    if (s < 60) return QStringLiteral("%1 s").arg(s, 0, 'f', s < 10 ? 1 : 0);
    if (s < 3600) return QStringLiteral("%1 min").arg(s / 60, 0, 'f', 1);
    return QStringLiteral("%1 h").arg(s / 3600, 0, 'f', 1);
}
}  // namespace

StudyNavigator::StudyNavigator(QWidget* parent) : QWidget(parent) {
    setObjectName("studyNavigator");
    setMouseTracking(false);
    setCursor(Qt::PointingHandCursor);
}

StudyNavigator::~StudyNavigator() = default;

void StudyNavigator::setStudy(std::shared_ptr<const io::Study> study) {
    study_ = std::move(study);
    current_ = -1;
    seizures_.clear();
    if (study_)
        for (const auto& z : study_->seizures()) seizures_.push_back({z.recording, z.startS, z.endS});
    update();
}

void StudyNavigator::setSeizures(std::vector<SeizureMark> seizures) {
    seizures_ = std::move(seizures);
    update();
}

void StudyNavigator::setCurrent(int recording, double startS, double lengthS) {
    current_ = recording;
    windowStart_ = startS;
    windowLength_ = lengthS;
    update();
}

int StudyNavigator::recordingCount() const { return study_ ? int(study_->recordings().size()) : 0; }

int StudyNavigator::gapCount() const {
    if (!study_) return 0;
    return int(std::count_if(study_->gaps().begin(), study_->gaps().end(), [](const io::StudyGap& g) { return g.seconds > 0; }));
}

QSize StudyNavigator::sizeHint() const { return {800, 78}; }
QSize StudyNavigator::minimumSizeHint() const { return {200, 64}; }

double StudyNavigator::spanS() const {
    double end = 0;
    if (study_)
        for (const auto& r : study_->recordings()) end = std::max(end, r.endOffsetS());
    return end > 0 ? end : 1;
}

QRect StudyNavigator::recordingBand() const {
    return QRect(kMargin, kTextRow + 4, std::max(1, width() - 2 * kMargin), std::max(8, height() - kTextRow - kAxisRow - 8));
}

int StudyNavigator::xAt(double offsetS) const {
    const QRect l = recordingBand();
    return l.left() + int(std::lround(offsetS / spanS() * l.width()));
}

double StudyNavigator::offsetAt(int x) const {
    const QRect l = recordingBand();
    return double(x - l.left()) / l.width() * spanS();
}

int StudyNavigator::xOf(int recording, double seconds) const {
    if (!study_ || recording < 0 || recording >= recordingCount()) return -1;
    return xAt(study_->recordings()[std::size_t(recording)].offsetS + seconds);
}

std::pair<int, double> StudyNavigator::placeAt(int x) const {
    if (!study_) return {-1, 0};
    const QRect l = recordingBand();
    if (x < l.left() - kMinBar || x > l.right() + kMinBar) return {-1, 0};
    const double t = offsetAt(x);
    const auto& recs = study_->recordings();
    // Inside a recording (the later one where two overlap: it is drawn on top).
    for (int i = int(recs.size()) - 1; i >= 0; --i) {
        const auto& r = recs[std::size_t(i)];
        const int x0 = xAt(r.offsetS), x1 = std::max(x0 + kMinBar, xAt(r.endOffsetS()));
        if (x >= x0 && x <= x1) return {i, std::clamp(t - r.offsetS, 0.0, std::max(0.0, r.durationS))};
    }
    // In a gap: the recording after it, at its start.
    for (int i = 0; i < int(recs.size()); ++i)
        if (recs[std::size_t(i)].offsetS >= t) return {i, 0.0};
    return {-1, 0};
}

void StudyNavigator::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!study_) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No study open (File ▸ Open study)"));
        return;
    }
    const auto& recs = study_->recordings();
    const QRect l = recordingBand();
    // Summary line.
    p.setPen(palette().color(QPalette::Text));
    double recorded = 0;
    for (const auto& r : recs) recorded += r.durationS;
    const QString summary = tr("%1 · %2 recorded over %3 · %4 · %5 · %6 missing · %7 damaged")
                                .arg(counted(qint64(recs.size()), tr("recording"), tr("recordings")), duration(recorded), duration(spanS()),
                                     counted(gapCount(), tr("gap"), tr("gaps")),
                                     counted(qint64(seizures_.size()), tr("seizure"), tr("seizures")))
                                .arg(study_->missing().size()).arg(study_->damaged().size());
    p.drawText(QRect(kMargin, 0, width() - 2 * kMargin, kTextRow + 2), Qt::AlignLeft | Qt::AlignVCenter, summary);

    // Gaps: hatched, with their length when there is room.
    p.setRenderHint(QPainter::Antialiasing, false);
    for (const auto& g : study_->gaps()) {
        if (g.seconds <= 0) continue;
        const int x0 = xAt(recs[std::size_t(g.after)].endOffsetS()), x1 = xAt(recs[std::size_t(g.before)].offsetS);
        const QRect r(x0, l.top() + l.height() / 4, std::max(1, x1 - x0), l.height() / 2);
        p.fillRect(r, QBrush(QColor(150, 150, 150), Qt::BDiagPattern));
        const QString text = tr("gap %1").arg(duration(g.seconds));
        if (p.fontMetrics().horizontalAdvance(text) + 4 < r.width()) {
            p.setPen(QColor(90, 90, 90));
            p.drawText(r, Qt::AlignCenter, text);
        }
    }
    // Recordings.
    for (int i = 0; i < int(recs.size()); ++i) {
        const auto& r = recs[std::size_t(i)];
        const int x0 = xAt(r.offsetS), x1 = std::max(x0 + kMinBar, xAt(r.endOffsetS()));
        const QRect bar(x0, l.top(), x1 - x0, l.height());
        QColor fill(120, 160, 210), edge(60, 90, 140);
        Qt::BrushStyle style = Qt::SolidPattern;
        if (r.status == io::RecordingStatus::Missing) fill = QColor(200, 200, 200), edge = QColor(130, 130, 130), style = Qt::Dense4Pattern;
        if (r.status == io::RecordingStatus::Damaged) fill = QColor(235, 170, 90), edge = QColor(170, 100, 30), style = Qt::Dense3Pattern;
        p.fillRect(bar, QBrush(fill, style));
        p.setPen(QPen(edge, i == current_ ? 3 : 1));
        p.drawRect(bar.adjusted(0, 0, -1, -1));
        QString label = QString::fromStdString(r.name);
        if (r.status != io::RecordingStatus::Ok) label += QStringLiteral(" (%1)").arg(QString::fromLatin1(io::recordingStatusName(r.status).data()));
        const QRect text = bar.adjusted(3, 0, -3, -l.height() / 2);
        if (p.fontMetrics().horizontalAdvance(label) < text.width()) {
            p.setPen(palette().color(QPalette::Text));
            p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, label);
        }
    }
    // Seizures: red marks in the lower half of their recording (at least 2 px wide).
    for (const SeizureMark& s : seizures_) {
        if (s.recording < 0 || s.recording >= int(recs.size())) continue;
        const auto& r = recs[std::size_t(s.recording)];
        const int x0 = xAt(r.offsetS + s.startS), x1 = std::max(x0 + 2, xAt(r.offsetS + s.endS));
        p.fillRect(QRect(x0, l.top() + l.height() / 2, x1 - x0, l.height() / 2 - 1), QColor(210, 30, 30));
    }
    // The signal view's window in the open recording.
    if (current_ >= 0 && current_ < int(recs.size()) && windowLength_ > 0) {
        const auto& r = recs[std::size_t(current_)];
        const int x0 = xAt(r.offsetS + windowStart_), x1 = std::max(x0 + 2, xAt(r.offsetS + windowStart_ + windowLength_));
        p.setPen(QPen(QColor(20, 20, 20), 2));
        p.setBrush(QColor(255, 255, 0, 90));
        p.drawRect(QRect(x0, l.top() - 3, x1 - x0, l.height() + 6));
        p.setBrush(Qt::NoBrush);
    }
    // Clock axis: time of day (the date once, at the start), as many labels as fit.
    p.setPen(palette().color(QPalette::Text));
    auto label = [this](double t, bool withDate) {
        QString text = QString::fromStdString(study_->clockText(t));
        if (text.isEmpty()) return duration(t);
        if (const int dot = text.lastIndexOf('.'); dot > 0) text.truncate(dot);  // no milliseconds
        if (!withDate) {
            if (const int tee = text.indexOf('T'); tee >= 0) text = text.mid(tee + 1);
        } else {
            text.replace('T', ' ');
        }
        return text;
    };
    const int step = p.fontMetrics().horizontalAdvance(QStringLiteral("00:00:00")) + 40;
    const int labels = std::max(1, l.width() / step);
    int freeFrom = 0;  // labels never overlap: the first (with its date) may push the next ones out
    for (int k = 0; k <= labels; ++k) {
        const double t = spanS() * k / labels;
        const int x = xAt(t);
        p.drawLine(x, l.bottom() + 1, x, l.bottom() + 4);
        const QString text = label(t, k == 0);
        const int tw = p.fontMetrics().horizontalAdvance(text);
        const int left = std::clamp(x - (k == 0 ? 0 : tw / 2), 0, std::max(0, width() - tw));
        if (left < freeFrom) continue;
        p.drawText(QRect(left, l.bottom() + 4, tw + 2, kAxisRow), Qt::AlignLeft | Qt::AlignTop, text);
        freeFrom = left + tw + 8;
    }
}

void StudyNavigator::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    const auto [recording, seconds] = placeAt(int(event->position().x()));
    if (recording >= 0) emit placeActivated(recording, seconds);
}

bool StudyNavigator::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && study_) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [i, seconds] = placeAt(help->pos().x());
        if (i < 0) {
            QToolTip::hideText();
            return true;
        }
        const auto& r = study_->recordings()[std::size_t(i)];
        QString tip = tr("%1\n%2 s (%3)\nlength %4").arg(QString::fromStdString(r.name)).arg(seconds, 0, 'f', 1)
                          .arg(QString::fromStdString(study_->clockTime(i, seconds))).arg(duration(r.durationS));
        if (!r.error.empty()) tip += "\n" + QString::fromStdString(r.error);
        QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace warplab::widgets
