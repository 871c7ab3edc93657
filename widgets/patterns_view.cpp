// First: io/recording.h with Qt's `signals` macro hidden.
#include "widgets/recording_access.h"

#include "widgets/patterns_view.h"

#include <algorithm>
#include <cmath>

#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QTextStream>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "compute/core/error.h"
#include "io/matrix_band.h"
#include "io/matrix_io.h"
#include "widgets/elided_label.h"
#include "widgets/atomic_file.h"
#include "widgets/plot_export.h"
#include "widgets/value_units.h"

namespace warplab::widgets {

namespace {

// Round-trip precision, as the CLI prints numbers.
QString exact(double v) { return QString::number(v, 'g', 17); }

QString clock(double s) {
    const long long whole = (long long)s;
    return QString("%1:%2:%3")
        .arg(whole / 3600, 2, 10, QChar('0'))
        .arg((whole / 60) % 60, 2, 10, QChar('0'))
        .arg(s - double(whole / 60 * 60), 6, 'f', 3, QChar('0'));
}

// The power of ten (a multiple of 3) the distances are counted in: 0 below 10⁴.
int distancePower(double big) { return big >= 1e4 && std::isfinite(big) ? 3 * int(std::floor(std::log10(big) / 3)) : 0; }

enum Column { ColRank, ColQuality, ColPattern, ColStart, ColClock, ColCount };

}  // namespace

PatternsView::PatternsView(QWidget* parent) : QWidget(parent) {
    summary_ = new QLabel(tr("No pattern discovery run yet."), this);
    summary_->setWordWrap(true);

    table_ = new QTableWidget(0, ColCount, this);
    table_->setHorizontalHeaderLabels({tr("#"), tr("quality"), tr("pattern"), tr("start\n(s)"), tr("h:m:s")});
    table_->horizontalHeaderItem(ColRank)->setToolTip(tr("rank: 1 is the pattern of the best quality"));
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setStretchLastSection(true);
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = table_->selectionModel()->selectedRows();
        selected_ = rows.isEmpty() ? -1 : rows.front().row();
        showSelected();
    });

    signalPlot_ = new QCustomPlot(this);
    signalPlot_->setMinimumHeight(150);
    signalPlot_->xAxis->setLabel(tr("time (s)"));
    signalPlot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    installPlotExportMenu(signalPlot_, QStringLiteral("pattern"));

    histogramPlot_ = new QCustomPlot(this);
    histogramPlot_->setMinimumHeight(150);
    histogramPlot_->yAxis->setLabel(tr("epochs"));
    // The legend in a row of its own above the bars: inside the axes it covered them.
    histogramPlot_->legend->setVisible(true);
    histogramPlot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    histogramPlot_->legend->setBorderPen(Qt::NoPen);
    histogramPlot_->legend->setMargins(QMargins(2, 0, 2, 0));
    histogramPlot_->plotLayout()->insertRow(0);
    histogramPlot_->plotLayout()->addElement(0, 0, histogramPlot_->legend);  // moves it out of the axis rect's inset
    histogramPlot_->plotLayout()->setRowStretchFactor(0, 0.001);
    // Distances run to 6+ digits: a few ticks in 3 significant figures keep the labels apart in
    // a dock about 500 px wide.
    histogramPlot_->xAxis->ticker()->setTickCount(4);
    histogramPlot_->xAxis->setNumberFormat("g");
    histogramPlot_->xAxis->setNumberPrecision(3);
    histogramPlot_->yAxis->ticker()->setTickCount(4);
    installPlotExportMenu(histogramPlot_, QStringLiteral("pattern-distances"));

    nearest_ = new QListWidget(this);
    // One line per epoch (fillNearest keeps them short); a narrower dock cuts with "…", the
    // tooltip has the whole entry.
    nearest_->setWordWrap(false);
    nearest_->setTextElideMode(Qt::ElideRight);
    nearest_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    nearest_->setToolTip(tr("Epochs nearest to the selected pattern; double-click or Enter to jump there"));
    connect(nearest_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit epochActivated(item->data(Qt::UserRole).toDouble());
    });

    exportRanking_ = new QPushButton(tr("Export ranking (CSV)…"), this);
    exportMatrix_ = new QPushButton(tr("Export matrix…"), this);
    connect(exportRanking_, &QPushButton::clicked, this, &PatternsView::askExportRanking);
    connect(exportMatrix_, &QPushButton::clicked, this, &PatternsView::askExportMatrix);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(summary_);
    leftLayout->addWidget(table_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(exportRanking_);
    buttons->addWidget(exportMatrix_);
    leftLayout->addLayout(buttons);

    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(signalPlot_);
    right->addWidget(histogramPlot_);
    auto* nearestBox = new QWidget(this);
    auto* nearestLayout = new QVBoxLayout(nearestBox);
    nearestLayout->setContentsMargins(0, 0, 0, 0);
    nearestHeading_ = new QLabel(tr("Nearest epochs"), nearestBox);
    nearestHeading_->setObjectName("nearestHeading");
    nearestHeading_->setWordWrap(true);
    nearestLayout->addWidget(nearestHeading_);
    nearestLayout->addWidget(nearest_);
    right->addWidget(nearestBox);

    // Narrow minimums (the plots' own would be their legend and axes at full size), so that
    // the table can take the width it needs (fitTable).
    for (QWidget* w : {static_cast<QWidget*>(signalPlot_), static_cast<QWidget*>(histogramPlot_), nearestBox}) w->setMinimumWidth(160);
    auto* split = split_ = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    // The table's five columns need about half the dock at 1280 x 800 to show without
    // sideways scrolling; the plots take the other half.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    source_ = new ElidedLabel(this);
    source_->setObjectName("resultSource");
    source_->setMaxLines(2);  // the metric and band come last in it: shown, not cut
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(source_);
    layout->addWidget(split, 1);
    clear();
}

