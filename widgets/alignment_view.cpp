#include "widgets/alignment_view.h"

#include <algorithm>
#include <cmath>

#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/elided_label.h"
#include "widgets/plot_export.h"

namespace warplab::widgets {
namespace {

constexpr std::size_t kMaxLines = 200;
constexpr std::size_t kMaxPoints = 6000;

struct Span {
    double lo = 0, hi = 0;
};

Span spanOf(const std::vector<float>& v) {
    if (v.empty()) return {0, 1};
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    Span s{*lo, *hi};
    if (s.hi - s.lo < 1e-12) s.hi = s.lo + 1;
    return s;
}

}  // namespace

AlignmentView::AlignmentView(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot;
    plot_->xAxis->setLabel(tr("sample index (samples)"));
    plot_->yAxis->setLabel(tr("normalised amplitude, unitless (x above, y below)"));
    plot_->yAxis->setTickLabels(false);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    info_ = new QLabel(tr("No alignment yet."));
    info_->setWordWrap(true);  // a long pair's line must not widen the dock
    source_ = new ElidedLabel;
    source_->setObjectName("resultSource");
    source_->setMaxLines(2);  // the metric and band come last in it: shown, not cut
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(source_);
    layout->addWidget(info_);
    layout->addWidget(plot_, 1);
    installPlotExportMenu(plot_, "alignment");
    setMinimumSize(300, 200);
}

void AlignmentView::clear() {
    plot_->clearGraphs();
    plot_->clearItems();
    lines_ = 0;
    info_->setText(tr("No alignment yet."));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void AlignmentView::setAlignment(std::shared_ptr<const compute::Alignment> a, std::vector<float> x,
                                 std::vector<float> y, const QString& xName, const QString& yName) {
    clear();
    // Each series is scaled into its own band: x in [1.2, 2.2], y in [0, 1].
    const Span sx = spanOf(x), sy = spanOf(y);
    auto xPos = [&](float v) { return 1.2 + (v - sx.lo) / (sx.hi - sx.lo); };
    auto yPos = [&](float v) { return (v - sy.lo) / (sy.hi - sy.lo); };
    auto addTrace = [&](const std::vector<float>& v, auto pos, QColor color, const QString& name) {
        QVector<double> k, val;
        const std::size_t step = std::max<std::size_t>(1, v.size() / kMaxPoints);
        for (std::size_t i = 0; i < v.size(); i += step) {
            k.append(double(i));
            val.append(pos(v[i]));
        }
        auto* g = plot_->addGraph();
        g->setData(k, val, true);
        g->setPen(QPen(color, 1.5));
        g->setName(name);
    };
    addTrace(x, xPos, QColor(38, 139, 210), "x: " + xName);
    addTrace(y, yPos, QColor(133, 153, 0), "y: " + yName);
    const auto& path = a->path;
    const std::size_t step = std::max<std::size_t>(1, (path.size() + kMaxLines - 1) / kMaxLines);
    for (std::size_t k = 0; k < path.size(); k += step) {
        const auto [i, j] = path[k];
        if (i >= x.size() || j >= y.size()) continue;
        auto* line = new QCPItemLine(plot_);
        line->start->setCoords(double(i), xPos(x[i]));
        line->end->setCoords(double(j), yPos(y[j]));
        line->setPen(QPen(QColor(120, 120, 120, 110), 1));
        line->setSelectable(false);
        ++lines_;
    }
    plot_->xAxis->setRange(0, double(std::max(x.size(), y.size())));
    plot_->yAxis->setRange(-0.1, 2.3);
    info_->setText(tr("<b>distance %1 %4</b> · path of %2 steps (%3 joining lines shown)")
                       .arg(a->distance, 0, 'g', 8).arg(path.size()).arg(lines_)
                       .arg(valueUnit_.isEmpty() ? QString() : "(" + valueUnit_.toHtmlEscaped() + ")"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void AlignmentView::setSource(const QString& text) {
    source_->setFullText(text);
    plot_->setProperty(kExportTitleProperty, text);
}
QString AlignmentView::source() const { return source_->fullText(); }

void AlignmentView::setValueUnit(const QString& unit) { valueUnit_ = unit; }
QString AlignmentView::infoText() const { return info_->text(); }

}  // namespace warplab::widgets
