#include "widgets/band_comparison_view.h"

#include <algorithm>
#include <cmath>

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "io/regions.h"
#include "widgets/atomic_file.h"
#include "widgets/elided_label.h"
#include "widgets/matrix_color_map.h"
#include "widgets/plot_export.h"
#include "widgets/region_style.h"

namespace warplab::widgets {
namespace {

QString bandName(const compute::spectral::FrequencyBand& b) { return QString::fromStdString(b.label()); }
QString bandEdges(const compute::spectral::FrequencyBand& b) {
    return QStringLiteral("%1–%2 Hz").arg(QString::number(b.lowHz, 'g', 4), QString::number(b.highHz, 'g', 4));
}
// Name and edges on two lines: the axis labels of the bars and the table's column headers.
QString bandHeader(const compute::spectral::FrequencyBand& b) {
    return b.name.empty() ? bandEdges(b) : bandName(b) + "\n" + bandEdges(b);
}

QString csvCell(const QString& s) {
    if (!s.contains(',') && !s.contains('"') && !s.contains('\n')) return s;
    QString q = s;
    q.replace("\"", "\"\"");
    return "\"" + q + "\"";
}

QTableWidgetItem* cell(const QString& text, const QVariant& data = {}) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    if (data.isValid()) item->setData(Qt::UserRole, data);
    return item;
}

bool inSeizure(double s, double e, const std::vector<std::pair<double, double>>& seizures) {
    for (const auto& [a, b] : seizures)
        if (s < b && e > a) return true;
    return false;
}

}  // namespace

BandComparisonView::BandComparisonView(QWidget* parent) : QWidget(parent) {
    title_ = new ElidedLabel;
    title_->setObjectName("bandComparisonTitle");
    export_ = new QPushButton(tr("Export CSV…"));
    export_->setEnabled(false);
    auto* top = new QHBoxLayout;
    top->addWidget(title_, 1);
    top->addWidget(export_);
    plot_ = new QCustomPlot;
    plot_->setObjectName("bandComparisonPlot");
    plot_->setMinimumHeight(160);
    installPlotExportMenu(plot_, "bands");
    table_ = new QTableWidget;
    table_->setObjectName("bandComparisonTable");
    table_->verticalHeader()->setVisible(false);
    table_->setSelectionBehavior(QAbstractItemView::SelectItems);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(plot_);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    connect(table_, &QTableWidget::cellActivated, this, &BandComparisonView::onActivated);
    connect(table_, &QTableWidget::cellClicked, this, &BandComparisonView::onActivated);
    connect(export_, &QPushButton::clicked, this, &BandComparisonView::askExportCsv);
    clear();
}

QString BandComparisonView::source() const { return source_; }

void BandComparisonView::clear() {
    kind_ = Kind::None;
    patterns_.clear();
    matches_.clear();
    matrices_.clear();
    best_ = -1;
    source_.clear();
    title_->setFullText(tr("No comparison yet: Analysis ▸ Per frequency band runs an analysis over the bands "
                           "chosen in the Metric panel's Compare… (under Frequency band)"));
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->plotLayout()->clear();
    plot_->plotLayout()->addElement(0, 0, new QCPAxisRect(plot_));
    plot_->setProperty(kExportTitleProperty, QString());
    plot_->replot(QCustomPlot::rpQueuedReplot);
    export_->setEnabled(false);
}

void BandComparisonView::setPatterns(std::vector<BandPatterns> results, const QString& source) {
    clear();
    kind_ = Kind::Patterns;
    patterns_ = std::move(results);
    source_ = source;
    drawPatterns();
}

void BandComparisonView::setSearch(std::vector<BandMatches> results, int channel, double rateHz, double queryLengthS,
                                   std::vector<std::pair<double, double>> seizures, double durationS, const QString& source) {
    clear();
    kind_ = Kind::Search;
    matches_ = std::move(results);
    channel_ = channel;
    rate_ = rateHz;
    queryS_ = queryLengthS;
    seizures_ = std::move(seizures);
    duration_ = durationS;
    source_ = source;
    drawSearch();
}

