// Kernel comparison: choose a metric, the kernels (every registered one; those that cannot
// run here greyed with the reason), lengths, pairs and band; the run is a job like any other
// (compute/bench/bench.h, the code behind `warplab-cli bench`). Shows cells per second
// against length (one line per kernel, log axes), a bar chart at one length, the chip's
// ceiling where known, each kernel's error against the scalar reference, a GPU kernel's energy
// per distance and mean board power (or why there is none), and exports CSV.
#pragma once
#include <map>
#include <string>

#include <QWidget>

#include "compute/bench/bench.h"

class QComboBox;
class QCPLayoutGrid;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace warplab::widgets {

class KernelComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit KernelComparisonView(QWidget* parent = nullptr);

    // The benchmark the controls describe (no progress or cancel yet). Throws EngineError
    // (BadParameter, field "lengths") when the lengths do not parse.
    compute::BenchConfig config() const;
    // The results of one metric (their rows' metric; rows without one are the chosen metric's).
    // Each metric keeps its last results and ceiling: the view shows those of the metric chosen,
    // and choosing another shows that one's (or none), never one metric's curves under another.
    void setResults(const compute::BenchTable& table);
    const compute::BenchTable& results() const { return shown().table; }  // those shown
    // A throughput ceiling (cells/s) to draw, e.g. a GPU's, for the metric of the last results
    // set; 0 hides it.
    void setCeiling(double cellsPerSecond, const QString& label);
    QString exportCsv(const QString& path) const;  // "" on success, else why not
    QStringList checkedKernels() const;
    void setLengths(const QString& lengths);
    void setPairs(int pairs);
    QCustomPlot* linePlot() const { return lines_; }  // for tests
    QStringList tableHeaders() const;
    QStringList tableHeaderToolTips() const;

Q_SIGNALS:
    void runRequested();

private:
    struct MetricResults {
        compute::BenchTable table;
        double ceiling = 0;
        QString ceilingLabel;
    };
    void fillKernels();
    std::string chosenMetric() const;
    const MetricResults& shown() const;  // the chosen metric's (none: empty)
    void showResults();                   // the table and charts of shown()
    void drawCharts();
    void fitLegend();

    std::map<std::string, MetricResults> byMetric_;  // metricName() -> its last results
    std::string lastMetric_;                          // the metric of the last setResults
    QComboBox* metric_;
    QListWidget* kernels_;
    QLineEdit* lengths_;
    QSpinBox* pairs_;
    QSpinBox* band_;
    QSpinBox* reference_;  // sdtw: the reference's length (shown in the band's place)
    QLabel* pairsLabel_;
    QLabel* bandLabel_;
    QSpinBox* repeats_;
    QComboBox* barLength_;
    QPushButton* run_;
    QPushButton* export_;
    QCustomPlot* lines_;
    QCPLayoutGrid* legendRow_;  // the legend's row under the chart; out of the layout while empty
    QCustomPlot* bars_;
    QTableWidget* rows_;
    QLabel* energyNote_;  // why energy figures are missing, once
};

}  // namespace warplab::widgets
