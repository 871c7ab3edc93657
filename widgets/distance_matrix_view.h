// A computed distance matrix as a labelled heatmap with colour scale. Hover shows the pair and
// its value; clicking a cell asks for that pair to be opened in the cost-matrix and alignment
// views; the matrix exports to CSV, NPY or HDF5 (io/matrix_io.h, chosen by extension).
#pragma once
#include <memory>

#include <QWidget>

#include "compute/core/results.h"

class QCustomPlot;
class QCPColorMap;
class QLabel;
class QMouseEvent;

namespace warplab::widgets {

class DistanceMatrixView : public QWidget {
    Q_OBJECT
public:
    explicit DistanceMatrixView(QWidget* parent = nullptr);
    void setMatrix(std::shared_ptr<const compute::DistanceMatrix> matrix, const QString& title);
    const compute::DistanceMatrix* matrix() const { return matrix_.get(); }
    // Writes the matrix; returns "" on success, else the reason.
    QString exportMatrix(const QString& path) const;
    QCustomPlot* plot() const { return plot_; }
    QString hoverText() const;
    QPoint cellPoint(int row, int col) const;  // plot-widget pixel of a cell, for tests

signals:
    void cellActivated(int row, int col);

private:
    bool cellAt(const QPoint& pos, int& row, int& col) const;

    std::shared_ptr<const compute::DistanceMatrix> matrix_;
    QCustomPlot* plot_;
    QCPColorMap* map_;
    QLabel* info_;
    QLabel* hover_;
};

}  // namespace warplab::widgets