PatternsView::~PatternsView() = default;

void PatternsView::setSource(const QString& text) {
    source_->setFullText(text);
    signalPlot_->setProperty(kExportTitleProperty, text);
    histogramPlot_->setProperty(kExportTitleProperty, text);
}
QString PatternsView::source() const { return source_->fullText(); }

void PatternsView::setClockStart(const QDateTime& start) {
    clockStart_ = start;
    table_->horizontalHeaderItem(ColClock)->setText(start.isValid() ? tr("clock") : tr("h:m:s"));
}

// "µV²", or "×10⁶ µV²" when the distances are counted in millions.
QString PatternsView::distanceUnitText() const {
    QString unit = unit_ + QString::fromUtf8("\u00b2");
    if (power_ == 0) return unit;
    static const char16_t* digits = u"\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
    QString sup;
    for (QChar c : QString::number(power_)) sup += c == '-' ? QChar(0x207b) : QChar(digits[c.digitValue()]);
    // Concatenated, not arg(): QString::arg would read "%1²" as a two-digit placeholder.
    return QString::fromUtf8("\u00d710") + sup + ' ' + unit;
}

QString PatternsView::clockText(double s) const {
    if (!clockStart_.isValid()) return clock(s);
    return clockStart_.addMSecs(qint64(std::llround(s * 1000))).toString("hh:mm:ss.zzz");
}

void PatternsView::clear() {
    ranking_.reset();
    fetch_ = nullptr;
    selected_ = -1;
    table_->setRowCount(0);
    nearest_->clear();
    nearestHeading_->setText(tr("Nearest epochs"));
    power_ = 0;
    signalPlot_->clearPlottables();
    signalPlot_->clearItems();
    signalPlot_->replot();
    histogramPlot_->clearPlottables();
    histogramPlot_->replot();
    summary_->setText(tr("No pattern discovery run yet."));
    exportRanking_->setEnabled(false);
    exportMatrix_->setEnabled(false);
}

// The table's columns shown whole where the dock has the room (no sideways scrolling), the
// plots keeping the rest.
void PatternsView::fitTable() {
    // Once the new sizes are laid out and the table polished (its columns widen when shown).
    QTimer::singleShot(0, this, [this] {
        table_->resizeColumnsToContents();
        fitTableNow();
    });
}

