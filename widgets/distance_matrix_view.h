// A computed distance matrix as a labelled heatmap with colour scale. Rows (and, for a square
// matrix, columns) are shown in file order, clustered (average, complete or single linkage,
// compute/cluster, with the dendrogram beside the heatmap), or grouped by a row label such as
// the region kind an epoch lies in. Hover shows the pair and its value; clicking a cell asks
// for that pair (original indices) to be opened in the cost-matrix and alignment views; the
// export writes the matrix in the order shown (CSV, NPY or HDF5, by extension) and the
// permutation beside it (io/matrix_order_io.h).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QWidget>

#include "compute/cluster/hierarchical_clustering.h"
#include "compute/core/results.h"
#include "compute/spectral/frequency_band.h"

class QComboBox;
class QCustomPlot;
class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPCurve;
class QLabel;
class QPushButton;
namespace warplab::widgets { class ElidedLabel; }
class QMouseEvent;

namespace warplab::widgets {

class DistanceMatrixView : public QWidget {
    Q_OBJECT
public:
    enum class Order { File, Average, Complete, Single, Label };

    explicit DistanceMatrixView(QWidget* parent = nullptr);
    void setMatrix(std::shared_ptr<const compute::DistanceMatrix> matrix, const QString& title);
    void clear();  // no matrix: no hover, no click, no export
    // What the result was computed on (recording, channel set, metric, band, time range): the
    // first line of the view and the title of its exported plots. Cleared with the result.
    void setSource(const QString& text);
    QString source() const;
    const compute::DistanceMatrix* matrix() const { return matrix_.get(); }
    // One label per row (e.g. "seizure", "" for none), named by `what` ("region kind"); offers
    // the Label order. Empty labels: no Label order. Set after setMatrix.
    void setRowLabels(const std::vector<std::string>& labels, const QString& what);
    // Returns "" when applied, else why not (and the order stays as it was).
    QString setOrder(Order order);
    Order order() const { return order_; }
    // Display row k shows matrix row rowOrder()[k]; columns likewise (identity when not square).
    const std::vector<std::size_t>& rowOrder() const { return rowOrder_; }
    const std::vector<std::size_t>& colOrder() const { return colOrder_; }
    bool dendrogramShown() const { return dendrogramShown_; }
    // The unit of the values ("accumulated squared cost (uV²)"), for the colour scale.
    // `scaleLabel` names the colour bar ("dtw distance (µV²)"); empty: "distance (<unit>)".
    void setValueUnit(const QString& unit, const QString& scaleLabel = {});
    // Writes the matrix in the order shown and "<path>.order.csv"; "" on success, else why not.
    QString exportMatrix(const QString& path) const;
    // The frequency band the series were filtered to (none: as recorded); the export carries it.
    void setFrequencyBand(const std::optional<compute::spectral::FrequencyBand>& band) { freqBand_ = band; }
    QCustomPlot* plot() const { return plot_; }
    QComboBox* orderBox() const { return orderBox_; }
    // Whether the heatmap's axes and colour bar are drawn (only while a matrix is shown).
    bool axesShown() const;
    QString hoverText() const;
    QString colorScaleLabel() const;
    QPoint cellPoint(int row, int col) const;  // plot-widget pixel of a DISPLAY cell, for tests

signals:
    void cellActivated(int row, int col);  // matrix (original) indices
    void matrixExported(const QString& path);  // written by the Export button

private:
    bool cellAt(const QPoint& pos, int& row, int& col) const;  // display indices
    void redraw();
    void showDendrogram(bool show);
    void showAxes(bool show);
    void updateOrderItems();
    void fitColumnLabels();

    std::shared_ptr<const compute::DistanceMatrix> matrix_;
    std::vector<std::size_t> rowOrder_, colOrder_;
    std::vector<std::string> labels_;
    std::optional<compute::spectral::FrequencyBand> freqBand_;
    QString labelWhat_;
    Order order_ = Order::File;
    bool pendingLabelOrder_ = false;
    std::optional<compute::Dendrogram> dendrogram_;
    bool dendrogramShown_ = false;
    QString valueUnit_;
    QCustomPlot* plot_;
    QCPColorMap* map_;
    QCPColorScale* scale_;
    QCPAxisRect* dendroRect_;
    QCPCurve* dendroCurve_;
    QComboBox* orderBox_;
    QPushButton* exportButton_;
    QLabel* info_;
    QLabel* hover_;
    ElidedLabel* source_;
    QString title_;
};

}  // namespace warplab::widgets