void BandComparisonView::setMatrices(std::vector<BandMatrix> results, const QString& source) {
    clear();
    kind_ = Kind::Matrix;
    matrices_ = std::move(results);
    source_ = source;
    drawMatrices();
}

void BandComparisonView::drawPatterns() {
    title_->setFullText(source_);
    plot_->setProperty(kExportTitleProperty, source_);
    auto* rect = plot_->axisRect();
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto* bars = new QCPBars(x, y);
    bars->setWidth(0.6);
    bars->setName(tr("best pattern quality"));
    auto* bestBars = new QCPBars(x, y);  // the best band stands out
    bestBars->setWidth(0.6);
    double bestQ = -1;
    const compute::PatternRanking* any = nullptr;
    for (int i = 0; i < int(patterns_.size()); ++i) {
        const auto& r = patterns_[std::size_t(i)];
        ticker->addTick(i, bandHeader(r.band));
        if (r.ranking && !r.ranking->ranked.empty()) {
            any = r.ranking.get();
            if (r.ranking->ranked.front().quality > bestQ) {
                bestQ = r.ranking->ranked.front().quality;
                best_ = i;
            }
        }
    }
    for (int i = 0; i < int(patterns_.size()); ++i) {
        const auto& r = patterns_[std::size_t(i)];
        if (!r.ranking || r.ranking->ranked.empty()) continue;
        (i == best_ ? bestBars : bars)->addData(i, r.ranking->ranked.front().quality);
    }
    bars->setPen(QPen(QColor(38, 110, 180)));
    bars->setBrush(QColor(38, 139, 210, 170));
    bestBars->setPen(QPen(regionColor(io::RegionKind::Seizure).darker(120)));
    bestBars->setBrush(regionColor(io::RegionKind::Seizure));
    x->setTicker(ticker);
    x->setSubTicks(false);
    x->setTickLength(0, 4);
    x->grid()->setVisible(false);
    x->setRange(-0.6, std::max(0, int(patterns_.size()) - 1) + 0.6);
    const QString quality = any ? QString::fromLatin1(compute::qualityName(any->quality).data()) : QStringLiteral("auc");
    const bool auc = quality == "auc";
    y->setLabel(tr("best quality (%1)").arg(auc ? tr("AUC; 0.5: chance") : quality));
    y->setRange(auc ? 0.4 : 0, auc ? 1.02 : std::max(0.1, bestQ * 1.15));
    if (auc) {
        auto* chance = new QCPItemStraightLine(plot_);
        chance->point1->setCoords(0, 0.5);
        chance->point2->setCoords(1, 0.5);
        chance->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    }
    for (int i = 0; i < int(patterns_.size()); ++i) {
        const auto& r = patterns_[std::size_t(i)];
        auto* label = new QCPItemText(plot_);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setFont(QFont(font().family(), 8, i == best_ ? QFont::Bold : QFont::Normal));
        if (r.ranking && !r.ranking->ranked.empty()) {
            label->position->setCoords(i, r.ranking->ranked.front().quality);
            label->setText(QString::number(r.ranking->ranked.front().quality, 'f', 3));
        } else {
            label->position->setCoords(i, y->range().lower + 0.02 * y->range().size());
            label->setText(tr("refused"));
            label->setColor(QColor(176, 0, 32));
        }
    }
    const QStringList headers{tr("band"), tr("best quality"), tr("best pattern at (s)"), tr("mean distance to ictal"),
                              tr("to interictal"), tr("patterns"), tr("note")};
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(int(patterns_.size()));
    for (int i = 0; i < int(patterns_.size()); ++i) {
        const auto& r = patterns_[std::size_t(i)];
        table_->setItem(i, 0, cell(QString::fromStdString(r.band.describe())));
        if (r.ranking && !r.ranking->ranked.empty()) {
            const auto& p = r.ranking->ranked.front();
            table_->setItem(i, 1, cell(QString::number(p.quality, 'f', 4)));
            table_->setItem(i, 2, cell(QString::number(p.startS, 'f', 2), p.startS));
            table_->setItem(i, 3, cell(QString::number(p.meanIctal, 'g', 4)));
            table_->setItem(i, 4, cell(QString::number(p.meanInterictal, 'g', 4)));
            table_->setItem(i, 5, cell(QString::number(r.ranking->patternCount)));
            table_->setItem(i, 6, cell(i == best_ ? tr("separates best") : QString()));
        } else {
            table_->setItem(i, 6, cell(r.error.isEmpty() ? tr("no pattern") : r.error));
        }
        if (i == best_)
            for (int c = 0; c < table_->columnCount(); ++c)
                if (auto* it = table_->item(i, c)) it->setFont(QFont(font().family(), font().pointSize(), QFont::Bold));
    }
    table_->resizeColumnsToContents();
    export_->setEnabled(!patterns_.empty());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void BandComparisonView::drawSearch() {
    title_->setFullText(source_);
    plot_->setProperty(kExportTitleProperty, source_);
    auto* rect = plot_->axisRect();
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const int n = int(matches_.size());
    // One time line per band, the first band on top.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < n; ++i) ticker->addTick(n - 1 - i, bandHeader(matches_[std::size_t(i)].band));
    y->setTicker(ticker);
    y->setSubTicks(false);
    y->grid()->setVisible(false);
    y->setRange(-0.6, n - 0.4);
    x->setLabel(tr("time (s)"));
    x->setRange(0, std::max(1.0, duration_));
    for (const auto& [a, b] : seizures_) {
        auto* shade = new QCPItemRect(plot_);
        shade->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        shade->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        shade->topLeft->setCoords(a, 0);
        shade->bottomRight->setCoords(std::max(b, a + duration_ / 400), 1);  // a short seizure stays visible
        QColor c = regionColor(io::RegionKind::Seizure);
        c.setAlpha(60);
        shade->setBrush(c);
        shade->setPen(QPen(regionColor(io::RegionKind::Seizure), 1));
    }
    int bestCount = -1;
    std::vector<int> inSz(std::size_t(n), 0);
    std::size_t ranks = 0;
    for (int i = 0; i < n; ++i) {
        const auto& r = matches_[std::size_t(i)];
        ranks = std::max(ranks, r.matches.size());
        auto* g = plot_->addGraph(x, y);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(20, 20, 60), QColor(38, 139, 210), 7));
        auto* first = plot_->addGraph(x, y);
        first->setLineStyle(QCPGraph::lsNone);
        first->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(20, 20, 60), QColor(255, 200, 0), 11));
        for (std::size_t k = 0; k < r.matches.size(); ++k) {
            const double s = double(r.matches[k].start) / rate_, e = double(r.matches[k].end + 1) / rate_;
            (k == 0 ? first : g)->addData((s + e) / 2, n - 1 - i);
            if (inSeizure(s, e, seizures_)) ++inSz[std::size_t(i)];
        }
        if (!r.error.isEmpty()) {
            auto* label = new QCPItemText(plot_);
            label->position->setCoords(duration_ / 2, n - 1 - i);
            label->setText(tr("refused: %1").arg(r.error));
            label->setColor(QColor(176, 0, 32));
            label->setFont(QFont(font().family(), 8));
        }
        if (r.error.isEmpty() && inSz[std::size_t(i)] > bestCount) {
            bestCount = inSz[std::size_t(i)];
            best_ = i;
        }
    }
    // Columns: one per band; rows: rank 1..k, then how many lie in a seizure.
    table_->setColumnCount(n);
    QStringList headers;
    for (const auto& r : matches_) headers << bandHeader(r.band);
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(int(ranks) + (seizures_.empty() ? 0 : 1));
    QStringList rows;
    for (std::size_t k = 0; k < ranks; ++k) rows << tr("#%1").arg(k + 1);
    if (!seizures_.empty()) rows << tr("in a seizure");
    table_->setVerticalHeaderLabels(rows);
    table_->verticalHeader()->setVisible(true);
    for (int i = 0; i < n; ++i) {
        const auto& r = matches_[std::size_t(i)];
        for (std::size_t k = 0; k < r.matches.size(); ++k) {
            const double s = double(r.matches[k].start) / rate_, e = double(r.matches[k].end + 1) / rate_;
            auto* item = cell(tr("%1 s · %2").arg(s, 0, 'f', 2).arg(r.matches[k].cost, 0, 'g', 4), QVariant::fromValue(QPointF(s, e)));
            if (inSeizure(s, e, seizures_)) item->setForeground(regionColor(io::RegionKind::Seizure).darker(130));
            item->setToolTip(tr("%1: match #%2 at %3–%4 s, cost %5%6").arg(bandName(r.band)).arg(k + 1).arg(s, 0, 'f', 2)
                                 .arg(e, 0, 'f', 2).arg(r.matches[k].cost, 0, 'g', 6)
                                 .arg(inSeizure(s, e, seizures_) ? tr(", in a seizure") : QString()));
            table_->setItem(int(k), i, item);
        }
        if (!r.error.isEmpty() && ranks > 0) table_->setItem(0, i, cell(tr("refused: %1").arg(r.error)));
        if (!seizures_.empty())
            table_->setItem(int(ranks), i, cell(tr("%1 of %2").arg(inSz[std::size_t(i)]).arg(r.matches.size())));
    }
    table_->resizeColumnsToContents();
    export_->setEnabled(n > 0);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void BandComparisonView::drawMatrices() {
    title_->setFullText(source_);
    plot_->setProperty(kExportTitleProperty, source_);
    plot_->plotLayout()->clear();
    const int n = int(matrices_.size());
    QStringList headers{tr("band"), tr("rows"), tr("mean distance"), tr("min"), tr("max"), tr("note")};
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(n);
    for (int i = 0; i < n; ++i) {
        const auto& r = matrices_[std::size_t(i)];
        auto* title = new QCPTextElement(plot_, bandHeader(r.band), QFont(font().family(), 8, QFont::Bold));
        plot_->plotLayout()->addElement(0, i, title);
        auto* rect = new QCPAxisRect(plot_);
        plot_->plotLayout()->addElement(1, i, rect);
        for (QCPAxis* a : rect->axes()) {
            a->setTickLabels(false);
            a->setTicks(false);
            a->grid()->setVisible(false);
        }
        table_->setItem(i, 0, cell(QString::fromStdString(r.band.describe())));
        if (!r.matrix || r.matrix->rows == 0) {
            table_->setItem(i, 5, cell(r.error));
            table_->item(i, 5)->setToolTip(r.error);
            auto* note = new QCPItemText(plot_);
            note->setClipAxisRect(rect);
            note->position->setAxisRect(rect);
            note->position->setType(QCPItemPosition::ptAxisRectRatio);
            note->position->setCoords(0.5, 0.5);
            note->setText(tr("refused\n(why: its row below)"));
            note->setTextAlignment(Qt::AlignCenter);
            note->setFont(QFont(font().family(), 8));
            note->setColor(QColor(176, 0, 32));
            continue;
        }
        const auto& m = *r.matrix;
        auto* map = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        map->data()->setSize(int(m.cols), int(m.rows));
        map->data()->setRange(QCPRange(0, double(m.cols) - 1), QCPRange(0, double(m.rows) - 1));
        double lo = HUGE_VAL, hi = -HUGE_VAL, sum = 0;
        std::size_t count = 0;
        for (std::size_t a = 0; a < m.rows; ++a)
            for (std::size_t b = 0; b < m.cols; ++b) {
                const double v = m.at(a, b);
                map->data()->setCell(int(b), int(m.rows - 1 - a), v);  // row 0 on top, as the matrix view
                if (std::isfinite(v) && a != b) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                    sum += v;
                    ++count;
                }
            }
        map->setGradient(QCPColorGradient(QCPColorGradient::gpThermal));
        if (count) map->setDataRange(QCPRange(lo, hi > lo ? hi : lo + 1));
        rect->axis(QCPAxis::atBottom)->setRange(-0.5, double(m.cols) - 0.5);
        rect->axis(QCPAxis::atLeft)->setRange(-0.5, double(m.rows) - 0.5);
        table_->setItem(i, 1, cell(QString::number(m.rows)));
        table_->setItem(i, 2, cell(count ? QString::number(sum / double(count), 'g', 4) : QString()));
        table_->setItem(i, 3, cell(count ? QString::number(lo, 'g', 4) : QString()));
        table_->setItem(i, 4, cell(count ? QString::number(hi, 'g', 4) : QString()));
    }
    if (n == 0) plot_->plotLayout()->addElement(0, 0, new QCPAxisRect(plot_));
    table_->resizeColumnsToContents();
    export_->setEnabled(n > 0);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void BandComparisonView::onActivated(int row, int column) {
    if (kind_ == Kind::Patterns && row >= 0 && row < int(patterns_.size())) {
        const auto& r = patterns_[std::size_t(row)];
        if (r.ranking && !r.ranking->ranked.empty())
            Q_EMIT patternActivated(row, r.ranking->ranked.front().startS, double(r.ranking->epoch) / r.ranking->rateHz);
    } else if (kind_ == Kind::Search) {
        const QTableWidgetItem* item = table_->item(row, column);
        if (!item || !item->data(Qt::UserRole).isValid()) return;
        const QPointF se = item->data(Qt::UserRole).toPointF();
        Q_EMIT matchActivated(channel_, se.x(), se.y());
    }
}

