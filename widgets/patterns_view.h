// The result of seizure pattern discovery (compute::PatternRanking) for one channel: the
// ranking table (rank, quality, position), the selected pattern drawn over its place in an
// excerpt of the signal, the histogram of its distances to ictal and to interictal epochs,
// the epochs nearest to it (activate one to jump there), and export of the ranking (CSV) and
// of the matrix. Self-contained: it is given the ranking and a way to fetch samples of the
// ranked channel, and it talks back only through signals.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <QDateTime>
#include <QString>
#include <QWidget>

#include "compute/patterns/pattern_discovery.h"
#include "compute/spectral/frequency_band.h"

class QCustomPlot;
class QLabel;
namespace warplab::widgets { class ElidedLabel; }
class QListWidget;
class QPushButton;
class QSplitter;
class QTableWidget;

namespace warplab::io {
class Recording;
}

namespace warplab::widgets {

class PatternsView : public QWidget {
    Q_OBJECT
public:
    // Samples [start, start+count) of the ranked channel, physical units.
    using SampleFetcher = std::function<std::vector<float>(long long start, long long count)>;

    explicit PatternsView(QWidget* parent = nullptr);
    ~PatternsView() override;

    // `unit` labels the amplitude axis ("uV"); the distance axis is in unit^2 (squared cost).
    void setRanking(std::shared_ptr<const compute::PatternRanking> ranking, SampleFetcher fetch,
                    const QString& unit = QStringLiteral("uV"));
    // The usual case: samples come from `signal` of an opened recording (its unit labels the
    // axes). The view keeps the recording alive while it shows the ranking.
    void setRanking(std::shared_ptr<const compute::PatternRanking> ranking,
                    std::shared_ptr<const io::Recording> recording, int signal);
    void clear();
    // What the result was computed on (recording, channel set, metric, band, time range): the
    // first line of the view and the title of its exported plots. Cleared with the result.
    void setSource(const QString& text);
    QString source() const;
    // The recording's clock at 0 s: the nearest epochs and the table then show clock time, as
    // the traces' top axis does. Invalid: time from the start (h:m:s).
    void setClockStart(const QDateTime& start);
    std::shared_ptr<const compute::PatternRanking> ranking() const { return ranking_; }

    // Selects the pattern at `rank` (0 = best) in the table; -1 clears the selection.
    void selectRank(int rank);
    int selectedRank() const { return selected_; }

    // The frequency band the channel was filtered to (none: as recorded); the exports carry it.
    void setFrequencyBand(const std::optional<compute::spectral::FrequencyBand>& band) { freqBand_ = band; }

    // Both return an empty string on success, else why not (shown by the caller).
    // CSV: rank,quality,pattern_index,start_seconds, as `warplab-cli patterns` prints it (with a
    // frequency band, a first column band as `--freq-band` prints it).
    QString exportRankingCsv(const QString& path) const;
    // .csv/.npy/.h5 through io::writeMatrix; needs a ranking computed with keepMatrix.
    QString exportMatrix(const QString& path) const;

    // For tests and the main window.
    QTableWidget* table() const { return table_; }
    QCustomPlot* signalPlot() const { return signalPlot_; }
    QCustomPlot* histogramPlot() const { return histogramPlot_; }
    QListWidget* nearestList() const { return nearest_; }
    QLabel* nearestHeading() const { return nearestHeading_; }

signals:
    // The user activated one of the nearest epochs: jump the signal view there.
    void epochActivated(double seconds);
    // The selected pattern's place in the recording (for a highlight in the signal view).
    void patternSelected(double startSeconds, double lengthSeconds);

protected:
    void resizeEvent(QResizeEvent* event) override;  // fitTable

private:
    void showSelected();
    void drawExcerpt(const compute::PatternScore& p);
    void drawHistogram(const compute::PatternScore& p);
    void fillNearest(const compute::PatternScore& p);
    void askExportRanking();
    void askExportMatrix();

    std::shared_ptr<const compute::PatternRanking> ranking_;
    SampleFetcher fetch_;
    std::optional<compute::spectral::FrequencyBand> freqBand_;
    QString unit_;
    QDateTime clockStart_;
    ElidedLabel* source_ = nullptr;
    QString clockText(double s) const;
    QString distanceUnitText() const;  // of the histogram and the nearest epochs
    int power_ = 0;                    // distances counted in 10^power_ (drawHistogram)
    int selected_ = -1;

    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    QSplitter* split_ = nullptr;  // the table | the plots and nearest epochs
    void fitTable();  // soon: fitTableNow
    void fitTableNow();
    QCustomPlot* signalPlot_ = nullptr;
    QCustomPlot* histogramPlot_ = nullptr;
    QListWidget* nearest_ = nullptr;
    QLabel* nearestHeading_ = nullptr;
    QPushButton* exportRanking_ = nullptr;
    QPushButton* exportMatrix_ = nullptr;
};

}  // namespace warplab::widgets