void PatternsView::fitTableNow() {
    const QList<int> sizes = split_->sizes();
    if (sizes.size() != 2) return;
    // The columns at their contents' width (the last one's stretched width says nothing of
    // what it needs).
    QHeaderView* header = table_->horizontalHeader();
    header->setStretchLastSection(false);
    table_->resizeColumnsToContents();
    const int columns = header->length();
    header->setStretchLastSection(true);
    const int need = columns + table_->verticalScrollBar()->sizeHint().width() + 2 * table_->frameWidth() + 2;
    const int total = sizes[0] + sizes[1];
    if (sizes[0] >= need || total <= 0) return;
    const int left = std::min(need, total * 3 / 5);
    split_->setSizes({left, total - left});
}

void PatternsView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (table_->rowCount() > 0) fitTable();
}

void PatternsView::setRanking(std::shared_ptr<const compute::PatternRanking> ranking, SampleFetcher fetch,
                              const QString& unit) {
    clear();
    if (!ranking) return;
    ranking_ = std::move(ranking);
    fetch_ = std::move(fetch);
    unit_ = displayUnit(unit);  // "µV", as everywhere else
    const auto& r = *ranking_;
    summary_->setText(tr("%1: %2 patterns × %3 epochs (%4 ictal), epoch e = %5 samples, stride s = %6 samples, band w = %7 samples, quality %8, kernel %9, %10 s")
                          .arg(QString::fromStdString(r.channel))
                          .arg(r.patternCount)
                          .arg(r.epochCount)
                          .arg(r.ictalCount)
                          .arg(r.epoch)
                          .arg(r.stride)
                          .arg(r.band)
                          .arg(QString::fromUtf8(compute::qualityName(r.quality).data()))
                          .arg(QString::fromStdString(r.kernel))
                          .arg(r.seconds, 0, 'f', 2));
    signalPlot_->yAxis->setLabel(tr("amplitude (%1)").arg(unit_));
    // Short headers: the table shares a dock of about 500 px with the plots.
    table_->horizontalHeaderItem(ColQuality)->setText(r.quality == compute::Quality::Auc ? tr("AUC\n(unitless)") : tr("gain\n(bits)"));
    table_->horizontalHeaderItem(ColQuality)->setToolTip(r.quality == compute::Quality::Auc
                                                             ? tr("quality: area under the ROC curve of the pattern's distances, unitless")
                                                             : tr("quality: information gain of the best split of the distances, bits"));

    table_->setRowCount(int(r.ranked.size()));
    for (int k = 0; k < int(r.ranked.size()); ++k) {
        const auto& p = r.ranked[std::size_t(k)];
        auto set = [&](int col, const QString& text, double sortValue) {
            auto* item = new QTableWidgetItem(text);
            item->setData(Qt::UserRole, sortValue);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(k, col, item);
        };
        set(ColRank, QString::number(k + 1), k + 1);
        set(ColQuality, QString::number(p.quality, 'f', 4), p.quality);
        set(ColPattern, QString::number(p.index), double(p.index));
        set(ColStart, QString::number(p.startS, 'f', 3), p.startS);
        // Whole seconds (the "start (s)" column has the milliseconds), so that the table fits
        // its share of the dock at 1280 x 800 without sideways scrolling.
        set(ColClock, clockText(p.startS).section('.', 0, 0), p.startS);
        table_->item(k, ColClock)->setToolTip(clockText(p.startS));
    }
    table_->resizeColumnsToContents();
    fitTable();
    exportRanking_->setEnabled(true);
    exportMatrix_->setEnabled(r.matrix.rows > 0);
    exportMatrix_->setToolTip(r.matrix.rows > 0 ? QString()
                                                : tr("The matrix was not kept for this run (too large); "
                                                     "use warplab-cli patterns --dm-out to stream it to a file."));
    if (!r.ranked.empty()) selectRank(0);
}

void PatternsView::setRanking(std::shared_ptr<const compute::PatternRanking> ranking,
                              std::shared_ptr<const io::Recording> recording, int signal) {
    QString unit;
    if (recording)
        for (const auto& s : signalList(*recording))
            if (s.index == signal) unit = QString::fromStdString(s.unit);
    SampleFetcher fetch;
    if (recording)
        fetch = [recording, signal](long long start, long long count) { return recording->read(signal, start, count); };
    setRanking(std::move(ranking), std::move(fetch), unit.isEmpty() ? tr("physical units") : unit);
}

