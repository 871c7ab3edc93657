#include "widgets/distance_matrix_view.h"

#include <cmath>
#include <numeric>

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "compute/cluster/matrix_order.h"
#include "compute/core/error.h"
#include "io/matrix_band.h"
#include "io/matrix_io.h"
#include "io/matrix_order_io.h"
#include "widgets/matrix_color_map.h"
#include "widgets/matrix_downsample.h"
#include "widgets/elided_label.h"
#include "widgets/plot_export.h"
#include "widgets/uniform_ticker.h"

namespace warplab::widgets {
namespace {
constexpr int kMaxLabels = 40;  // beyond this, tick labels would overlap: numbers instead
constexpr std::size_t kMaxDisplayCells = 800;

std::vector<std::size_t> identity(std::size_t n) {
    std::vector<std::size_t> v(n);
    std::iota(v.begin(), v.end(), std::size_t(0));
    return v;
}

std::optional<compute::Linkage> linkageOf(DistanceMatrixView::Order o) {
    switch (o) {
    case DistanceMatrixView::Order::Average: return compute::Linkage::Average;
    case DistanceMatrixView::Order::Complete: return compute::Linkage::Complete;
    case DistanceMatrixView::Order::Single: return compute::Linkage::Single;
    default: return std::nullopt;
    }
}
}  // namespace

DistanceMatrixView::DistanceMatrixView(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot;
    plot_->axisRect()->setupFullAxesBox(false);
    plot_->xAxis->setLabel(tr("column (target)"));
    plot_->yAxis->setLabel(tr("row (query)"));
    plot_->yAxis->setRangeReversed(true);  // row 0 at the top, as in a table
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    scale_ = new QCPColorScale(plot_);
    scale_->axis()->setTicker(QSharedPointer<UniformTicker>::create());  // one number format per bar
    plot_->plotLayout()->addElement(0, 1, scale_);
    map_->setColorScale(scale_);
    map_->setInterpolate(false);  // one distance per cell: crisp cells show the block structure
    QCPColorGradient gradient(QCPColorGradient::gpHot);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    map_->setGradient(gradient.inverted());
    auto* group = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    // The dendrogram: its own axis rect left of the heatmap (shown only when clustered),
    // leaves on the right next to the row labels, height growing to the left.
    dendroRect_ = new QCPAxisRect(plot_, true);
    dendroRect_->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    dendroRect_->axis(QCPAxis::atBottom)->setRangeReversed(true);
    dendroRect_->axis(QCPAxis::atBottom)->ticker()->setTickCount(2);  // a narrow strip: few labels
    dendroRect_->axis(QCPAxis::atBottom)->setNumberPrecision(2);
    dendroRect_->axis(QCPAxis::atLeft)->setRangeReversed(true);
    dendroRect_->axis(QCPAxis::atLeft)->setTickLabels(false);
    dendroRect_->axis(QCPAxis::atLeft)->setTicks(false);
    dendroRect_->axis(QCPAxis::atLeft)->setVisible(false);
    dendroRect_->setMinimumSize(120, 50);
    dendroRect_->setMaximumSize(220, QWIDGETSIZE_MAX);
    dendroCurve_ = new QCPCurve(dendroRect_->axis(QCPAxis::atBottom), dendroRect_->axis(QCPAxis::atLeft));
    dendroCurve_->setPen(QPen(QColor(40, 40, 40), 1));
    dendroRect_->setVisible(false);  // outside the layout it would still paint its axes at (0, 0)
    connect(plot_->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this](const QCPRange& r) { dendroRect_->axis(QCPAxis::atLeft)->setRange(r); });
    setValueUnit({});
    // Column names only where they do not overlap; else the rows' names carry them.
    connect(plot_, &QCustomPlot::afterLayout, this, [this] { fitColumnLabels(); });

    orderBox_ = new QComboBox;
    orderBox_->setObjectName("matrixOrder");
    orderBox_->addItem(tr("file order"), int(Order::File));
    orderBox_->addItem(tr("clustered, average linkage"), int(Order::Average));
    orderBox_->addItem(tr("clustered, complete linkage"), int(Order::Complete));
    orderBox_->addItem(tr("clustered, single linkage"), int(Order::Single));
    orderBox_->addItem(tr("by label"), int(Order::Label));
    info_ = new QLabel(tr("No distance matrix yet: run Distance matrix (channels of the visible window)."));
    info_->setObjectName("matrixInfo");
    info_->setWordWrap(true);
    hover_ = new QLabel(" ");
    exportButton_ = new QPushButton(tr("E&xport matrix…"));  // Alt+X while the view shows
    exportButton_->setEnabled(false);
    auto* exportButton = exportButton_;
    auto* top = new QHBoxLayout;
    top->addWidget(info_, 1);
    top->addWidget(new QLabel(tr("Order:")));
    top->addWidget(orderBox_);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(hover_, 1);
    bottom->addWidget(exportButton);
    source_ = new ElidedLabel;
    source_->setObjectName("resultSource");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(source_);
    layout->addLayout(top);
    layout->addWidget(plot_, 1);
    layout->addLayout(bottom);
    installPlotExportMenu(plot_, "distance_matrix");
    // No axes without a matrix: empty axes, or those of a cleared one, would show ranges and
    // names of nothing. Their axis rect is hidden, never the plot widget: showing the widget
    // again inside redraw() replotted it at once (its pending resize), axes half set, and
    // QCustomPlot's tick-label drawing corrupted the heap there (free(): invalid pointer).
    showAxes(false);
    updateOrderItems();

