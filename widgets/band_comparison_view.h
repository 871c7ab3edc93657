// One analysis run over several frequency bands, the bands side by side, so that a user sees
// in which band the seizure separates:
// - pattern discovery: the best pattern's quality per band as bars (chance, 0.5, dashed), and
//   a table per band (best quality, where the best pattern lies, its mean distance to ictal
//   and to interictal epochs); activating a row shows that band's best pattern on the traces;
// - search: each band's top matches on one time line per band, seizure regions shaded, and a
//   table with a column per band (match start and cost, rank by rank) and how many of the
//   matches lie in a seizure; activating a cell highlights that match;
// - distance matrix: one heatmap per band, side by side on one colour scale per band.
// Exports the plot (right-click: PNG, SVG, PDF) and the table as CSV, both with the source
// (recording, channel, metric, bands) in their metadata.
#pragma once
#include <memory>
#include <vector>

#include <QString>
#include <QWidget>

#include "compute/core/results.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/spectral/frequency_band.h"

class QCustomPlot;
class QTableWidget;
class QPushButton;

namespace warplab::widgets {

class ElidedLabel;

struct BandPatterns {
    compute::spectral::FrequencyBand band;
    std::shared_ptr<const compute::PatternRanking> ranking;  // null when the band failed
    QString error;                                          // why it failed
};

struct BandMatches {
    compute::spectral::FrequencyBand band;
    std::vector<compute::Match> matches;  // reference sample indices
    QString error;
};

struct BandMatrix {
    compute::spectral::FrequencyBand band;
    std::shared_ptr<const compute::DistanceMatrix> matrix;
    QString error;
};

class BandComparisonView : public QWidget {
    Q_OBJECT
public:
    enum class Kind { None, Patterns, Search, Matrix };

    explicit BandComparisonView(QWidget* parent = nullptr);

    // `source` says what was run on what (recording, channel, metric, band set): the view's
    // first line, the exports' title.
    void setPatterns(std::vector<BandPatterns> results, const QString& source);
    // `seizures`: seconds spans shaded on the time lines and counted against; `durationS`
    // the channel's length.
    void setSearch(std::vector<BandMatches> results, int channel, double rateHz, double queryLengthS,
                   std::vector<std::pair<double, double>> seizures, double durationS, const QString& source);
    void setMatrices(std::vector<BandMatrix> results, const QString& source);
    void clear();

    Kind kind() const { return kind_; }
    QString source() const;
    QTableWidget* table() const { return table_; }
    QCustomPlot* plot() const { return plot_; }
    // The band of the best pattern quality / most matches in seizures; -1 when none.
    int bestBand() const { return best_; }
    QString exportCsv(const QString& path) const;  // "" on success, else why not
    const std::vector<BandMatrix>& matrices() const { return matrices_; }

signals:
    void patternActivated(int bandIndex, double startS, double lengthS);
    void matchActivated(int channel, double startS, double endS);

private:
    void drawPatterns();
    void drawSearch();
    void drawMatrices();
    void onActivated(int row, int column);
    void askExportCsv();

    Kind kind_ = Kind::None;
    std::vector<BandPatterns> patterns_;
    std::vector<BandMatches> matches_;
    std::vector<BandMatrix> matrices_;
    std::vector<std::pair<double, double>> seizures_;
    int channel_ = -1;
    double rate_ = 0, queryS_ = 0, duration_ = 0;
    int best_ = -1;
    QString source_;

    ElidedLabel* title_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QTableWidget* table_ = nullptr;
    QPushButton* export_ = nullptr;
};

}  // namespace warplab::widgets
