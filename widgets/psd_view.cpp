#include "widgets/psd_view.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTextStream>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "io/regions.h"
#include "widgets/atomic_file.h"
#include "widgets/elided_label.h"
#include "widgets/plot_export.h"
#include "widgets/region_style.h"

namespace warplab::widgets {
namespace {

// Curves after the first two (a kind and the rest) get these.
const QColor kOtherColors[] = {QColor(38, 139, 210), QColor(133, 153, 0), QColor(211, 54, 130), QColor(108, 113, 196)};

QColor curveColor(const QString& label, int index) {
    const QString seizure = regionKindLabel(io::RegionKind::Seizure).toLower();
    if (label.toLower().startsWith(seizure)) return regionColor(io::RegionKind::Seizure);
    if (label.toLower().startsWith(regionKindLabel(io::RegionKind::Query).toLower())) return regionColor(io::RegionKind::Query);
    if (label.toLower().startsWith(regionKindLabel(io::RegionKind::Reference).toLower())) return regionColor(io::RegionKind::Reference);
    if (index == 0 || label.startsWith(QObject::tr("rest"))) return QColor(40, 40, 60);
    return kOtherColors[std::size_t(index) % std::size(kOtherColors)];
}

// CSV text cells: quoted when they hold a separator, a quote or a line break.
QString csvCell(const QString& s) {
    if (!s.contains(',') && !s.contains('"') && !s.contains('\n')) return s;
    QString q = s;
    q.replace("\"", "\"\"");
    return "\"" + q + "\"";
}

}  // namespace

PsdView::PsdView(QWidget* parent) : QWidget(parent) {
    sourceBox_ = new QComboBox;
    sourceBox_->setObjectName("psdSource");
    sourceBox_->addItem(tr("visible window"), int(Source::VisibleWindow));
    sourceBox_->addItem(tr("selected region"), int(Source::SelectedRegion));
    sourceBox_->addItem(tr("regions of a kind vs the rest"), int(Source::KindVsRest));
    sourceBox_->setToolTip(tr("What the spectrum is of: the current channel in the visible window, in the selected "
                              "region, or in all regions of one kind against the rest of the channel"));
    kindBox_ = new QComboBox;
    kindBox_->setObjectName("psdKind");
    for (auto k : {io::RegionKind::Seizure, io::RegionKind::Query, io::RegionKind::Reference})
        kindBox_->addItem(regionKindLabel(k), int(k));
    logFreq_ = new QCheckBox(tr("log Hz"));
    logFreq_->setToolTip(tr("Logarithmic frequency axis (power is always on a log axis)"));
    compute_ = new QPushButton(tr("Compute"));
    compute_->setObjectName("psdCompute");
    exportCsv_ = new QPushButton(tr("Export CSV…"));
    exportCsv_->setEnabled(false);

    // Two short rows: one long row made the dock, and with it the window, wider than a
    // 1280-pixel screen.
    for (QComboBox* box : {sourceBox_, kindBox_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(box == sourceBox_ ? 14 : 8);
    }
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Spectrum of")));
    bar->addWidget(sourceBox_, 1);
    bar->addWidget(kindBox_);
    auto* actions = new QHBoxLayout;
    actions->addWidget(logFreq_);
    actions->addStretch(1);
    actions->addWidget(compute_);
    actions->addWidget(exportCsv_);
    sourceLabel_ = new ElidedLabel;
    sourceLabel_->setObjectName("psdTitle");

    plot_ = new QCustomPlot;
    plot_->setMinimumHeight(160);
    plot_->xAxis->setLabel(tr("frequency (Hz)"));
    plot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    plot_->yAxis->setNumberFormat("eb");
    plot_->yAxis->setNumberPrecision(0);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->legend->setBrush(QColor(255, 255, 255, 210));
    // Bottom left: power falls with frequency, so that corner is empty and the band names at
    // the top stay readable.
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
    installPlotExportMenu(plot_, "spectrum");

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addLayout(actions);
    layout->addWidget(sourceLabel_);
    layout->addWidget(plot_, 1);

    // The last choice comes back at the next start (a user comparing seizures keeps doing so).
    QSettings settings;
    sourceBox_->setCurrentIndex(std::max(0, sourceBox_->findData(settings.value("spectrum/source", 0).toInt())));
    kindBox_->setCurrentIndex(std::max(0, kindBox_->findData(settings.value("spectrum/kind", int(io::RegionKind::Seizure)).toInt())));
    logFreq_->setChecked(settings.value("spectrum/logFrequency", true).toBool());
    const auto refreshKind = [this] { kindBox_->setEnabled(source() == Source::KindVsRest); };
    connect(sourceBox_, &QComboBox::currentIndexChanged, this, [this, refreshKind] {
        refreshKind();
        QSettings().setValue("spectrum/source", sourceBox_->currentData().toInt());
    });
    connect(kindBox_, &QComboBox::currentIndexChanged, this, [this] { QSettings().setValue("spectrum/kind", kindBox_->currentData().toInt()); });
    refreshKind();
    connect(compute_, &QPushButton::clicked, this, &PsdView::computeRequested);
    // Log frequency by default: the five EEG bands then get room of their own side by side.
    connect(logFreq_, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue("spectrum/logFrequency", on);
        redraw();
    });
    connect(exportCsv_, &QPushButton::clicked, this, &PsdView::askExportCsv);
    redraw();
}

PsdView::Source PsdView::source() const { return Source(sourceBox_->currentData().toInt()); }
int PsdView::regionKind() const { return kindBox_->currentData().toInt(); }
bool PsdView::logFrequency() const { return logFreq_->isChecked(); }
void PsdView::setLogFrequency(bool on) { logFreq_->setChecked(on); }

void PsdView::setSpectra(std::vector<PsdCurve> curves, const QString& unit, const QString& source, const QString& parameters) {
    curves_ = std::move(curves);
    unit_ = unit;
    source_ = source;
    parameters_ = parameters;
    exportCsv_->setEnabled(!curves_.empty());
    redraw();
}

void PsdView::setBands(std::vector<PsdBandMark> bands) {
    bands_ = std::move(bands);
    redraw();
}

void PsdView::clear() { setSpectra({}, unit_, {}, {}); }

QString PsdView::title() const {
    if (source_.isEmpty()) return {};
    return parameters_.isEmpty() ? source_ : tr("%1 · %2").arg(source_, parameters_);
}

void PsdView::redraw() {
    plot_->clearGraphs();
    plot_->clearItems();
    const QString powerUnit = (unit_.isEmpty() ? tr("unit") : unit_) + QStringLiteral("²/Hz");  // not arg(): "%1²" reads as a two-digit placeholder
    plot_->yAxis->setLabel(tr("power spectral density (%1)").arg(powerUnit));
    sourceLabel_->setFullText(curves_.empty() ? tr("No spectrum yet: choose what of and press Compute "
                                                    "(Analysis ▸ Power spectrum)")
                                              : title());
    plot_->setProperty(kExportTitleProperty, title());
    const bool logF = logFreq_->isChecked();
    plot_->xAxis->setScaleType(logF ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logF) plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    double fMax = 0, pMin = HUGE_VAL, pMax = 0, fMinPos = HUGE_VAL;
    for (int i = 0; i < int(curves_.size()); ++i) {
        const PsdCurve& c = curves_[std::size_t(i)];
        auto* g = plot_->addGraph();
        g->setName(c.label);
        g->setPen(QPen(curveColor(c.label, i), 1.6));
        QVector<double> f, p;
        for (std::size_t k = 0; k < c.freqs.size() && k < c.power.size(); ++k) {
            // The DC bin has no place on a log frequency axis, and zero power none on a log power axis.
            if (!(c.power[k] > 0) || !std::isfinite(c.power[k]) || (logF && !(c.freqs[k] > 0))) continue;
            f << c.freqs[k];
            p << c.power[k];
            fMax = std::max(fMax, c.freqs[k]);
            if (c.freqs[k] > 0) fMinPos = std::min(fMinPos, c.freqs[k]);
            pMin = std::min(pMin, c.power[k]);
            pMax = std::max(pMax, c.power[k]);
        }
        g->setData(f, p, true);
    }
    if (fMax > 0) {
        plot_->xAxis->setRange(logF ? fMinPos : 0, fMax);
        plot_->yAxis->setRange(pMin / 1.5, pMax * 3);  // room above for the band names
    } else {
        plot_->xAxis->setRange(logF ? 0.5 : 0, 128);
        plot_->yAxis->setRange(1e-3, 1e3);
    }
    // Band edges: dashed lines; the chosen band shaded; the names at the top.
    for (const PsdBandMark& b : bands_) {
        if (fMax > 0 && b.lowHz >= fMax) continue;
        const QColor edge = b.chosen ? QColor(200, 120, 0) : QColor(150, 150, 150);
        if (b.chosen) {
            auto* shade = new QCPItemRect(plot_);
            shade->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
            shade->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
            shade->topLeft->setCoords(b.lowHz, 0);
            shade->bottomRight->setCoords(fMax > 0 ? std::min(b.highHz, fMax) : b.highHz, 1);
            shade->setBrush(QColor(255, 200, 80, 50));
            shade->setPen(Qt::NoPen);
            shade->setLayer("background");
        }
        for (double f : {b.lowHz, b.highHz}) {
            if (logF && !(f > 0)) continue;
            auto* line = new QCPItemStraightLine(plot_);
            line->point1->setCoords(f, 1);
            line->point2->setCoords(f, 2);
            line->setPen(QPen(edge, b.chosen ? 1.5 : 1, Qt::DashLine));
        }
        auto* name = new QCPItemText(plot_);
        name->position->setTypeX(QCPItemPosition::ptPlotCoords);
        name->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        const double mid = logF && b.lowHz > 0 ? std::sqrt(b.lowHz * b.highHz) : (b.lowHz + b.highHz) / 2;
        name->position->setCoords(fMax > 0 ? std::min(mid, (b.lowHz + fMax) / 2) : mid, 0.01);
        name->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
        name->setText(b.name);
        name->setFont(QFont(font().family(), 8, b.chosen ? QFont::Bold : QFont::Normal));
        name->setColor(b.chosen ? edge.darker(120) : QColor(110, 110, 110));
    }
    plot_->legend->setVisible(!curves_.empty());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString PsdView::exportCsv(const QString& path) const {
    if (curves_.empty()) return tr("%1: no spectrum to export").arg(path);
    // Made in memory, then written whole or not at all (widgets/atomic_file.h).
    QString text;
    QTextStream out(&text);
    out << "# " << source_ << "\n";
    if (!parameters_.isEmpty()) out << "# " << parameters_ << "\n";
    out << "# power spectral density in " << (unit_.isEmpty() ? QStringLiteral("unit") : unit_) << "^2/Hz\n";
    for (const PsdBandMark& b : bands_)
        if (b.chosen) out << "# band " << b.name << ": " << b.lowHz << "-" << b.highHz << " Hz\n";
    out << "frequency_hz";
    for (const PsdCurve& c : curves_) out << "," << csvCell(c.label);
    out << "\n";
    // Curves of one estimate share their frequencies; a curve lacking a row leaves it empty.
    const PsdCurve& first = *std::max_element(curves_.begin(), curves_.end(),
                                              [](const PsdCurve& a, const PsdCurve& b) { return a.freqs.size() < b.freqs.size(); });
    for (std::size_t k = 0; k < first.freqs.size(); ++k) {
        out << QString::number(first.freqs[k], 'g', 17);
        for (const PsdCurve& c : curves_) {
            out << ",";
            if (k < c.power.size() && k < c.freqs.size() && c.freqs[k] == first.freqs[k]) out << QString::number(c.power[k], 'g', 17);
        }
        out << "\n";
    }
    out.flush();
    const QByteArray bytes = text.toUtf8();
    return writeFileAtomically(path, [&](QIODevice& device) { return device.write(bytes) == bytes.size(); });
}

void PsdView::askExportCsv() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export spectrum"), "spectrum.csv", tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    const QString err = exportCsv(path);
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Export failed"), err);
}

}  // namespace warplab::widgets