    connect(orderBox_, &QComboBox::activated, this, [this](int index) {
        const QString why = setOrder(Order(orderBox_->itemData(index).toInt()));
        if (!why.isEmpty()) QMessageBox::warning(this, tr("Order"), why);
    });
    connect(exportButton, &QPushButton::clicked, this, [this] {
        if (!matrix_) return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export distance matrix"), "distances.csv",
                                                          tr("CSV (*.csv);;NumPy (*.npy);;HDF5 (*.h5)"));
        if (path.isEmpty()) return;
        const QString err = exportMatrix(path);
        if (!err.isEmpty()) QMessageBox::warning(this, tr("Export failed"), err);
        else emit matrixExported(path);
    });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        int r, c;
        if (!cellAt(e->pos(), r, c)) return;
        const std::size_t mr = rowOrder_[std::size_t(r)], mc = colOrder_[std::size_t(c)];
        const auto& names = [&](const std::vector<std::string>& v, std::size_t k) {
            return k < v.size() ? QString::fromStdString(v[k]) : QString::number(k);
        };
        hover_->setText(tr("%1 × %2: %3 %4").arg(names(matrix_->rowNames, mr), names(matrix_->colNames, mc))
                            .arg(matrix_->at(mr, mc), 0, 'g', 8).arg(valueUnit_));
    });
    connect(plot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        int r, c;
        if (e->button() == Qt::LeftButton && cellAt(e->pos(), r, c))
            emit cellActivated(int(rowOrder_[std::size_t(r)]), int(colOrder_[std::size_t(c)]));
    });
    setMinimumSize(300, 250);
}

void DistanceMatrixView::setValueUnit(const QString& unit, const QString& scaleLabel) {
    valueUnit_ = unit;
    scale_->axis()->setLabel(!scaleLabel.isEmpty() ? scaleLabel : unit.isEmpty() ? tr("distance (unit of the metric)") : tr("distance (%1)").arg(unit));
    // The strip is narrow: the unit's symbol only (the colour scale spells it out).
    QString symbol = unit.section(", ", -1);
    if (symbol.startsWith(tr("unitless"))) symbol = tr("unitless");
    dendroRect_->axis(QCPAxis::atBottom)->setLabel(unit.isEmpty() ? tr("merge height") : tr("merge height, %1").arg(symbol));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void DistanceMatrixView::clear() {
    matrix_.reset();
    labels_.clear();
    rowOrder_.clear();
    colOrder_.clear();
    dendrogram_.reset();
    showDendrogram(false);
    dendroCurve_->data()->clear();
    map_->data()->clear();
    showAxes(false);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    exportButton_->setEnabled(false);
    hover_->setText(" ");
    setSource({});
    info_->setText(tr("No distance matrix yet: run Distance matrix (channels of the visible window)."));
    updateOrderItems();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void DistanceMatrixView::setSource(const QString& text) {
    source_->setFullText(text);
    plot_->setProperty(kExportTitleProperty, text);
}
QString DistanceMatrixView::source() const { return source_->fullText(); }

void DistanceMatrixView::showAxes(bool show) {
    plot_->axisRect()->setVisible(show);  // its axes, grid and the heatmap go with it
    scale_->setVisible(show);
}

bool DistanceMatrixView::axesShown() const { return plot_->axisRect()->visible(); }

QString DistanceMatrixView::colorScaleLabel() const { return scale_->axis()->label(); }

QString DistanceMatrixView::hoverText() const { return hover_->text(); }

QPoint DistanceMatrixView::cellPoint(int row, int col) const {
    plot_->replot();
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(col))), int(std::lround(plot_->yAxis->coordToPixel(row))));
}

bool DistanceMatrixView::cellAt(const QPoint& pos, int& row, int& col) const {
    if (!matrix_ || !plot_->xAxis->axisRect()->rect().contains(pos)) return false;  // the heatmap's, not the dendrogram's
    col = int(std::lround(plot_->xAxis->pixelToCoord(pos.x())));
    row = int(std::lround(plot_->yAxis->pixelToCoord(pos.y())));
    return row >= 0 && col >= 0 && std::size_t(row) < matrix_->rows && std::size_t(col) < matrix_->cols;
}

