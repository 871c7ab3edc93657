// The Detection view of a study: the result of the detector's cross-validation
// (compute/detect/crossval.h) with the sweep's distances kept, so that a change of the
// operating point (Youden point or a target false-positive rate on each pattern's training ROC)
// or of the votes an epoch needs re-scores every fold at once on the host (compute::rescore),
// without a DTW. It shows the pooled SzCORE scores, the fold table, and the timeline of each
// held-out recording (hits, misses, detections, false alarms); a click on an event asks for it
// in the traces with the pattern that matched it best; the events export as BIDS events tables
// (one per recording) and the scores as JSON or CSV.
#pragma once
#include <memory>
#include <vector>

#include <QString>
#include <QWidget>

#include "compute/detect/crossval.h"
#include "widgets/detection_timeline.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSlider;
class QSpinBox;
class QTableWidget;

namespace warplab::widgets {

class ElidedLabel;

// What a click on an event asks to be shown: where, and the pattern that came nearest to it
// (the smallest distance relative to its threshold over the epochs the event covers).
struct DetectionPlace {
    int recording = -1;            // PatternSegment::recordingIndex of the fold
    QString recordingName;
    double startS = 0, endS = 0;   // the event
    QString channel;               // the matching pattern's channel ("" when none)
    double patternStartS = 0;      // the epoch it matched, in the recording
    double rateHz = 0;
    std::vector<float> pattern;    // its samples (empty when none)
    double distance = 0, threshold = 0;
};

class DetectionView : public QWidget {
    Q_OBJECT
public:
    explicit DetectionView(QWidget* parent = nullptr);
    ~DetectionView() override;

    // A new cross-validation: its controls take the options it was built with, and it is scored.
    void setCache(std::shared_ptr<const compute::CrossvalCache> cache, const QString& description);
    void clear();
    std::shared_ptr<const compute::CrossvalCache> cache() const { return cache_; }
    const compute::CrossvalResult& result() const { return result_; }

    // The controls, as the user sets them; each re-scores.
    void setOperatingPoint(const compute::OperatingPoint& op);
    compute::OperatingPoint operatingPoint() const;
    void setVotes(int votes);
    int votes() const;

    // Re-scorings done and how long the last one took (what the controls cost).
    int rescoreCount() const { return rescores_; }
    double lastRescoreMs() const { return lastMs_; }

    // Hits, misses, detections and false alarms shown (their sum over folds).
    struct Counts { long long hits = 0, misses = 0, detections = 0, falseAlarms = 0; };
    Counts counts() const;

    // Both return "" on success, else why not. Events: one `<recording>_events.tsv` per fold
    // in `folder` (BIDS, io/events_tsv.h). Scores: `.json` as `warplab-cli crossval --json`
    // prints them (with the operating point and votes), else CSV (the fold table).
    QString exportEvents(const QString& folder) const;
    QString exportScores(const QString& path) const;

    // As a click on that event of the timeline.
    void activateEvent(const TimelineEvent& event);
    DetectionPlace placeOf(const TimelineEvent& event) const;

    DetectionTimeline* timeline() const { return timeline_; }
    QTableWidget* foldTable() const { return table_; }
    QString summary() const;

signals:
    void placeActivated(const warplab::widgets::DetectionPlace& place);

private:
    void rescoreNow();
    void fillTable();
    void syncControls();
    void askExportEvents();
    void askExportScores();

    std::shared_ptr<const compute::CrossvalCache> cache_;
    compute::CrossvalResult result_;
    int rescores_ = 0;
    double lastMs_ = 0;
    bool syncing_ = false;

    ElidedLabel* source_ = nullptr;
    QComboBox* pointBox_ = nullptr;
    QSlider* fprSlider_ = nullptr;
    QDoubleSpinBox* fprBox_ = nullptr;
    QSpinBox* votesBox_ = nullptr;
    QLabel* timing_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* legend_ = nullptr;
    DetectionTimeline* timeline_ = nullptr;
    QScrollArea* timelineScroll_ = nullptr;
    QTableWidget* table_ = nullptr;
    QPushButton* exportEvents_ = nullptr;
    QPushButton* exportScores_ = nullptr;
};

}  // namespace warplab::widgets
