#include "widgets/cost_matrix_view.h"

#include <algorithm>
#include <cmath>

#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/matrix_color_map.h"
#include "widgets/matrix_downsample.h"
#include "widgets/elided_label.h"
#include "widgets/plot_export.h"
#include "widgets/uniform_ticker.h"

namespace warplab::widgets {
namespace {

constexpr std::size_t kMaxDisplayCells = 600;   // per axis; the screen shows no more anyway
constexpr std::size_t kMaxPathPoints = 4000;
constexpr std::size_t kMaxSeriesPoints = 4000;

void setSeries(QCPGraph* g, const std::vector<float>& v) {
    const std::size_t step = std::max<std::size_t>(1, v.size() / kMaxSeriesPoints);
    QVector<double> k, val;
    for (std::size_t i = 0; i < v.size(); i += step) {
        k.append(double(i));
        val.append(v[i]);
    }
    g->setData(k, val, true);
    g->rescaleValueAxis();
}

}  // namespace

CostMatrixView::CostMatrixView(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot;
    plot_->plotLayout()->clear();
    main_ = new QCPAxisRect(plot_);
    left_ = new QCPAxisRect(plot_);
    bottom_ = new QCPAxisRect(plot_);
    scale_ = new QCPColorScale(plot_);
    scale_->axis()->setTicker(QSharedPointer<UniformTicker>::create());  // one number format per bar
    plot_->plotLayout()->addElement(0, 0, left_);
    plot_->plotLayout()->addElement(0, 1, main_);
    plot_->plotLayout()->addElement(0, 2, scale_);
    plot_->plotLayout()->addElement(1, 1, bottom_);
    plot_->plotLayout()->setColumnStretchFactors({0.18, 1.0, 0.04});
    plot_->plotLayout()->setRowStretchFactors({1.0, 0.18});

    auto* vertical = new QCPMarginGroup(plot_);
    main_->setMarginGroup(QCP::msTop | QCP::msBottom, vertical);
    left_->setMarginGroup(QCP::msTop | QCP::msBottom, vertical);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, vertical);
    auto* horizontal = new QCPMarginGroup(plot_);
    main_->setMarginGroup(QCP::msLeft | QCP::msRight, horizontal);
    bottom_->setMarginGroup(QCP::msLeft | QCP::msRight, horizontal);

    main_->axis(QCPAxis::atBottom)->setLabel(tr("j (sample of y)"));
    main_->axis(QCPAxis::atLeft)->setLabel(tr("i (sample of x)"));
    left_->axis(QCPAxis::atBottom)->setLabel(tr("x"));
    left_->axis(QCPAxis::atLeft)->setTickLabels(false);
    left_->axis(QCPAxis::atBottom)->setRangeReversed(true);  // trace grows towards the matrix
    left_->axis(QCPAxis::atBottom)->ticker()->setTickCount(2);
    bottom_->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
    bottom_->axis(QCPAxis::atLeft)->setLabel(tr("y"));
    bottom_->axis(QCPAxis::atBottom)->setTickLabels(false);

    map_ = new QCPColorMap(main_->axis(QCPAxis::atBottom), main_->axis(QCPAxis::atLeft));
    map_->setColorScale(scale_);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    map_->setGradient(gradient);
    map_->setInterpolate(false);
    scale_->axis()->setLabel(tr("accumulated cost (unit of the metric)"));

    path_ = new QCPCurve(main_->axis(QCPAxis::atBottom), main_->axis(QCPAxis::atLeft));
    path_->setPen(QPen(QColor(0, 230, 255), 2));
    path_->setName(tr("warping path"));

    auto* gx = plot_->addGraph(left_->axis(QCPAxis::atLeft), left_->axis(QCPAxis::atBottom));
    gx->setPen(QPen(QColor(38, 139, 210)));
    auto* gy = plot_->addGraph(bottom_->axis(QCPAxis::atBottom), bottom_->axis(QCPAxis::atLeft));
    gy->setPen(QPen(QColor(133, 153, 0)));
    // The side traces follow the matrix when its axes change.
    connect(main_->axis(QCPAxis::atLeft), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            left_->axis(QCPAxis::atLeft), qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(main_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            bottom_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));

    info_ = new QLabel(tr("No pair aligned yet: mark a query and a reference region, then run Align."));
    info_->setWordWrap(true);
    hover_ = new QLabel(" ");
    source_ = new ElidedLabel;
    source_->setObjectName("resultSource");
    source_->setMaxLines(2);  // the metric and band come last in it: shown, not cut
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(source_);
    layout->addWidget(info_);
    layout->addWidget(plot_, 1);
    layout->addWidget(hover_);
    connect(plot_, &QCustomPlot::mouseMove, this, &CostMatrixView::onHover);
    installPlotExportMenu(plot_, "cost_matrix");
    // Empty axes until a pair is aligned. Their axis rects are hidden, never the plot widget:
    // a hidden QCustomPlot shown again from a job's result replots at once with its axes half
    // set, where QCustomPlot's tick-label drawing corrupted the heap (the distance matrix did).
    showAxes(false);
    setMinimumSize(300, 250);
}

