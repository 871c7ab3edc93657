// The study navigator: every recording of an io::Study on one clock time line, gaps
// drawn as gaps (never as signal), seizures as red marks, missing and damaged recordings
// marked, the open recording and the signal view's window outlined. A click on a recording asks
// for it to be opened at that time (placeActivated); a click in a gap asks for the next
// recording's start. It only draws and reports: the caller opens recordings.
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include <QWidget>

namespace warplab::io {
class Study;
}

namespace warplab::widgets {

// A seizure (or other marked span) drawn on the time line: seconds from its recording's start.
struct SeizureMark {
    int recording = 0;
    double startS = 0, endS = 0;
};

class StudyNavigator : public QWidget {
    Q_OBJECT
public:
    explicit StudyNavigator(QWidget* parent = nullptr);
    ~StudyNavigator() override;

    void setStudy(std::shared_ptr<const io::Study> study);  // nullptr clears; marks its seizures
    // Replaces the seizure marks (the caller's per-recording regions, user edits included).
    void setSeizures(std::vector<SeizureMark> seizures);
    const std::vector<SeizureMark>& seizures() const { return seizures_; }
    // The open recording (-1: none of the study) and the visible window, seconds from its start.
    void setCurrent(int recording, double startS, double lengthS);
    int currentRecording() const { return current_; }

    // For tests and tooltips: the place under widget x (recording, seconds from its start);
    // recording -1 outside the time line; in a gap, the recording after it at its start.
    std::pair<int, double> placeAt(int x) const;
    // Widget x of a place (seconds from the start of `recording`).
    int xOf(int recording, double seconds) const;
    // Gaps (seconds > 0) drawn between recordings.
    int gapCount() const;
    int recordingCount() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void placeActivated(int recording, double seconds);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;  // tooltips

private:
    double spanS() const;                // time line length, seconds (study start .. last end)
    double offsetAt(int x) const;        // study seconds at widget x
    int xAt(double offsetS) const;
    QRect recordingBand() const;         // the band in which recordings are drawn

    std::shared_ptr<const io::Study> study_;
    std::vector<SeizureMark> seizures_;
    int current_ = -1;
    double windowStart_ = 0, windowLength_ = 0;
};

}  // namespace warplab::widgets
