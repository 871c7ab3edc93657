// The Detection view's timeline: one row per held-out recording of a cross-validation, on one
// time scale (the longest recording), its reference seizures above the line and the detector's
// events below it, coloured as SzCORE scored them: a detected seizure (hit), a missed seizure,
// a detection that found a seizure, a false alarm. A click on an event asks for it to be shown.
#pragma once
#include <vector>

#include <QColor>
#include <QString>
#include <QWidget>

#include "compute/detect/crossval.h"

namespace warplab::widgets {

enum class EventKind { Hit, Miss, Detection, FalseAlarm };

// The colour each kind is drawn in (the legend and tests read them here).
QColor eventColor(EventKind kind);

struct TimelineEvent {
    int fold = 0;
    EventKind kind = EventKind::Hit;
    int index = 0;           // in the fold's scoring.reference (Hit, Miss) or .hypothesis
    double startS = 0, endS = 0;
};

class DetectionTimeline : public QWidget {
    Q_OBJECT
public:
    explicit DetectionTimeline(QWidget* parent = nullptr);
    void setResult(const compute::CrossvalResult* result);  // not owned; null: nothing
    const std::vector<TimelineEvent>& events() const { return events_; }
    // Widget rectangle an event is drawn in (for tests and hit testing).
    QRect eventRect(const TimelineEvent& e) const;
    void setCurrentFold(int fold);
    int currentFold() const { return current_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void eventClicked(const warplab::widgets::TimelineEvent& event);
    void foldClicked(int fold);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    int labelWidth() const;
    int rowTop(int fold) const;
    double xOf(double seconds) const;

    const compute::CrossvalResult* result_ = nullptr;
    std::vector<TimelineEvent> events_;
    double longestS_ = 1;
    int current_ = -1;
};

}  // namespace warplab::widgets
