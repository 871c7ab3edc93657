#include "widgets/kernel_comparison_view.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "compute/bench/sdtw_designs.h"
#include "compute/core/error.h"
#include "compute/registry/registry.h"
#include "widgets/atomic_file.h"
#include "widgets/plot_export.h"

namespace warplab::widgets {
namespace {

// A greyed kernel's reason on its line: up to the first ": " or " (" ("no CUDA device usable"),
// the whole of it in the tooltip; every GPU kernel gives the same one where there is no device.
QString shortReason(const QString& why) {
    qsizetype cut = why.size();
    for (const char* mark : {": ", " ("})
        if (const qsizetype at = why.indexOf(QLatin1String(mark)); at > 0) cut = std::min(cut, at);
    return why.left(cut);
}

QColor kernelColor(int k) {
    static const QColor palette[] = {QColor(38, 139, 210), QColor(220, 50, 47), QColor(133, 153, 0), QColor(211, 54, 130),
                                     QColor(181, 137, 0), QColor(42, 161, 152), QColor(108, 113, 196), QColor(203, 75, 22)};
    return palette[k % 8];
}

}  // namespace

KernelComparisonView::KernelComparisonView(QWidget* parent) : QWidget(parent) {
    metric_ = new QComboBox;
    for (compute::Metric m : compute::allMetrics())
        metric_->addItem(m == compute::Metric::Sdtw ? tr("sdtw (search designs)")
                                                    : QString::fromLatin1(compute::metricName(m).data()),
                         int(m));
    metric_->setCurrentIndex(metric_->findData(int(compute::Metric::Dtw)));
    // Not as wide as its longest entry at least ("sdtw (search designs)"): the dock's minimum
    // width, with the tabs beside it, kept the window wider than a 1280 px screen.
    metric_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    metric_->setMinimumContentsLength(10);
    kernels_ = new QListWidget;
    kernels_->setMaximumHeight(130);
    lengths_ = new QLineEdit("128,256,512,1024");
    // Wide enough for the default list whole (a narrower box hid "128,").
    lengths_->setMinimumWidth(lengths_->fontMetrics().horizontalAdvance(lengths_->text()) + 20);
    lengths_->setToolTip(tr("Series lengths in samples, separated by commas"));
    pairs_ = new QSpinBox;
    pairs_->setRange(1, 10000000);
    pairs_->setValue(256);
    band_ = new QSpinBox;
    band_->setRange(0, 100000);
    band_->setValue(16);
    reference_ = new QSpinBox;
    reference_->setRange(16, 100000000);
    reference_->setSingleStep(10000);
    reference_->setValue(100000);
    reference_->setToolTip(tr("Samples of the random-walk reference each query is searched in"));
    pairsLabel_ = new QLabel(tr("Pairs"));
    bandLabel_ = new QLabel(tr("Band w"));
    repeats_ = new QSpinBox;
    repeats_->setRange(1, 50);
    repeats_->setValue(3);
    run_ = new QPushButton(tr("Run benchmark"));
    export_ = new QPushButton(tr("Export table (CSV)…"));
    // Controls in three compact rows above the charts: the view usually lives in a dock of
    // about 560 px on a 1280 x 800 screen, where six columns cut the lengths box.
    auto* controls = new QGridLayout;
    controls->addWidget(new QLabel(tr("Metric")), 0, 0);
    controls->addWidget(metric_, 0, 1);
    controls->addWidget(new QLabel(tr("Lengths")), 0, 2);
    controls->addWidget(lengths_, 0, 3);
    controls->addWidget(pairsLabel_, 1, 0);
    controls->addWidget(pairs_, 1, 1);
    controls->addWidget(bandLabel_, 1, 2);
    controls->addWidget(band_, 1, 3);
    controls->addWidget(reference_, 1, 3);
    reference_->hide();
    controls->addWidget(new QLabel(tr("Timed runs")), 2, 0);
    controls->addWidget(repeats_, 2, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(export_);
    controls->addLayout(buttons, 2, 2, 1, 2);
    controls->setColumnStretch(3, 1);
    kernels_->setMaximumHeight(16777215);
    kernels_->setMinimumWidth(140);
    kernels_->setMaximumWidth(200);

    lines_ = new QCustomPlot;
    lines_->xAxis->setLabel(tr("series length (samples)"));
    lines_->yAxis->setLabel(tr("throughput (DP cells / s)"));
    lines_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    lines_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());  // ticks at the lengths run
    lines_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    lines_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    // The legend in its own row under the axis rect, wrapped into columns: inside the axis
    // rect it covered the lines and was cut off at the default window size.
    lines_->legend->setVisible(true);
    lines_->legend->setFont(QFont(font().family(), 9));
    lines_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    lines_->legend->setWrap(3);
    lines_->legend->setRowSpacing(0);
    lines_->legend->setBorderPen(Qt::NoPen);
    legendRow_ = new QCPLayoutGrid;
    lines_->plotLayout()->addElement(1, 0, legendRow_);
    legendRow_->setMargins(QMargins(5, 0, 5, 5));
    legendRow_->addElement(0, 0, lines_->legend);
    lines_->plotLayout()->setRowStretchFactor(1, 0.001);
    // As many legend columns as the chart's width holds, so that no name is cut.
    connect(lines_, &QCustomPlot::afterLayout, this, [this] { fitLegend(); });
    installPlotExportMenu(lines_, "kernel_throughput");
    bars_ = new QCustomPlot;
    bars_->yAxis->setLabel(tr("DP cells / s"));
    installPlotExportMenu(bars_, "kernel_bars");
    barLength_ = new QComboBox;
    auto* barBox = new QWidget;
    auto* barLayout = new QVBoxLayout(barBox);
    barLayout->setContentsMargins(0, 0, 0, 0);
    auto* barTop = new QHBoxLayout;
    barTop->addWidget(new QLabel(tr("Bar chart at length:")));
    barTop->addWidget(barLength_);
    barTop->addStretch(1);
    barLayout->addLayout(barTop);
    barLayout->addWidget(bars_, 1);

    rows_ = new QTableWidget(0, 10);
    // Long headers on two lines: on one, they set the columns' widths and pushed the energy
    // column out of a dock of 600 px.
    rows_->setHorizontalHeaderLabels({tr("kernel"), tr("length\n(samples)"), tr("pairs"), tr("median\n(s)"),
                                      tr("DP cells\n/ s"), tr("distances\n/ s"), tr("energy per\ndistance (J)"),
                                      tr("mean board\npower (W)"), tr("max rel. error vs\nreference (unitless)"), tr("note")});
    // Energy next to throughput: both say what a distance costs, and there they stay in view
    // when the dock is narrow.
    rows_->horizontalHeaderItem(6)->setToolTip(
        tr("GPU board energy (NVML's energy counter) over the timed runs, divided by the distances computed; "
           "where there is no figure the cell says why"));
    rows_->horizontalHeaderItem(7)->setToolTip(tr("The board's energy over the timed runs divided by their wall time"));
    // The table scrolls sideways in a narrow dock, where a header at the edge shows in part:
    // every header says itself whole in its tooltip.
    for (int c = 0; c < rows_->columnCount(); ++c)
        if (rows_->horizontalHeaderItem(c)->toolTip().isEmpty())
            rows_->horizontalHeaderItem(c)->setToolTip(rows_->horizontalHeaderItem(c)->text().replace('\n', ' '));
    rows_->verticalHeader()->setVisible(false);
    rows_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    rows_->horizontalHeader()->setStretchLastSection(true);

    // The line chart gets the width of the dock (beside the narrow kernel list); the table
    // and the bar chart share the lower part as tabs. Side by side, three columns left the
    // line chart too narrow for its axis and legend in a dock at 1400 x 900.
    kernels_->setMaximumWidth(210);
    kernels_->setWordWrap(true);  // a greyed kernel's reason on lines of its own, not cut
    kernels_->setTextElideMode(Qt::ElideNone);
    kernels_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    lines_->setMinimumWidth(280);
    auto* split = new QSplitter(Qt::Vertical);
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(kernels_);
    charts->addWidget(lines_);
    charts->setStretchFactor(0, 0);
    charts->setStretchFactor(1, 1);
    charts->setSizes({150, 1000});  // else the list's unused share shows as a gap
    auto* lower = new QTabWidget;
    energyNote_ = new QLabel;
    energyNote_->setObjectName("energyNote");
    energyNote_->setWordWrap(true);
    energyNote_->hide();
    auto* tableBox = new QWidget;
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(rows_, 1);
    tableLayout->addWidget(energyNote_);
    lower->addTab(tableBox, tr("Table"));
    lower->addTab(barBox, tr("Bars at one length"));
    split->addWidget(charts);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(controls);
    layout->addWidget(split, 1);

    connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
        fillKernels();
        const auto it = byMetric_.find(chosenMetric());
        showResults();
    });
    connect(run_, &QPushButton::clicked, this, &KernelComparisonView::runRequested);
    connect(barLength_, &QComboBox::currentIndexChanged, this, [this] { drawCharts(); });
    connect(export_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export benchmark"), "bench.csv", tr("CSV (*.csv)"));
        if (path.isEmpty()) return;
        const QString err = exportCsv(path);
        if (!err.isEmpty()) QMessageBox::warning(this, tr("Export failed"), err);
    });
    fillKernels();
    showResults();  // the empty chart says so from the start
}

