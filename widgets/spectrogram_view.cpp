#include "widgets/spectrogram_view.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QTextStream>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/atomic_file.h"
#include "widgets/plot_export.h"
#include "widgets/region_style.h"

namespace warplab::widgets {
namespace {

// A perceptually even dark-blue-to-yellow scale (the look of viridis, our own stops).
QCPColorGradient powerGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(68, 1, 84));
    g.setColorStopAt(0.25, QColor(59, 82, 139));
    g.setColorStopAt(0.5, QColor(33, 145, 140));
    g.setColorStopAt(0.75, QColor(94, 201, 98));
    g.setColorStopAt(1.0, QColor(253, 231, 37));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    return g;
}

}  // namespace

SpectrogramView::SpectrogramView(QWidget* parent)
    : QWidget(parent), cache_(std::make_unique<compute::spectral::SpectrogramCache>(std::size_t(128) << 20)) {
    maxFreq_ = new QComboBox;
    maxFreq_->setObjectName("spectrogramMaxFrequency");
    for (int f : {30, 50, 80}) maxFreq_->addItem(tr("0–%1 Hz").arg(f), f);
    maxFreq_->addItem(tr("0–Nyquist"), 0);
    maxFreq_->setCurrentIndex(2);  // through gamma
    maxFreq_->setFocusPolicy(Qt::NoFocus);
    readout_ = new QLabel;
    readout_->setObjectName("spectrogramReadout");
    message_ = new QLabel;
    message_->setObjectName("spectrogramMessage");
    message_->setStyleSheet("QLabel { color: #8a3b00; }");
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(new QLabel(tr("Spectrogram")));
    bar->addWidget(maxFreq_);
    bar->addWidget(message_, 1);
    bar->addWidget(readout_);

    plot_ = new QCustomPlot;
    plot_->setObjectName("spectrogramPlot");
    plot_->setMinimumHeight(120);
    plot_->setInteractions(QCP::Interactions());
    plot_->yAxis->setLabel(tr("Hz"));
    plot_->xAxis->setTickLabels(false);  // the traces above carry the time axis
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);
    plot_->yAxis->setTickLabelFont(QFont(font().family(), 8));
    // The colour bar is a thin strip above the map: beside it, it would shift the map's right
    // edge away from the traces' right edge.
    scale_ = new QCPColorScale(plot_);
    scale_->setType(QCPAxis::atTop);
    scale_->setBarWidth(7);
    scale_->setDataScaleType(QCPAxis::stLogarithmic);
    scale_->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    scale_->axis()->setNumberFormat("eb");
    scale_->axis()->setNumberPrecision(0);
    scale_->axis()->setTickLabelFont(QFont(font().family(), 7));
    scale_->axis()->setLabelFont(QFont(font().family(), 8));
    scale_->setGradient(powerGradient());
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, scale_);
    plot_->plotLayout()->setRowStretchFactor(0, 0.01);
    auto* group = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    scale_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    installPlotExportMenu(plot_, "spectrogram", [this](const QString& path) { return exportCsv(path); });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 0, 2, 2);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    connect(maxFreq_, &QComboBox::activated, this, [this] { redraw(); });
    scale_->setVisible(false);
    plot_->yAxis->setRange(0, 80);
    showMessage(tr("open a recording"));
}

SpectrogramView::~SpectrogramView() = default;

void SpectrogramView::setChannel(int channel, const QString& name, double rateHz, long long samples, const QString& unit,
                                 const std::string& key, Reader read) {
    channel_ = channel;
    channelName_ = name;
    rate_ = rateHz;
    samples_ = samples;
    unit_ = unit;
    key_ = key;
    read_ = std::move(read);
    redraw();
}

void SpectrogramView::clearChannel() {
    channel_ = -1;
    read_ = {};
    cache_->clear();
    redraw();
}