void DistanceMatrixView::fitColumnLabels() {
    if (!matrix_) return;
    const int pitch = matrix_->cols ? plot_->xAxis->axisRect()->width() / int(matrix_->cols) : 0;
    const bool fit = pitch >= QFontMetrics(plot_->xAxis->tickLabelFont()).height() * 6 / 5;  // rotated 60 degrees
    if (fit == plot_->xAxis->tickLabels()) return;
    plot_->xAxis->setTickLabels(fit);
    const QString base = order_ != Order::File ? tr("column (target), in the order chosen") : tr("column (target)");
    plot_->xAxis->setLabel(fit || matrix_->rows != matrix_->cols ? base : base + tr(": as the rows"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void DistanceMatrixView::updateOrderItems() {
    auto* model = qobject_cast<QStandardItemModel*>(orderBox_->model());
    const bool square = matrix_ && matrix_->rows == matrix_->cols && matrix_->rows > 1;
    for (int i = 0; i < orderBox_->count(); ++i) {
        const Order o = Order(orderBox_->itemData(i).toInt());
        bool on = true;
        QString tip;
        if (linkageOf(o)) {
            on = square;
            tip = on ? tr("Rows and columns in the leaf order of the dendrogram") : tr("Clustering needs a square matrix (all pairs of one set)");
        } else if (o == Order::Label) {
            on = !labels_.empty();
            orderBox_->setItemText(i, labelWhat_.isEmpty() ? tr("by label") : tr("by %1").arg(labelWhat_));
            tip = on ? tr("Rows grouped by %1, file order inside a group").arg(labelWhat_) : tr("The rows carry no label");
        }
        model->item(i)->setEnabled(on);
        orderBox_->setItemData(i, tip, Qt::ToolTipRole);
    }
    orderBox_->setCurrentIndex(orderBox_->findData(int(order_)));
}

void DistanceMatrixView::setRowLabels(const std::vector<std::string>& labels, const QString& what) {
    labels_ = matrix_ && labels.size() == matrix_->rows ? labels : std::vector<std::string>{};
    labelWhat_ = what;
    updateOrderItems();
    if ((order_ == Order::Label || pendingLabelOrder_) && !labels_.empty()) setOrder(Order::Label);
    pendingLabelOrder_ = false;
}

QString DistanceMatrixView::setOrder(Order order) {
    if (!matrix_) {
        order_ = order;
        updateOrderItems();
        return {};
    }
    std::vector<std::size_t> rows = identity(matrix_->rows), cols = identity(matrix_->cols);
    std::optional<compute::Dendrogram> tree;
    if (const auto linkage = linkageOf(order)) {
        if (matrix_->rows != matrix_->cols) return tr("Clustering needs a square matrix; this one is %1 × %2.").arg(matrix_->rows).arg(matrix_->cols);
        try {
            tree = compute::clusterHierarchical(matrix_->values.data(), matrix_->rows, *linkage);
        } catch (const compute::EngineError& e) {
            return QString::fromStdString(e.what());
        }
        rows = cols = tree->order;
    } else if (order == Order::Label) {
        if (labels_.empty()) return tr("The rows of this matrix carry no label.");
        rows = compute::orderByLabel(labels_);
        if (matrix_->rows == matrix_->cols) cols = rows;
    }
    order_ = order;
    rowOrder_ = std::move(rows);
    colOrder_ = std::move(cols);
    dendrogram_ = std::move(tree);
    updateOrderItems();
    redraw();
    return {};
}

void DistanceMatrixView::showDendrogram(bool show) {
    if (show == dendrogramShown_) return;
    dendrogramShown_ = show;
    dendroRect_->setVisible(show);
    if (show) {
        plot_->plotLayout()->insertColumn(0);
        plot_->plotLayout()->addElement(0, 0, dendroRect_);
        plot_->plotLayout()->setColumnStretchFactor(0, 0.3);
    } else {
        plot_->plotLayout()->take(dendroRect_);
        plot_->plotLayout()->simplify();
    }
}

void DistanceMatrixView::setMatrix(std::shared_ptr<const compute::DistanceMatrix> m, const QString& title) {
    matrix_ = std::move(m);
    title_ = title;
    labels_.clear();
    rowOrder_ = identity(matrix_->rows);
    colOrder_ = identity(matrix_->cols);
    dendrogram_.reset();
    // Labels come with setRowLabels: a Label order waits for them.
    pendingLabelOrder_ = order_ == Order::Label;
    const Order wanted = pendingLabelOrder_ ? Order::File : order_;
    order_ = Order::File;
    updateOrderItems();
    // Keep the user's choice for the next matrix when it applies; else file order, said so.
    const QString why = wanted == Order::File ? QString() : setOrder(wanted);
    if (wanted == Order::File || !why.isEmpty()) redraw();
    if (!why.isEmpty()) info_->setText(info_->text() + " · " + tr("shown in file order: %1").arg(why.toHtmlEscaped()));
}

void DistanceMatrixView::redraw() {
    const compute::DistanceMatrix shown = compute::permuteMatrix(*matrix_, rowOrder_, colOrder_);
    const DisplayMatrix d = downsampleMatrix(shown.values.data(), shown.rows, shown.cols, kMaxDisplayCells, kMaxDisplayCells);
    showDisplayMatrix(map_, d);
    showAxes(true);
    exportButton_->setEnabled(true);
    auto labelAxis = [](QCPAxis* axis, const std::vector<std::string>& names, std::size_t count) {
        if (!names.empty() && count <= std::size_t(kMaxLabels)) {
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (std::size_t k = 0; k < count && k < names.size(); ++k) ticker->addTick(double(k), QString::fromStdString(names[k]));
            axis->setTicker(ticker);
        } else {
            axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        }
    };
    labelAxis(plot_->xAxis, shown.colNames, shown.cols);
    std::vector<std::string> rowNames = shown.rowNames;
    if (order_ == Order::Label && rowNames.size() == rowOrder_.size())  // say where each group starts and ends
        for (std::size_t k = 0; k < rowNames.size(); ++k) {
            const std::string& l = labels_[rowOrder_[k]];
            rowNames[k] += " [" + (l.empty() ? std::string("none") : l) + "]";
        }
    labelAxis(plot_->yAxis, rowNames, shown.rows);
    const bool reordered = order_ != Order::File;
    plot_->xAxis->setLabel(reordered ? tr("column (target), in the order chosen") : tr("column (target)"));
    plot_->xAxis->setTickLabels(true);  // fitColumnLabels() decides after the next layout
    plot_->yAxis->setLabel(reordered ? tr("row (query), in the order chosen") : tr("row (query)"));
    plot_->xAxis->setTickLabelRotation(shown.cols <= std::size_t(kMaxLabels) ? 60 : 0);
    plot_->xAxis->setRange(-0.5, shown.cols - 0.5);
    plot_->yAxis->setRange(-0.5, shown.rows - 0.5);

    // Dendrogram: leaves at their display rows; each merge a bracket from its children's
    // heights to its own, at the mean of their rows. NaN separates the brackets.
    dendroCurve_->data()->clear();
    showDendrogram(dendrogram_.has_value());
    if (dendrogram_) {
        const std::size_t n = dendrogram_->leaves;
        std::vector<double> row(2 * n, 0), height(2 * n, 0);
        for (std::size_t k = 0; k < n; ++k) row[rowOrder_[k]] = double(k);
        QVector<double> t, x, y;
        double top = 0;
        auto point = [&](double h, double r) {
            t << double(t.size());
            x << h;
            y << r;
        };
        for (std::size_t k = 0; k < dendrogram_->merges.size(); ++k) {
            const auto& m = dendrogram_->merges[k];
            row[n + k] = (row[m.left] + row[m.right]) / 2;
            height[n + k] = m.height;
            top = std::max(top, m.height);
            point(height[m.left], row[m.left]);
            point(m.height, row[m.left]);
            point(m.height, row[m.right]);
            point(height[m.right], row[m.right]);
            point(std::nan(""), std::nan(""));
        }
        dendroCurve_->setData(t, x, y);
        dendroRect_->axis(QCPAxis::atBottom)->setRange(0, top > 0 ? top * 1.05 : 1);
        dendroRect_->axis(QCPAxis::atLeft)->setRange(plot_->yAxis->range());
    }
    const QString orderText = orderBox_->currentText();
    info_->setText(tr("<b>%1</b> · %2 × %3 · metric %4 · %5 · click a cell to align that pair")
                       .arg(title_.toHtmlEscaped()).arg(matrix_->rows).arg(matrix_->cols)
                       .arg(QString::fromLatin1(compute::metricName(matrix_->params.metric).data()), orderText));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString DistanceMatrixView::exportMatrix(const QString& path) const {
    if (!matrix_) return tr("no matrix to export");
    try {
        io::writeMatrixWithOrder(path.toStdString(), compute::permuteMatrix(*matrix_, rowOrder_, colOrder_), rowOrder_,
                                 matrix_->rowNames, order_ == Order::Label ? labels_ : std::vector<std::string>{});
        if (freqBand_)  // the band goes with the file (io/matrix_band.h)
            io::writeMatrixBand(path.toStdString(), {*freqBand_, compute::spectral::kDefaultBandOrder}, matrix_->params,
                                matrix_->rows, matrix_->cols);
    } catch (const compute::EngineError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace warplab::widgets