void KernelComparisonView::fillKernels() {
    kernels_->clear();
    const auto m = compute::Metric(metric_->currentData().toInt());
    // sdtw compares the search designs (sdtw_designs.h): queries instead of pairs, a reference
    // length instead of a band.
    const bool search = m == compute::Metric::Sdtw;
    pairsLabel_->setText(search ? tr("Queries") : tr("Pairs"));
    bandLabel_->setText(search ? tr("Reference") : tr("Band w"));
    band_->setVisible(!search);
    reference_->setVisible(search);
    lines_->xAxis->setLabel(search ? tr("query length (samples)") : tr("series length (samples)"));
    lines_->replot();  // the label shows now, not at the next run
    // A kernel (or design) that can run is checked with its description as tooltip; one that
    // cannot is shown greyed, not checkable, with the reason.
    auto add = [this](const std::string& name, const std::string& description, const QString& why, bool describeWhy) {
        auto* item = new QListWidgetItem(QString::fromStdString(name), kernels_);
        if (why.isEmpty()) {
            item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
            item->setCheckState(Qt::Checked);
            item->setToolTip(QString::fromStdString(description));
        } else {
            item->setFlags(Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
            item->setText(item->text() + "\n" + tr("— %1").arg(shortReason(why)));
            item->setToolTip(describeWhy ? QString::fromStdString(description) + "\n" + why : why);
        }
    };
    if (search) {
        const QString noDevice = QString::fromStdString(compute::benchDeviceUnavailable());
        for (const compute::SdtwDesign& d : compute::sdtwDesigns())
            add(d.name, d.description, d.device ? noDevice : QString(), true);
        return;
    }
    for (compute::Kernel* k : compute::KernelRegistry::instance().forMetric(m))
        add(k->name(), k->description(), QString::fromStdString(k->unavailableReason()), false);
}

QStringList KernelComparisonView::checkedKernels() const {
    QStringList out;
    for (int i = 0; i < kernels_->count(); ++i)
        if (kernels_->item(i)->checkState() == Qt::Checked) out << kernels_->item(i)->text().section('\n', 0, 0).section(' ', 0, 0);
    return out;
}

QStringList KernelComparisonView::tableHeaders() const {
    QStringList out;
    for (int c = 0; c < rows_->columnCount(); ++c) out << rows_->horizontalHeaderItem(c)->text().replace('\n', ' ');
    return out;
}

QStringList KernelComparisonView::tableHeaderToolTips() const {
    QStringList out;
    for (int c = 0; c < rows_->columnCount(); ++c) out << rows_->horizontalHeaderItem(c)->toolTip();
    return out;
}

void KernelComparisonView::setLengths(const QString& lengths) { lengths_->setText(lengths); }
void KernelComparisonView::setPairs(int pairs) { pairs_->setValue(pairs); }

compute::BenchConfig KernelComparisonView::config() const {
    compute::BenchConfig c;
    c.params.metric = compute::Metric(metric_->currentData().toInt());
    c.params.band = band_->value();
    for (const QString& k : checkedKernels()) c.kernels.push_back(k.toStdString());
    c.lengths.clear();
    for (const QString& part : lengths_->text().split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const long v = part.trimmed().toLong(&ok);
        if (!ok || v <= 0)
            throw compute::EngineError(compute::EngineError::Kind::BadParameter, "lengths",
                                       "'" + part.trimmed().toStdString() + "' is not a positive whole number of samples");
        c.lengths.push_back(std::size_t(v));
    }
    if (c.lengths.empty()) throw compute::EngineError(compute::EngineError::Kind::BadParameter, "lengths", "no length given");
    if (c.kernels.empty()) throw compute::EngineError(compute::EngineError::Kind::BadParameter, "kernels", "no kernel that can run is checked");
    c.pairs = std::size_t(pairs_->value());
    c.repeats = repeats_->value();
    if (c.params.metric == compute::Metric::Sdtw) {
        // The published search workload: z-normalised queries, top-5 with exact starts.
        c.params.band = 0;
        c.params.znorm = true;
        c.searchQueries = pairs_->value();
        c.referenceLength = reference_->value();
        c.topk = 5;
    }
    return c;
}

std::string KernelComparisonView::chosenMetric() const {
    return std::string(compute::metricName(compute::Metric(metric_->currentData().toInt())));
}

void KernelComparisonView::setResults(const compute::BenchTable& table) {
    lastMetric_ = table.empty() || table.front().metric.empty() ? chosenMetric() : table.front().metric;
    byMetric_[lastMetric_].table = table;
    if (lastMetric_ == chosenMetric()) showResults();
}

const KernelComparisonView::MetricResults& KernelComparisonView::shown() const {
    static const MetricResults none;
    const auto it = byMetric_.find(chosenMetric());
    return it != byMetric_.end() ? it->second : none;
}

void KernelComparisonView::showResults() {
    const compute::BenchTable& table = shown().table;
    rows_->setRowCount(int(table.size()));
    QStringList reasons;  // of the missing energy figures, each once
    for (int r = 0; r < int(table.size()); ++r) {
        const auto& row = table[std::size_t(r)];
        const compute::EnergyFigure& e = row.energy;
        const QString why = QString::fromStdString(e.note);
        const QStringList cells = {QString::fromStdString(row.kernel), QString::number(row.length), QString::number(row.pairs),
                                   QString::number(row.median_s, 'g', 4), QString::number(row.cells_per_s, 'g', 4),
                                   QString::number(row.distances_per_s, 'g', 4),
                                   e.valid() ? QString::number(e.joulesPerDistance(), 'g', 3) : QString::fromUtf8("\u2014"),
                                   e.valid() ? QString::number(e.meanPowerW(), 'f', 0) : QString::fromUtf8("\u2014"),
                                   QString::number(row.max_rel_error, 'g', 3), QString::fromStdString(row.note)};
        for (int c = 0; c < cells.size(); ++c) rows_->setItem(r, c, new QTableWidgetItem(cells[c]));
        // The energy cells explain themselves: the window behind a figure, or why there is none.
        const QString energyTip =
            e.valid() ? tr("%1 J over %2 s for %3 distances: %4 distances / ms / W")
                            .arg(e.joules, 0, 'g', 4)
                            .arg(e.seconds, 0, 'g', 3)
                            .arg(qulonglong(e.distances))
                            .arg(e.distancesPerMsPerW(), 0, 'g', 3)
                      : tr("No energy figure: %1").arg(why);
        for (int c : {6, 7}) {
            rows_->item(r, c)->setToolTip(energyTip);
            if (!e.valid()) rows_->item(r, c)->setForeground(palette().color(QPalette::PlaceholderText));
        }
        if (!e.valid() && !reasons.contains(why)) reasons << why;
    }
    // Why a figure is missing is said once under the table, whole: in every CPU row's cell the
    // reason was cut by a narrow dock's edge.
    energyNote_->setText(reasons.isEmpty() ? QString() : tr("No energy figure (\u2014): %1").arg(reasons.join("; ")));
    energyNote_->setVisible(!reasons.isEmpty());
    rows_->resizeColumnsToContents();
    std::set<std::size_t> lengths;
    for (const auto& row : table) lengths.insert(row.length);
    const QSignalBlocker block(barLength_);
    barLength_->clear();
    for (std::size_t l : lengths) barLength_->addItem(QString::number(l), qulonglong(l));
    barLength_->setCurrentIndex(barLength_->count() - 1);
    drawCharts();
}

void KernelComparisonView::setCeiling(double cellsPerSecond, const QString& label) {
    const std::string key = lastMetric_.empty() ? chosenMetric() : lastMetric_;
    MetricResults& r = byMetric_[key];
    r.ceiling = cellsPerSecond;
    r.ceilingLabel = label;
    if (key == chosenMetric()) drawCharts();
}

void KernelComparisonView::fitLegend() {
    const QFontMetrics fm(lines_->legend->font());
    int widest = 0;
    for (int i = 0; i < lines_->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(lines_->legend->item(i)))
            widest = std::max(widest, fm.horizontalAdvance(item->plottable()->name()));
    if (widest == 0) return;
    const int entry = widest + lines_->legend->iconSize().width() + lines_->legend->iconTextPadding() + 16;
    const int columns = std::max(1, (lines_->width() - 20) / entry);
    if (columns != lines_->legend->wrap()) {
        lines_->legend->setWrap(columns);
        lines_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-flow the entries
        lines_->replot(QCustomPlot::rpQueuedReplot);
    }
}

void KernelComparisonView::drawCharts() {
    const MetricResults& results = shown();
    const compute::BenchTable& table = results.table;
    const double ceiling = results.ceiling;
    lines_->clearGraphs();
    lines_->clearItems();
    bars_->clearPlottables();
    std::vector<std::string> names;
    for (const auto& row : table)
        if (std::find(names.begin(), names.end(), row.kernel) == names.end()) names.push_back(row.kernel);
    double lo = 1e300, hi = 0, lmin = 1e300, lmax = 0;
    auto lengthTicks = qSharedPointerCast<QCPAxisTickerText>(lines_->xAxis->ticker());
    lengthTicks->clear();
    for (const auto& row : table) lengthTicks->addTick(double(row.length), QString::number(row.length));
    for (int k = 0; k < int(names.size()); ++k) {
        auto* g = lines_->addGraph();
        g->setName(QString::fromStdString(names[std::size_t(k)]));
        g->setPen(QPen(kernelColor(k), 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kernelColor(k), kernelColor(k), 6));
        for (const auto& row : table) {
            if (row.kernel != names[std::size_t(k)] || !(row.cells_per_s > 0)) continue;  // kernels that did not run
            g->addData(double(row.length), row.cells_per_s);
            lo = std::min(lo, row.cells_per_s);
            hi = std::max(hi, row.cells_per_s);
            lmin = std::min(lmin, double(row.length));
            lmax = std::max(lmax, double(row.length));
        }
    }
    if (ceiling > 0) {
        const QPen pen(Qt::darkRed, 1.5, Qt::DashLine);
        auto* line = new QCPItemStraightLine(lines_);
        line->point1->setCoords(1, ceiling);
        line->point2->setCoords(2, ceiling);
        line->setPen(pen);
        // The line's label sits on the line itself (right end, just above), and the legend
        // lists it too through an empty graph with the same pen.
        auto* text = new QCPItemText(lines_);
        text->setObjectName("ceilingLabel");
        text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        text->position->setTypeY(QCPItemPosition::ptPlotCoords);
        text->position->setCoords(0.99, ceiling);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        text->setText(tr("chip ceiling: %1, %2 DP cells / s").arg(results.ceilingLabel).arg(ceiling, 0, 'g', 3));
        text->setColor(Qt::darkRed);
        auto* entry = lines_->addGraph();
        entry->setName(tr("chip ceiling"));  // short: the label on the line names the chip
        entry->setPen(pen);
        hi = std::max(hi, ceiling);
    }
    if (lmax > 0) lines_->xAxis->setRange(lmin / 1.5, lmax * 1.5);  // no rows: the axis stays
    if (hi > 0) lines_->yAxis->setRange((lo < hi ? lo : hi) / 3, hi * 3);
    // No results for this metric yet: say so in the chart, and take the legend's row out of the
    // layout (an empty legend has no width to give, and its row narrowed the axis rect above it
    // to a sliver); it goes back with the first line.
    QCPLayoutGrid* layout = lines_->plotLayout();
    const bool legendShown = layout->rowCount() > 1 && layout->hasElement(1, 0);
    if (lines_->graphCount() == 0 && legendShown) {
        layout->take(legendRow_);
        layout->simplify();
    } else if (lines_->graphCount() > 0 && !legendShown) {
        layout->addElement(1, 0, legendRow_);
        layout->setRowStretchFactor(1, 0.001);
    }
    if (table.empty()) {
        auto* none = new QCPItemText(lines_);
        none->setObjectName("noResults");
        none->position->setType(QCPItemPosition::ptAxisRectRatio);
        none->position->setCoords(0.5, 0.5);
        none->setText(tr("No %1 results yet:\ncheck kernels, then Run benchmark").arg(metric_->currentText()));
        none->setColor(palette().color(QPalette::PlaceholderText));
    }
    lines_->replot(QCustomPlot::rpQueuedReplot);

    // Bars at one length, one bar per kernel, labelled by name.
    const std::size_t at = barLength_->currentData().toULongLong();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto* bars = new QCPBars(bars_->xAxis, bars_->yAxis);
    bars->setBrush(QColor(38, 139, 210, 170));
    double top = 0;
    int position = 0;
    for (const auto& row : table) {
        if (row.length != at) continue;
        ++position;
        bars->addData(position, row.cells_per_s);
        ticker->addTick(position, QString::fromStdString(row.kernel));
        top = std::max(top, row.cells_per_s);
    }
    bars_->xAxis->setTicker(ticker);
    bars_->xAxis->setTickLabelRotation(position > 3 ? 30 : 0);
    bars_->xAxis->setRange(0.4, position + 0.6);
    bars_->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
    bars_->xAxis->setLabel(tr("kernel, at length %1").arg(at));
    bars_->replot(QCustomPlot::rpQueuedReplot);
}

QString KernelComparisonView::exportCsv(const QString& path) const {
    return writeFileAtomically(path, [&](QIODevice& f) {
        QTextStream out(&f);
        out << "kernel,metric,length,pairs,band,median_s,cells_per_s,distances_per_s,max_rel_error,joules_per_distance,"
               "mean_power_w,energy_note,note\n";
        auto quoted = [](const std::string& text) {
            QString q = QString::fromStdString(text);
            q.replace('"', "\"\"");
            return '"' + q + '"';
        };
        for (const auto& r : shown().table) {
            // Missing energy figures are empty fields, with the reason in energy_note.
            const bool e = r.energy.valid();
            out << QString::fromStdString(r.kernel) << ',' << QString::fromStdString(r.metric) << ',' << r.length << ','
                << r.pairs << ',' << r.band << ',' << QString::number(r.median_s, 'g', 17) << ','
                << QString::number(r.cells_per_s, 'g', 17) << ',' << QString::number(r.distances_per_s, 'g', 17) << ','
                << QString::number(r.max_rel_error, 'g', 17) << ','
                << (e ? QString::number(r.energy.joulesPerDistance(), 'g', 17) : QString()) << ','
                << (e ? QString::number(r.energy.meanPowerW(), 'g', 17) : QString()) << ','
                << quoted(e ? std::string() : r.energy.note) << ',' << quoted(r.note) << "\n";
        }
        out.flush();
        return out.status() == QTextStream::Ok;
    });
}

}  // namespace warplab::widgets