void SpectrogramView::setWindow(double startS, double lengthS) {
    start_ = startS;
    length_ = lengthS;
    redraw();
}

void SpectrogramView::setRegions(const std::vector<io::Region>& regions) {
    regions_ = regions;
    drawOverlays();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SpectrogramView::setBandEdges(double lowHz, double highHz) {
    bandLow_ = lowHz;
    bandHigh_ = highHz;
    drawOverlays();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SpectrogramView::setCursorTime(double t) {
    cursor_ = t;
    drawOverlays();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

double SpectrogramView::maxFrequency() const {
    const int chosen = maxFreq_->currentData().toInt();
    const double nyquist = rate_ / 2;
    return chosen > 0 && chosen < nyquist ? chosen : nyquist;
}

compute::spectral::SpectrogramOptions SpectrogramView::optionsFor(double rateHz, double lengthS) {
    // About one second per segment (1 Hz bins), a power of two; a hop that gives some 600
    // columns per window (finer is more columns than the screen has pixels), at least 1/16 of
    // a segment.
    compute::spectral::SpectrogramOptions o;
    std::size_t segment = 16;
    while (double(segment) < rateHz && segment < (std::size_t(1) << 14)) segment *= 2;
    const double perWindow = lengthS * rateHz / 600.0;
    std::size_t hop = 1;
    while (double(hop * 2) <= perWindow) hop *= 2;
    o.segmentLength = segment;
    o.hop = std::clamp(hop, std::max<std::size_t>(1, segment / 16), segment);
    return o;
}

void SpectrogramView::showMessage(const QString& text) {
    message_->setText(text);
    message_->setToolTip(text);
}

QString SpectrogramView::message() const { return message_->text(); }

void SpectrogramView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    realign();
    if (stale_) redraw();
}

void SpectrogramView::redraw() {
    if (isHidden()) {
        stale_ = true;
        return;
    }
    stale_ = false;
    const auto began = std::chrono::steady_clock::now();
    plot_->xAxis->setRange(start_, start_ + length_);
    const double fMax = maxFrequency();
    plot_->yAxis->setRange(0, fMax > 0 ? fMax : 80);
    const QString power = (unit_.isEmpty() ? tr("unit") : unit_) + QStringLiteral("²/Hz");  // not arg(): "%1²" reads as a two-digit placeholder
    scale_->axis()->setLabel(channel_ >= 0 ? tr("%1 · power (%2, log)").arg(channelName_, power) : QString());
    plot_->setProperty(kExportTitleProperty, channel_ >= 0 ? tr("Spectrogram of %1, %2–%3 s (%4)").arg(channelName_)
                                                                 .arg(start_, 0, 'f', 1).arg(start_ + length_, 0, 'f', 1).arg(power)
                                                           : QString());
    QString problem;
    if (map_) plot_->removePlottable(map_);
    map_ = nullptr;
    shown_ = {};
    if (channel_ < 0 || !read_) problem = tr("open a recording");
    else if (!(rate_ > 0)) problem = tr("%1 has no sampling rate").arg(channelName_);
    std::vector<float> shown;  // every visible value, for the colour range
    if (problem.isEmpty()) {
        const auto o = optionsFor(rate_, length_);
        // A segment's half on each side of the window, so that the columns reach its edges.
        const long long half = (long long)o.segmentLength / 2;
        const long long first = std::max(0LL, (long long)std::floor(start_ * rate_) - half);
        const long long last = std::min(samples_, (long long)std::ceil((start_ + length_) * rate_) + half);
        try {
            if (last - first < (long long)o.segmentLength)
                problem = tr("%1: the window holds less than one %2-sample segment").arg(channelName_).arg(o.segmentLength);
            else
                shown_ = cache_->window(key_, rate_, o, first, last, samples_, read_);
        } catch (const std::exception& e) {
            problem = QString::fromStdString(e.what());
        }
    }
    const auto& t = shown_;
    if (problem.isEmpty() && t.frames > 0 && t.bins > 0) {
        const double df = t.rateHz / double(t.segmentLength);
        const int rows = int(std::min<double>(double(t.bins), std::floor(fMax / df) + 1));
        map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
        map_->setColorScale(scale_);
        map_->setInterpolate(false);
        map_->setTightBoundary(false);
        map_->data()->setSize(int(t.frames), rows);
        map_->data()->setRange(QCPRange(t.frameCentreS(0), t.frameCentreS(t.frames - 1)), QCPRange(0, (rows - 1) * df));
        for (std::size_t i = 0; i < t.frames; ++i) {
            const double ti = t.frameCentreS(i);
            const bool visible = ti >= start_ && ti <= start_ + length_;
            for (int f = 0; f < rows; ++f) {
                const float v = t.at(i, std::size_t(f));
                map_->data()->setCell(int(i), f, v > 0 ? v : std::nan(""));
                // The DC bin (the mean, removed) and the lowest bins stay out of the colour range.
                if (visible && v > 0 && std::isfinite(v) && f * df >= 0.5) shown.push_back(v);
            }
        }
    }
    showMessage(problem);
    if (!shown.empty()) {
        // The colour range of what is in view, from the 2nd to the 99.8th percentile: one
        // artefact must not turn the rest dark.
        const std::size_t lo = shown.size() / 50, hi = std::min(shown.size() - 1, shown.size() * 998 / 1000);
        std::nth_element(shown.begin(), shown.begin() + long(lo), shown.end());
        const double vLo = shown[lo];
        std::nth_element(shown.begin(), shown.begin() + long(hi), shown.end());
        const double vHi = std::max<double>(shown[hi], vLo * 10);
        scale_->setDataRange(QCPRange(vLo, vHi));
    }
    scale_->setVisible(map_ != nullptr);
    drawOverlays();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    lastRedrawMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
}

void SpectrogramView::drawOverlays() {
    for (QCPAbstractItem* item : overlays_) plot_->removeItem(item);
    overlays_.clear();
    if (channel_ < 0) return;
    const double t0 = start_, t1 = start_ + length_;
    for (const io::Region& r : regions_) {
        if (r.endS < t0 || r.startS > t1 || (r.channel >= 0 && r.channel != channel_)) continue;
        const QColor c = regionColor(r.kind);
        auto* rect = new QCPItemRect(plot_);
        rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->topLeft->setCoords(r.startS, 0);
        rect->bottomRight->setCoords(r.endS, 1);
        rect->setPen(QPen(c, 2));
        rect->setBrush(Qt::NoBrush);
        overlays_.push_back(rect);
        auto* label = new QCPItemText(plot_);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(std::max(r.startS, t0), 0);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setText(regionKindLabel(r.kind));
        label->setFont(QFont(font().family(), 7, QFont::Bold));
        label->setColor(Qt::white);
        label->setBrush(c);
        overlays_.push_back(label);
    }
    if (bandHigh_ > bandLow_)
        for (double f : {bandLow_, bandHigh_}) {
            auto* line = new QCPItemStraightLine(plot_);
            line->point1->setCoords(t0, f);
            line->point2->setCoords(t1, f);
            line->setPen(QPen(QColor(255, 255, 255, 200), 1, Qt::DashLine));
            overlays_.push_back(line);
        }
    if (cursor_ >= t0 && cursor_ <= t1) {
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(cursor_, 0);
        line->point2->setCoords(cursor_, 1);
        line->setPen(QPen(QColor(255, 60, 60), 1));
        overlays_.push_back(line);
    }
}

void SpectrogramView::updateReadout(double t, double f) {
    if (channel_ < 0 || !map_ || !map_->data()->keyRange().contains(t) || !map_->data()->valueRange().contains(f)) {
        readout_->clear();
        return;
    }
    const double v = map_->data()->data(t, f);
    const QString power = (unit_.isEmpty() ? tr("unit") : unit_) + QStringLiteral("²/Hz");  // not arg(): "%1²" reads as a two-digit placeholder
    readout_->setText(tr("%1 s, %2 Hz: %3 %4").arg(t, 0, 'f', 2).arg(f, 0, 'f', 1).arg(v, 0, 'g', 3).arg(power));
}

void SpectrogramView::alignWith(QCustomPlot* traces) {
    if (traces_ == traces) return;
    traces_ = traces;
    connect(traces, &QCustomPlot::afterReplot, this, &SpectrogramView::realign);
    realign();
}

void SpectrogramView::realign() {
    if (!traces_ || isHidden()) return;
    const QRect r = traces_->axisRect()->rect();
    const int left = traces_->mapTo(window(), r.topLeft()).x() - plot_->mapTo(window(), QPoint(0, 0)).x();
    const int right = plot_->mapTo(window(), QPoint(plot_->width(), 0)).x() - traces_->mapTo(window(), QPoint(r.right() + 1, 0)).x();
    QCPLayoutElement* const elements[] = {plot_->axisRect(), scale_};
    if (left < 30 || right < 0 || traces_->window() != window()) {  // not one above the other: our own margins
        for (QCPLayoutElement* e : elements) e->setAutoMargins(QCP::msAll);
        return;
    }
    const QMargins m = plot_->axisRect()->margins();
    if (plot_->axisRect()->autoMargins() == (QCP::msTop | QCP::msBottom) && m.left() == left && m.right() == right) return;
    for (QCPLayoutElement* e : elements) {
        e->setAutoMargins(QCP::msTop | QCP::msBottom);
        e->setMargins(QMargins(left, e->margins().top(), right, e->margins().bottom()));
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SpectrogramView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    realign();
}

bool SpectrogramView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::MouseMove) {
        const QPoint p = static_cast<QMouseEvent*>(event)->pos();
        if (plot_->axisRect()->rect().contains(p)) {
            const double t = plot_->xAxis->pixelToCoord(p.x()), f = plot_->yAxis->pixelToCoord(p.y());
            updateReadout(t, f);
            setCursorTime(t);
            Q_EMIT cursorMoved(t);
        }
    } else if (watched == plot_ && event->type() == QEvent::Leave) {
        readout_->clear();
        setCursorTime(-1);
        Q_EMIT cursorMoved(-1);
    }
    return QWidget::eventFilter(watched, event);
}

QString SpectrogramView::exportCsv(const QString& path) const {
    if (shown_.frames == 0 || shown_.bins == 0) return tr("%1: no spectrogram on screen to export").arg(path);
    QString text;
    QTextStream out(&text);
    out << "# spectrogram of " << channelName_ << ", " << QString::number(start_, 'f', 3) << "-"
        << QString::number(start_ + length_, 'f', 3) << " s\n";
    out << "# Welch frames of " << shown_.segmentLength << " samples every " << shown_.hop << " at "
        << QString::number(shown_.rateHz, 'g', 10) << " Hz; power spectral density in "
        << (unit_.isEmpty() ? QStringLiteral("unit") : unit_) << "^2/Hz\n";
    out << "time_s";
    for (std::size_t b = 0; b < shown_.bins; ++b) out << "," << QString::number(shown_.binHz(b), 'g', 10) << " Hz";
    out << "\n";
    for (std::size_t f = 0; f < shown_.frames; ++f) {
        out << QString::number(shown_.frameCentreS(f), 'g', 12);
        for (std::size_t b = 0; b < shown_.bins; ++b) out << "," << QString::number(double(shown_.at(f, b)), 'g', 9);
        out << "\n";
    }
    out.flush();
    const QByteArray bytes = text.toUtf8();
    return writeFileAtomically(path, [&](QIODevice& device) { return device.write(bytes) == bytes.size(); });
}

}  // namespace warplab::widgets
