#include "widgets/distance_matrix_view.h"

#include <cmath>

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "compute/core/error.h"
#include "io/matrix_io.h"
#include "widgets/matrix_downsample.h"
#include "widgets/plot_export.h"

namespace warplab::widgets {
namespace {
constexpr int kMaxLabels = 40;  // beyond this, tick labels would overlap: numbers instead
constexpr std::size_t kMaxDisplayCells = 800;
}

DistanceMatrixView::DistanceMatrixView(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot;
    plot_->axisRect()->setupFullAxesBox(false);
    plot_->xAxis->setLabel(tr("column (target)"));
    plot_->yAxis->setLabel(tr("row (query)"));
    plot_->yAxis->setRangeReversed(true);  // row 0 at the top, as in a table
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    auto* scale = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale);
    map_->setColorScale(scale);
    scale->axis()->setLabel(tr("distance"));
    QCPColorGradient gradient(QCPColorGradient::gpHot);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    map_->setGradient(gradient.inverted());
    auto* group = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);

    info_ = new QLabel(tr("No distance matrix yet: run Distance matrix (channels of the visible window)."));
    info_->setWordWrap(true);
    hover_ = new QLabel(" ");
    auto* exportButton = new QPushButton(tr("Export matrix…"));
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(hover_, 1);
    bottom->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(info_);
    layout->addWidget(plot_, 1);
    layout->addLayout(bottom);
    installPlotExportMenu(plot_, "distance_matrix");

    connect(exportButton, &QPushButton::clicked, this, [this] {
        if (!matrix_) return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export distance matrix"), "distances.csv",
                                                          tr("CSV (*.csv);;NumPy (*.npy);;HDF5 (*.h5)"));
        if (path.isEmpty()) return;
        const QString err = exportMatrix(path);
        if (!err.isEmpty()) QMessageBox::warning(this, tr("Export failed"), err);
    });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        int r, c;
        if (!cellAt(e->pos(), r, c)) return;
        const auto& names = [&](const std::vector<std::string>& v, int k) {
            return k < int(v.size()) ? QString::fromStdString(v[k]) : QString::number(k);
        };
        hover_->setText(tr("%1 × %2: %3").arg(names(matrix_->rowNames, r), names(matrix_->colNames, c))
                            .arg(matrix_->at(r, c), 0, 'g', 8));
    });
    connect(plot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        int r, c;
        if (e->button() == Qt::LeftButton && cellAt(e->pos(), r, c)) emit cellActivated(r, c);
    });
    setMinimumSize(300, 250);
}

QString DistanceMatrixView::hoverText() const { return hover_->text(); }

QPoint DistanceMatrixView::cellPoint(int row, int col) const {
    plot_->replot();
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(col))), int(std::lround(plot_->yAxis->coordToPixel(row))));
}

bool DistanceMatrixView::cellAt(const QPoint& pos, int& row, int& col) const {
    if (!matrix_ || !plot_->axisRect()->rect().contains(pos)) return false;
    col = int(std::lround(plot_->xAxis->pixelToCoord(pos.x())));
    row = int(std::lround(plot_->yAxis->pixelToCoord(pos.y())));
    return row >= 0 && col >= 0 && std::size_t(row) < matrix_->rows && std::size_t(col) < matrix_->cols;
}

void DistanceMatrixView::setMatrix(std::shared_ptr<const compute::DistanceMatrix> m, const QString& title) {
    matrix_ = std::move(m);
    const DisplayMatrix d = downsampleMatrix(matrix_->values.data(), matrix_->rows, matrix_->cols, kMaxDisplayCells, kMaxDisplayCells);
    map_->data()->setSize(int(d.cols), int(d.rows));
    map_->data()->setRange(QCPRange((d.colStep - 1) / 2.0, (d.cols - 1) * d.colStep + (d.colStep - 1) / 2.0),
                           QCPRange((d.rowStep - 1) / 2.0, (d.rows - 1) * d.rowStep + (d.rowStep - 1) / 2.0));
    for (std::size_t i = 0; i < d.rows; ++i)
        for (std::size_t j = 0; j < d.cols; ++j) map_->data()->setCell(int(j), int(i), d.values[i * d.cols + j]);
    map_->rescaleDataRange(true);
    auto labelAxis = [](QCPAxis* axis, const std::vector<std::string>& names, std::size_t count) {
        if (!names.empty() && count <= std::size_t(kMaxLabels)) {
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (std::size_t k = 0; k < count && k < names.size(); ++k) ticker->addTick(double(k), QString::fromStdString(names[k]));
            axis->setTicker(ticker);
        } else {
            axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        }
    };
    labelAxis(plot_->xAxis, matrix_->colNames, matrix_->cols);
    labelAxis(plot_->yAxis, matrix_->rowNames, matrix_->rows);
    plot_->xAxis->setTickLabelRotation(matrix_->cols <= std::size_t(kMaxLabels) ? 60 : 0);
    plot_->xAxis->setRange(-0.5, matrix_->cols - 0.5);
    plot_->yAxis->setRange(-0.5, matrix_->rows - 0.5);
    info_->setText(tr("<b>%1</b> · %2 × %3 · metric %4 · click a cell to align that pair")
                       .arg(title.toHtmlEscaped()).arg(matrix_->rows).arg(matrix_->cols)
                       .arg(QString::fromLatin1(compute::metricName(matrix_->params.metric).data())));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString DistanceMatrixView::exportMatrix(const QString& path) const {
    if (!matrix_) return tr("no matrix to export");
    try {
        io::writeMatrix(path.toStdString(), *matrix_);
    } catch (const compute::EngineError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace warplab::widgets