QString BandComparisonView::exportCsv(const QString& path) const {
    if (kind_ == Kind::None) return tr("%1: no comparison to export").arg(path);
    // Made in memory, then written whole or not at all (widgets/atomic_file.h).
    QString text;
    QTextStream out(&text);
    out << "# " << source_ << "\n";
    if (kind_ == Kind::Patterns) {
        out << "band,low_hz,high_hz,best_quality,best_start_s,mean_ictal,mean_interictal,patterns,error\n";
        for (const auto& r : patterns_) {
            out << csvCell(bandName(r.band)) << "," << r.band.lowHz << "," << r.band.highHz << ",";
            if (r.ranking && !r.ranking->ranked.empty()) {
                const auto& p = r.ranking->ranked.front();
                out << QString::number(p.quality, 'g', 17) << "," << QString::number(p.startS, 'g', 17) << ","
                    << QString::number(p.meanIctal, 'g', 17) << "," << QString::number(p.meanInterictal, 'g', 17) << ","
                    << r.ranking->patternCount << ",";
            } else {
                out << ",,,,,";
            }
            out << csvCell(r.error) << "\n";
        }
    } else if (kind_ == Kind::Search) {
        out << "band,low_hz,high_hz,rank,start_s,end_s,cost,in_seizure,error\n";
        for (const auto& r : matches_) {
            if (!r.error.isEmpty()) out << csvCell(bandName(r.band)) << "," << r.band.lowHz << "," << r.band.highHz << ",,,,,," << csvCell(r.error) << "\n";
            for (std::size_t k = 0; k < r.matches.size(); ++k) {
                const double s = double(r.matches[k].start) / rate_, e = double(r.matches[k].end + 1) / rate_;
                out << csvCell(bandName(r.band)) << "," << r.band.lowHz << "," << r.band.highHz << "," << k + 1 << ","
                    << QString::number(s, 'g', 17) << "," << QString::number(e, 'g', 17) << ","
                    << QString::number(r.matches[k].cost, 'g', 17) << "," << (inSeizure(s, e, seizures_) ? 1 : 0) << ",\n";
            }
        }
    } else {
        out << "band,low_hz,high_hz,row,col,row_name,col_name,distance\n";
        for (const auto& r : matrices_) {
            if (!r.matrix) continue;
            const auto& m = *r.matrix;
            for (std::size_t a = 0; a < m.rows; ++a)
                for (std::size_t b = 0; b < m.cols; ++b)
                    out << csvCell(bandName(r.band)) << "," << r.band.lowHz << "," << r.band.highHz << "," << a << "," << b << ","
                        << csvCell(a < m.rowNames.size() ? QString::fromStdString(m.rowNames[a]) : QString()) << ","
                        << csvCell(b < m.colNames.size() ? QString::fromStdString(m.colNames[b]) : QString()) << ","
                        << QString::number(m.at(a, b), 'g', 17) << "\n";
        }
    }
    out.flush();
    const QByteArray bytes = text.toUtf8();
    return writeFileAtomically(path, [&](QIODevice& device) { return device.write(bytes) == bytes.size(); });
}

void BandComparisonView::askExportCsv() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export comparison"), "bands.csv", tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    const QString err = exportCsv(path);
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Export failed"), err);
}

}  // namespace warplab::widgets