void CostMatrixView::clear() {
    alignment_.reset();
    map_->data()->clear();
    path_->data()->clear();
    plot_->graph(0)->data()->clear();
    plot_->graph(1)->data()->clear();
    displayRows_ = displayCols_ = 0;
    showAxes(false);
    setSource({});
    hover_->setText(" ");
    info_->setText(tr("No pair aligned yet: mark a query and a reference region, then run Align."));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void CostMatrixView::setAlignment(std::shared_ptr<const compute::Alignment> a, std::vector<float> x,
                                  std::vector<float> y, const QString& xName, const QString& yName, const QString& note) {
    alignment_ = std::move(a);
    const std::size_t n = alignment_->n, m = alignment_->m;
    QString shown;
    if (!alignment_->matrix.empty() && n && m) {
        const DisplayMatrix d = downsampleMatrix(alignment_->matrix.data(), n, m, kMaxDisplayCells, kMaxDisplayCells);
        displayRows_ = d.rows;
        displayCols_ = d.cols;
        showDisplayMatrix(map_, d);
        if (d.rowStep > 1 || d.colStep > 1)
            shown = tr(" · shown block-averaged %1×%2 (blocks of %3×%4)").arg(d.rows).arg(d.cols).arg(d.rowStep).arg(d.colStep);
    } else {
        displayRows_ = displayCols_ = 0;
        map_->data()->clear();  // no colours to explain: showAxes hides the scale
        shown = tr(" · cost matrix not kept (low-memory path)");
    }
    const std::size_t step = std::max<std::size_t>(1, alignment_->path.size() / kMaxPathPoints);
    QVector<double> t, keys, values;
    for (std::size_t k = 0; k < alignment_->path.size(); k += step) {
        t.append(double(t.size()));
        keys.append(double(alignment_->path[k].second));
        values.append(double(alignment_->path[k].first));
    }
    if (!alignment_->path.empty() && (alignment_->path.size() - 1) % step != 0) {
        t.append(double(t.size()));
        keys.append(double(alignment_->path.back().second));
        values.append(double(alignment_->path.back().first));
    }
    path_->setData(t, keys, values, true);
    main_->axis(QCPAxis::atBottom)->setRange(-0.5, m - 0.5);
    main_->axis(QCPAxis::atLeft)->setRange(-0.5, n - 0.5);
    setSeries(plot_->graph(0), x);
    setSeries(plot_->graph(1), y);
    showAxes(true, !alignment_->matrix.empty() && n && m);
    info_->setText(tr("<b>distance %1 %8</b> · x (rows): %2, %3 samples · y (columns): %4, %5 samples%6%7")
                       .arg(alignment_->distance, 0, 'g', 8).arg(xName.toHtmlEscaped()).arg(n)
                       .arg(yName.toHtmlEscaped()).arg(m).arg(shown)
                       .arg(note.isEmpty() ? QString() : " · " + note.toHtmlEscaped())
                       .arg(valueUnit_.isEmpty() ? QString() : "(" + valueUnit_.toHtmlEscaped() + ")"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void CostMatrixView::onHover(QMouseEvent* e) {
    if (!alignment_ || !main_->rect().contains(e->pos())) return;
    const long j = std::lround(main_->axis(QCPAxis::atBottom)->pixelToCoord(e->pos().x()));
    const long i = std::lround(main_->axis(QCPAxis::atLeft)->pixelToCoord(e->pos().y()));
    if (i < 0 || j < 0 || std::size_t(i) >= alignment_->n || std::size_t(j) >= alignment_->m) return;
    QString cost = tr("not kept");
    if (hasMatrix()) cost = QString::number(alignment_->matrix[std::size_t(i) * alignment_->m + std::size_t(j)], 'g', 8);
    hover_->setText(tr("i = %1, j = %2 (samples), cost = %3 %4").arg(i).arg(j).arg(cost).arg(valueUnit_));
}

QString CostMatrixView::hoverText() const { return hover_->text(); }

QPoint CostMatrixView::cellPoint(std::size_t i, std::size_t j) const {
    plot_->replot();  // axis rects get their geometry when laid out
    return QPoint(int(std::lround(main_->axis(QCPAxis::atBottom)->coordToPixel(double(j)))),
                  int(std::lround(main_->axis(QCPAxis::atLeft)->coordToPixel(double(i)))));
}

void CostMatrixView::setUnits(const QString& valueUnit, const QString& signalUnit, const QString& scaleLabel) {
    valueUnit_ = valueUnit;
    scale_->axis()->setLabel(scaleLabel.isEmpty() ? tr("accumulated cost (%1)").arg(valueUnit) : scaleLabel);
    left_->axis(QCPAxis::atBottom)->setLabel(tr("x (%1)").arg(signalUnit));
    bottom_->axis(QCPAxis::atLeft)->setLabel(tr("y (%1)").arg(signalUnit));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void CostMatrixView::setSource(const QString& text) {
    source_->setFullText(text);
    plot_->setProperty(kExportTitleProperty, text);
}
QString CostMatrixView::source() const { return source_->fullText(); }
bool CostMatrixView::colorScaleShown() const { return scale_->visible(); }

void CostMatrixView::showAxes(bool show, bool withScale) {
    for (QCPAxisRect* r : {main_, left_, bottom_}) r->setVisible(show);  // their axes and plottables go with them
    scale_->setVisible(show && withScale);  // an earlier pair's scale would mislead
}

bool CostMatrixView::axesShown() const { return main_->visible(); }

QString CostMatrixView::colorScaleLabel() const { return scale_->axis()->label(); }
QString CostMatrixView::infoText() const { return info_->text(); }

}  // namespace warplab::widgets