void PatternsView::selectRank(int rank) {
    if (!ranking_ || rank < 0 || rank >= int(ranking_->ranked.size())) {
        table_->clearSelection();
        return;
    }
    table_->selectRow(rank);  // itemSelectionChanged shows it
}

void PatternsView::showSelected() {
    if (!ranking_ || selected_ < 0 || selected_ >= int(ranking_->ranked.size())) return;
    const auto& p = ranking_->ranked[std::size_t(selected_)];
    drawExcerpt(p);
    drawHistogram(p);
    fillNearest(p);
    emit patternSelected(p.startS, double(ranking_->epoch) / ranking_->rateHz);
}

void PatternsView::drawExcerpt(const compute::PatternScore& p) {
    signalPlot_->clearPlottables();
    signalPlot_->clearItems();
    const auto& r = *ranking_;
    const long long e = r.epoch;
    if (fetch_) {
        // One epoch of context on each side of the pattern's first sample.
        const long long first = std::max(0LL, p.recordingSample - e);
        const long long last = std::min(r.sampleCount, p.recordingSample + 2 * e);
        const std::vector<float> x = fetch_(first, last - first);
        QVector<double> t, v;
        for (std::size_t k = 0; k < x.size(); ++k) {
            t.push_back(double(first + (long long)k) / r.rateHz);
            v.push_back(x[k]);
        }
        auto* context = signalPlot_->addGraph();
        context->setName(tr("signal"));
        context->setPen(QPen(QColor(120, 120, 120)));
        context->setData(t, v, true);
        // The pattern over its place. A pattern that spans the end of one seizure and the
        // start of the next has two places; each piece is drawn where it lies.
        auto* pattern = signalPlot_->addGraph();
        pattern->setName(tr("pattern"));
        pattern->setPen(QPen(QColor(200, 30, 30), 2));
        pattern->setLineStyle(QCPGraph::lsLine);
        QVector<double> pt, pv;
        for (long long q = p.querySample; q < p.querySample + e; ++q) {
            const long long at = compute::queryToRecordingSample(r.seizures, q);
            if (at < first || at >= last) continue;
            if (!pt.isEmpty() && at != (long long)std::llround(pt.back() * r.rateHz) + 1) {
                pt.push_back(qQNaN());  // a gap between two pieces
                pv.push_back(qQNaN());
            }
            pt.push_back(double(at) / r.rateHz);
            pv.push_back(x[std::size_t(at - first)]);
        }
        pattern->setData(pt, pv, true);
        signalPlot_->rescaleAxes();
    }
    signalPlot_->replot();
}

void PatternsView::drawHistogram(const compute::PatternScore& p) {
    histogramPlot_->clearPlottables();
    const auto& h = p.histogram;
    // Distances run to millions of µV²: the axis counts in a power of ten that its label names
    // ("7.5  10  12.5" and "×10⁶ µV²"), where "7.5e+06" ran into its neighbour. The title is
    // short enough for a plot about 200 px wide (the view's first line names the metric).
    power_ = distancePower(std::max(std::abs(h.lo), std::abs(h.hi)));
    const double scale = std::pow(10.0, -power_);
    histogramPlot_->xAxis->setLabel(tr("distance") + QStringLiteral(" (") + distanceUnitText() + ')');
    const double width = (h.binWidth() > 0 ? h.binWidth() : 1.0) * scale;
    const double lo = h.lo * scale, hi = h.hi * scale;
    QVector<double> keys, ictal, inter;
    double top = 0;
    for (std::size_t b = 0; b < h.ictal.size(); ++b) {
        keys.push_back(lo + (double(b) + 0.5) * width);
        ictal.push_back(double(h.ictal[b]));
        inter.push_back(double(h.interictal[b]));
        top = std::max({top, ictal.back(), inter.back()});
    }
    auto* barsInter = new QCPBars(histogramPlot_->xAxis, histogramPlot_->yAxis);
    barsInter->setName(tr("interictal"));  // the axis says "epochs"; short for a narrow legend row
    barsInter->setWidth(width);
    barsInter->setPen(QPen(QColor(40, 90, 180)));
    barsInter->setBrush(QColor(40, 90, 180, 110));
    barsInter->setData(keys, inter, true);
    auto* barsIctal = new QCPBars(histogramPlot_->xAxis, histogramPlot_->yAxis);
    barsIctal->setName(tr("ictal"));
    barsIctal->setWidth(width);
    barsIctal->setPen(QPen(QColor(200, 30, 30)));
    barsIctal->setBrush(QColor(200, 30, 30, 110));
    barsIctal->setData(keys, ictal, true);
    histogramPlot_->xAxis->setRange(lo - width, hi + width);
    histogramPlot_->yAxis->setRange(0, std::max(1.0, top * 1.1));
    histogramPlot_->replot();
}

