// The accumulated-cost matrix of one pair as a colour map with its colour scale, the warping
// path drawn over it and the two series along its axes (x down the left, y along the bottom).
// Hover shows (i, j, cost). Long pairs are shown block-averaged; without a matrix (the
// low-memory path) only the path is drawn.
#pragma once
#include <memory>
#include <vector>

#include <QString>
#include <QWidget>

#include "compute/core/results.h"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPCurve;
class QCPAxisRect;
class QLabel;
namespace warplab::widgets { class ElidedLabel; }
class QMouseEvent;

namespace warplab::widgets {

class CostMatrixView : public QWidget {
    Q_OBJECT
public:
    explicit CostMatrixView(QWidget* parent = nullptr);

    // `x` are the rows (i, length n), `y` the columns (j, length m) of `alignment`.
    void setAlignment(std::shared_ptr<const compute::Alignment> alignment, std::vector<float> x,
                      std::vector<float> y, const QString& xName, const QString& yName, const QString& note = {});
    void clear();
    // What the result was computed on (recording, channel set, metric, band, time range): the
    // first line of the view and the title of its exported plots. Cleared with the result.
    void setSource(const QString& text);
    QString source() const;
    bool colorScaleShown() const;
    // The matrix, its side traces and colour scale are drawn (a pair is aligned); the plot
    // widget itself stays shown either way.
    bool axesShown() const;

    std::size_t rows() const { return alignment_ ? alignment_->n : 0; }
    std::size_t cols() const { return alignment_ ? alignment_->m : 0; }
    bool hasMatrix() const { return alignment_ && !alignment_->matrix.empty(); }
    std::size_t displayRows() const { return displayRows_; }  // after block averaging
    std::size_t displayCols() const { return displayCols_; }
    const compute::Alignment* alignment() const { return alignment_.get(); }
    QString hoverText() const;
    QPoint cellPoint(std::size_t i, std::size_t j) const;  // plot-widget pixel of cell (i, j), for tests
    QCustomPlot* plot() const { return plot_; }
    // Units of the values (widgets/value_units.h) and of the two series' samples ("µV").
    // `scaleLabel` names the colour bar ("accumulated cost (µV²)", widgets/value_units.h).
    void setUnits(const QString& valueUnit, const QString& signalUnit, const QString& scaleLabel = {});
    QString colorScaleLabel() const;
    QString infoText() const;

private:
    void onHover(QMouseEvent* e);
    void showAxes(bool show, bool withScale = true);

    std::shared_ptr<const compute::Alignment> alignment_;
    std::size_t displayRows_ = 0, displayCols_ = 0;
    QCustomPlot* plot_;
    QCPAxisRect* main_;
    QCPAxisRect* left_;
    QCPAxisRect* bottom_;
    QCPColorMap* map_;
    QCPColorScale* scale_;
    QCPCurve* path_;
    QLabel* info_;
    QLabel* hover_;
    ElidedLabel* source_;
    QString valueUnit_;
};

}  // namespace warplab::widgets