void PatternsView::fillNearest(const compute::PatternScore& p) {
    nearest_->clear();
    // One format for every entry, short enough for the list's share of the dock at 1280 x 800
    // (about 210 px): the clock to the second (as the table), the epoch's number, the distance
    // in the histogram's power of ten with two decimals, the kind; the heading names them and
    // the unit, and each entry's tooltip says it all in full.
    const double scale = std::pow(10.0, -power_);
    nearestHeading_->setText(tr("Nearest epochs: time · #epoch · distance (%1) · kind").arg(distanceUnitText()));
    for (const auto& n : p.nearest) {
        const QString kind = n.ictal ? tr("ictal") : tr("interictal");
        auto* item = new QListWidgetItem(tr("%1 · #%2 · %3 · %4")
                                             .arg(clockText(n.startS).section('.', 0, 0))
                                             .arg(n.epoch)
                                             .arg(n.distance * scale, 0, 'f', 2)
                                             .arg(kind),
                                         nearest_);
        item->setToolTip(tr("%1 (%2 s from the start), epoch %3, cdtw distance %4 %5, %6")
                             .arg(clockText(n.startS)).arg(n.startS, 0, 'f', 3).arg(n.epoch).arg(n.distance, 0, 'g', 8)
                             .arg(unit_ + QString::fromUtf8("\u00b2")).arg(kind));
        item->setData(Qt::UserRole, n.startS);
        if (n.ictal) item->setForeground(QColor(200, 30, 30));
    }
}

QString PatternsView::exportRankingCsv(const QString& path) const {
    if (!ranking_) return tr("There is no ranking to export.");
    return writeFileAtomically(path, [&](QIODevice& f) {
        QTextStream out(&f);
        const QString band = freqBand_ ? QString::fromStdString(freqBand_->key()) + ',' : QString();
        out << (freqBand_ ? "band," : "") << "rank,quality,pattern_index,start_seconds\n";
        for (std::size_t k = 0; k < ranking_->ranked.size(); ++k) {
            const auto& p = ranking_->ranked[k];
            out << band << k + 1 << ',' << exact(p.quality) << ',' << p.index << ',' << exact(p.startS) << '\n';
        }
        out.flush();
        return out.status() == QTextStream::Ok;
    });
}

QString PatternsView::exportMatrix(const QString& path) const {
    if (!ranking_ || ranking_->matrix.rows == 0)
        return tr("The matrix was not kept for this run; use warplab-cli patterns --dm-out to stream it to a file.");
    try {
        io::writeMatrix(path.toStdString(), ranking_->matrix);
        if (freqBand_)  // the band goes with the file (io/matrix_band.h)
            io::writeMatrixBand(path.toStdString(), {*freqBand_, compute::spectral::kDefaultBandOrder}, ranking_->matrix.params,
                                ranking_->matrix.rows, ranking_->matrix.cols);
    } catch (const compute::EngineError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

void PatternsView::askExportRanking() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export pattern ranking"), QStringLiteral("patterns.csv"),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    const QString error = exportRankingCsv(path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Export ranking"), error);
}

void PatternsView::askExportMatrix() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export patterns × epochs matrix"),
                                                      QStringLiteral("patterns-matrix.npy"),
                                                      tr("NumPy (*.npy);;HDF5 (*.h5);;CSV (*.csv)"));
    if (path.isEmpty()) return;
    const QString error = exportMatrix(path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Export matrix"), error);
}

}  // namespace warplab::widgets
