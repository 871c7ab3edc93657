#include "widgets/signal_view.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QScrollBar>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <qcustomplot.h>

#include "compute/spectral/band_filter.h"
#include "io/io_error.h"
#include "widgets/elided_label.h"
#include "widgets/filter_text.h"
#include "widgets/min_max_envelope.h"
#include "widgets/value_units.h"
#include "widgets/plot_export.h"
#include "widgets/region_style.h"

namespace warplab::widgets {
namespace {

constexpr double kWindows[] = {1, 2, 5, 10, 20, 30, 60, 120, 300};
constexpr double kMinWindow = 1, kMaxWindow = 300;
constexpr int kScrollUnitsPerSecond = 100;

double niceNumber(double v) {
    if (!(v > 0) || !std::isfinite(v)) return 1;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (v <= m * p) return m * p;
    return 10 * p;
}

}  // namespace

SignalView::SignalView(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Window:")));
    windowBox_ = new QComboBox;
    for (double w : kWindows) windowBox_->addItem(w < 60 ? tr("%1 s").arg(w) : tr("%1 min").arg(w / 60), w);
    windowBox_->setFocusPolicy(Qt::NoFocus);
    top->addWidget(windowBox_);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("Mark:")));
    kindBox_ = new QComboBox;
    for (auto k : {io::RegionKind::Seizure, io::RegionKind::Query, io::RegionKind::Reference})
        kindBox_->addItem(regionKindLabel(k), static_cast<int>(k));
    kindBox_->setFocusPolicy(Qt::NoFocus);
    kindBox_->setToolTip(tr("Kind of region a drag marks (Ctrl+drag: one channel only; Alt+drag inside a region moves it)"));
    top->addWidget(kindBox_);
    top->addSpacing(12);
    scaleLabel_ = new QLabel;
    top->addWidget(scaleLabel_);
    top->addSpacing(12);
    top->addStretch(1);
    // The active filters get a row of their own under the bar: beside the window, mark and scale
    // controls they were squeezed to an empty box once the result docks narrowed the traces.
    auto* filterLabel = new ElidedLabel;
    filterLabel->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    filterLabel->setBaseToolTip(tr("Filters applied to the traces (View ▸ Filters…, Ctrl+T)"));
    filterLabel_ = filterLabel;
    filterLabel_->setObjectName("filterLabel");
    filterLabel_->setStyleSheet("QLabel { background: #fff3c4; color: #6b4e00; border: 1px solid #d9b44a; padding: 0 4px; }");
    filterLabel_->setVisible(false);
    auto* filterRow = new QHBoxLayout;
    filterRow->setContentsMargins(0, 0, 0, 0);
    filterRow->addWidget(filterLabel_, 1);
    filterRow->addStretch(0);

    plot_ = new QCustomPlot;
    plot_->setFocusPolicy(Qt::NoFocus);
    plot_->setInteractions(QCP::Interactions());
    plot_->setNoAntialiasingOnDrag(true);
    plot_->xAxis->setLabel(tr("time (s)"));
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->yAxis->setSubTicks(false);
    plot_->yAxis->grid()->setVisible(false);
    plot_->yAxis->setTickLabelFont(QFont(font().family(), 8));
    auto clock = QSharedPointer<QCPAxisTickerDateTime>::create();
    clock->setDateTimeFormat("hh:mm:ss");
    clock->setDateTimeSpec(Qt::UTC);
    plot_->xAxis2->setTicker(clock);
    plot_->xAxis2->setTickLabelFont(QFont(font().family(), 8));

    scroll_ = new QScrollBar(Qt::Horizontal);
    scroll_->setFocusPolicy(Qt::NoFocus);

    channelScroll_ = new QScrollBar(Qt::Vertical);
    channelScroll_->setFocusPolicy(Qt::NoFocus);
    channelScroll_->setToolTip(tr("Scroll through the channels (or the mouse wheel over the traces)"));
    auto* middle = new QHBoxLayout;
    middle->setContentsMargins(0, 0, 0, 0);
    middle->addWidget(plot_, 1);
    middle->addWidget(channelScroll_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addLayout(filterRow);
    layout->addLayout(middle, 1);
    layout->addWidget(scroll_);

    connect(windowBox_, &QComboBox::activated, this, [this](int i) { setWindow(start_, windowBox_->itemData(i).toDouble()); });
    connect(kindBox_, &QComboBox::activated, this, [this](int) { rebuildOverlays(); });
    connect(scroll_, &QScrollBar::valueChanged, this, [this](int v) {
        if (std::abs(v - start_ * kScrollUnitsPerSecond) >= 1) setWindow(double(v) / kScrollUnitsPerSecond, length_);
    });
    connect(channelScroll_, &QScrollBar::valueChanged, this, &SignalView::setFirstChannel);
    plot_->installEventFilter(this);  // the wheel scrolls channels
    plot_->setMouseTracking(true);     // the time cursor follows the mouse
    connect(plot_, &QCustomPlot::mousePress, this, &SignalView::onPress);
    connect(plot_, &QCustomPlot::mouseMove, this, &SignalView::onMove);
    connect(plot_, &QCustomPlot::mouseRelease, this, &SignalView::onRelease);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, &SignalView::onDoubleClick);

    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        const int ch = channelAtY(plot_->yAxis->pixelToCoord(pos.y()));
        if (rec_ && ch >= 0) {
            const QString name = QString::fromStdString(signalList(*rec_)[ch].displayName);
            menu.addAction(tr("%1: larger (gain ×2)").arg(name), this, [this, ch] { setChannelGain(ch, channelGain(ch) * 2); });
            menu.addAction(tr("%1: smaller (gain ÷2)").arg(name), this, [this, ch] { setChannelGain(ch, channelGain(ch) / 2); });
            menu.addAction(tr("%1: reset gain").arg(name), this, [this, ch] { setChannelGain(ch, 1); });
            menu.addSeparator();
        }
        for (const char* ext : {"png", "svg", "pdf"}) {
            const QString e = QString::fromLatin1(ext);
            menu.addAction(tr("Export plot as %1…").arg(e.toUpper()), this, [this, e] {
                const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), "signals." + e);
                if (path.isEmpty()) return;
                const QString err = exportPlot(plot_, path);
                if (!err.isEmpty()) QMessageBox::warning(this, tr("Export failed"), err);
            });
        }
        menu.exec(plot_->mapToGlobal(pos));
    });
    rebuildChannels();
}

SignalView::~SignalView() = default;

void SignalView::setRecording(std::shared_ptr<const io::Recording> recording) {
    rec_ = std::move(recording);
    regions_.clear();
    selected_ = -1;
    currentChannel_ = 0;
    highlight_ = {};
    overlayTrace_ = {};
    gains_.assign(rec_ ? signalList(*rec_).size() : 0, 1.0);
    start_ = 0;
    // EEG opens on 10 s pages; a series file (seconds = samples unless a rate was given) whole.
    const bool series = rec_ && (rec_->format() == io::Format::Text || rec_->format() == io::Format::Csv ||
                                 rec_->format() == io::Format::Npy);
    length_ = rec_ ? std::clamp(std::min(series ? kMaxWindow : 10.0, rec_->durationS()), kMinWindow, kMaxWindow) : 10;
    rebuildChannels();
    autoScale();
    setWindow(0, length_);
}

void SignalView::rebuildChannels() {
    plot_->clearGraphs();
    const int n = rec_ ? int(signalList(*rec_).size()) : 0;
    rowChannels_.clear();
    for (int c = 0; c < n; ++c) rowChannels_.push_back(c);
    for (int c = 0; c < n; ++c) {
        auto* g = plot_->addGraph();
        g->setPen(QPen(QColor(20, 20, 60), 1));
        g->setAdaptiveSampling(false);  // already reduced to min/max per pixel
    }
    rebuildRowLabels();
    firstRow_ = 0;
    applyRowRange();
    const QDateTime start = rec_ ? QDateTime::fromString(QString::fromStdString(rec_->startIso()), Qt::ISODate) : QDateTime();
    plot_->xAxis2->setVisible(start.isValid());
    plot_->xAxis2->setTickLabels(start.isValid());
    plot_->xAxis2->setLabel(start.isValid() ? tr("clock time") : QString());
}

void SignalView::rebuildRowLabels() {
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot_->yAxis->ticker());
    ticker->clear();
    for (int c : rowChannels_) ticker->addTick(rowCenter(c), QString::fromStdString(signalList(*rec_)[std::size_t(c)].displayName));
}

int SignalView::rowOf(int channel) const {
    const auto it = std::find(rowChannels_.begin(), rowChannels_.end(), channel);
    return it == rowChannels_.end() ? -1 : int(it - rowChannels_.begin());
}

double SignalView::rowCenter(int channel) const {
    const int rows = int(rowChannels_.size()), row = rowOf(channel);
    return row < 0 ? -1e6 : rows - row - 0.5;  // a hidden channel lies far below the view
}

void SignalView::setVisibleChannels(const std::vector<int>& channels) {
    if (!rec_) return;
    const int n = int(signalList(*rec_).size());
    rowChannels_.clear();
    for (int c : channels)
        if (c >= 0 && c < n && rowOf(c) < 0) rowChannels_.push_back(c);
    if (rowChannels_.empty())
        for (int c = 0; c < n; ++c) rowChannels_.push_back(c);
    for (int c = 0; c < plot_->graphCount(); ++c) plot_->graph(c)->data()->clear();
    rebuildRowLabels();
    applyRowRange();
    reloadTraces();
    rebuildOverlays();
}

int SignalView::channelsShown() const {
    const int n = int(rowChannels_.size());
    return perPage_ > 0 ? std::min(n, perPage_) : n;
}

void SignalView::applyRowRange() {
    const int n = int(rowChannels_.size());
    const int shown = channelsShown();
    firstRow_ = std::clamp(firstRow_, 0, std::max(0, n - shown));
    // Row c spans [n-c-1, n-c]: showing channels first..first+shown-1 is a y range.
    plot_->yAxis->setRange(n - firstRow_ - shown, n - firstRow_);
    const QSignalBlocker block(channelScroll_);
    channelScroll_->setRange(0, std::max(0, n - shown));
    channelScroll_->setPageStep(std::max(1, shown));
    channelScroll_->setValue(firstRow_);
    channelScroll_->setVisible(n > shown);
}

void SignalView::setChannelsPerPage(int count) {
    perPage_ = std::max(0, count);
    applyRowRange();
    reloadTraces();
    rebuildOverlays();
}

void SignalView::setFirstChannel(int channel) {
    if (channel == firstRow_) return;
    firstRow_ = channel;
    applyRowRange();
    reloadTraces();
    rebuildOverlays();
}

bool SignalView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::ToolTip) {
        const QPoint pos = static_cast<QHelpEvent*>(event)->pos();
        for (const auto& l : annotationLabels_)
            if (l.rect.contains(pos)) {
                QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), l.text, plot_, l.rect);
                return true;
            }
        QToolTip::hideText();
        return true;
    }
    if (watched == plot_ && event->type() == QEvent::MouseMove) {
        const QPoint pos = static_cast<QMouseEvent*>(event)->pos();
        const double t = rec_ && plot_->axisRect()->rect().contains(pos) ? plot_->xAxis->pixelToCoord(pos.x()) : -1;
        setCursorTime(t);
        emit cursorMoved(t);
    }
    if (watched == plot_ && event->type() == QEvent::Leave) {
        setCursorTime(-1);
        emit cursorMoved(-1);
    }
    if (watched == plot_ && event->type() == QEvent::Wheel) {
        const int steps = static_cast<QWheelEvent*>(event)->angleDelta().y() / 120;
        if (steps != 0) setFirstChannel(std::max(0, firstRow_ - steps * std::max(1, channelsShown() / 4)));
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

int SignalView::channelAtY(double y) const {
    const int n = int(rowChannels_.size());
    const int row = n - 1 - int(std::floor(y));
    return (row >= 0 && row < n && y >= 0) ? rowChannels_[std::size_t(row)] : -1;
}

void SignalView::autoScale() {
    if (!rec_ || signalList(*rec_).empty()) return;
    std::vector<double> stds;
    for (const auto& s : signalList(*rec_)) {
        const long long count = std::min<long long>(s.samples, (long long)(length_ * s.rateHz));
        if (count < 2) continue;
        try {
            const auto v = rec_->read(s.index, 0, count);
            double mean = 0, sq = 0;
            for (float x : v) mean += x;
            mean /= v.size();
            for (float x : v) sq += (x - mean) * (x - mean);
            stds.push_back(std::sqrt(sq / v.size()));
        } catch (const io::IoError&) {
        }
    }
    if (stds.empty()) return;
    std::nth_element(stds.begin(), stds.begin() + stds.size() / 2, stds.end());
    setUnitsPerRow(niceNumber(6 * stds[stds.size() / 2]));
}

void SignalView::setWindow(double startS, double lengthS) {
    length_ = std::clamp(lengthS, kMinWindow, kMaxWindow);
    const double dur = rec_ ? rec_->durationS() : length_;
    start_ = std::clamp(startS, 0.0, std::max(0.0, dur - length_));
    plot_->xAxis->setRange(start_, start_ + length_);
    const QDateTime clock = rec_ ? QDateTime::fromString(QString::fromStdString(rec_->startIso()), Qt::ISODate) : QDateTime();
    if (clock.isValid()) {
        QDateTime utc = clock;
        utc.setTimeSpec(Qt::UTC);  // show the recording's own clock, whatever this machine's zone
        const double epoch = utc.toMSecsSinceEpoch() / 1000.0;
        plot_->xAxis2->setRange(epoch + start_, epoch + start_ + length_);
    }
    const int idx = windowBox_->findData(length_);
    if (idx >= 0) windowBox_->setCurrentIndex(idx);
    syncScrollBar();
    updateExportTitle();
    reloadTraces();
    rebuildOverlays();
    emit windowChanged(start_, length_);
}

void SignalView::scrollBy(double fraction) { setWindow(start_ + fraction * length_, length_); }

void SignalView::syncScrollBar() {
    const QSignalBlocker block(scroll_);
    const double dur = rec_ ? rec_->durationS() : 0;
    scroll_->setRange(0, int(std::max(0.0, dur - length_) * kScrollUnitsPerSecond));
    scroll_->setPageStep(int(length_ * kScrollUnitsPerSecond));
    scroll_->setSingleStep(int(length_ * kScrollUnitsPerSecond / 4));
    scroll_->setValue(int(std::lround(start_ * kScrollUnitsPerSecond)));
}

void SignalView::setUnitsPerRow(double units) {
    if (!(units > 0)) return;
    unitsPerRow_ = units;
    const QString unit = rec_ && !signalList(*rec_).empty() ? displayUnit(QString::fromStdString(signalList(*rec_)[0].unit)) : QString();
    // Short, so that the filters beside it keep their room; the keys are in the tooltip.
    scaleLabel_->setText(tr("Scale: %1 %2/channel").arg(units, 0, 'g', 4).arg(unit));
    scaleLabel_->setToolTip(tr("Amplitude per channel row: + / − change it, right-click a channel for its own gain"));
    reloadTraces();
}

void SignalView::setChannelGain(int channel, double gain) {
    if (channel < 0 || channel >= int(gains_.size()) || !(gain > 0)) return;
    gains_[channel] = gain;
    reloadTraces();
}

double SignalView::channelGain(int channel) const {
    return channel >= 0 && channel < int(gains_.size()) ? gains_[channel] : 1.0;
}

void SignalView::setMarkKind(io::RegionKind kind) { kindBox_->setCurrentIndex(kindBox_->findData(int(kind))); }
io::RegionKind SignalView::markKind() const { return io::RegionKind(kindBox_->currentData().toInt()); }

void SignalView::reloadTraces() {
    if (!rec_) {
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const int columns = std::max(100, plot_->axisRect()->width());
    const auto& sigs = signalList(*rec_);
    const int lastShown = firstRow_ + channelsShown();
    for (int c = 0; c < int(sigs.size()) && c < plot_->graphCount(); ++c) {
        const auto& s = sigs[c];
        QVector<double> keys, values;
        const int row = rowOf(c);
        if (s.rateHz > 0 && row >= firstRow_ && row < lastShown) {  // channels scrolled away or hidden are not read
            const long long first = std::clamp<long long>((long long)std::floor(start_ * s.rateHz), 0, s.samples);
            const long long last = std::clamp<long long>((long long)std::ceil((start_ + length_) * s.rateHz) + 1, 0, s.samples);
            // Filters settle over a margin read on each side of the window, then cut away.
            const bool filtered = filters_.enabled() || displayBand_.has_value();
            const long long margin = filtered ? (long long)(2 * s.rateHz) : 0;
            const long long readFirst = std::max(0LL, first - margin), readLast = std::min(s.samples, last + margin);
            std::vector<float> v;
            try {
                if (last > first) v = rec_->read(c, readFirst, readLast - readFirst);
                if (filtered && !v.empty()) {
                    if (filters_.enabled()) v = io::applyFilters(std::move(v), s.rateHz, filters_, true);
                    if (displayBand_) v = compute::spectral::bandFilter(std::span<const float>(v), s.rateHz, *displayBand_);
                    v.erase(v.begin() + (last - readFirst), v.end());
                    v.erase(v.begin(), v.begin() + (first - readFirst));
                }
            } catch (const compute::EngineError&) {
                v.clear();  // a damaged record (or a filter the rate cannot take) shows as a gap
            }
            double mean = 0;
            for (float x : v) mean += x;
            if (!v.empty()) mean /= v.size();
            appendMinMaxEnvelope(v.data(), v.size(), first / s.rateHz, 1.0 / s.rateHz, columns, keys, values);
            const double k = gains_[c] / unitsPerRow_, center = rowCenter(c);
            // Clipped at two rows either side: one wild channel (a trigger channel, a loose
            // electrode) must not paint over all the others.
            for (double& y : values) y = std::clamp(center + (y - mean) * k, center - 2.0, center + 2.0);
        }
        plot_->graph(c)->setData(keys, values, true);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SignalView::setFilters(const io::FilterSettings& filters) {
    filters_ = filters;
    const QString text = filterText();
    static_cast<ElidedLabel*>(filterLabel_)->setFullText(text);
    filterLabel_->setVisible(!text.isEmpty());
    updateExportTitle();
    reloadTraces();
}

QString SignalView::filterText() const {
    QString f = filterSummary(filters_);
    if (displayBand_)
        f += (f.isEmpty() ? QString() : QStringLiteral(", ")) + tr("band %1").arg(QString::fromStdString(displayBand_->describe()));
    return f.isEmpty() ? QString() : tr("Filters: %1").arg(f);
}

void SignalView::setDisplayBand(const std::optional<compute::spectral::FrequencyBand>& band) {
    if (band == displayBand_) return;
    displayBand_ = band;
    setFilters(filters_);
}

void SignalView::setCursorTime(double t) {
    if (cursorLine_) plot_->removeItem(cursorLine_);
    cursorLine_ = nullptr;
    if (t >= 0) {
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(t, 0);
        line->point2->setCoords(t, 1);
        line->setPen(QPen(QColor(255, 60, 60, 170), 1));
        line->setSelectable(false);
        cursorLine_ = line;
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SignalView::updateExportTitle() {
    if (!rec_) return;
    const QString file = QString::fromStdString(rec_->path()).section('/', -1);
    const QString f = filterText();
    plot_->setProperty(kExportTitleProperty, tr("%1 · %2 channels · %3–%4 s%5").arg(file).arg(rowChannels_.size())
                                                  .arg(start_, 0, 'f', 1).arg(start_ + length_, 0, 'f', 1)
                                                  .arg(f.isEmpty() ? QString() : " · " + f));
}

int SignalView::drawnPointCount(int channel) const {
    return channel >= 0 && channel < plot_->graphCount() ? plot_->graph(channel)->dataCount() : 0;
}

void SignalView::setRegions(const std::vector<io::Region>& regions) {
    regions_ = regions;
    if (selected_ >= int(regions_.size())) selected_ = -1;
    rebuildOverlays();
}

void SignalView::setCurrentChannel(int channel) {
    if (!rec_ || channel < 0 || channel >= int(signalList(*rec_).size()) || channel == currentChannel_) return;
    currentChannel_ = channel;
    Q_EMIT currentChannelChanged(channel);
}

void SignalView::selectRegion(int index) {
    if (index < 0 || index >= int(regions_.size())) return;
    selected_ = index;
    const io::Region& r = regions_[std::size_t(index)];
    if (r.startS < start_ || r.startS > start_ + length_) setWindow(r.startS - length_ / 10, length_);
    else rebuildOverlays();
}

void SignalView::setHighlight(int channel, double startS, double endS) {
    highlight_ = {channel, startS, endS, true};
    if (startS < start_ || endS > start_ + length_)  // bring the whole match into view
        setWindow((startS + endS) / 2 - length_ / 2, length_);
    else
        rebuildOverlays();
}

void SignalView::clearHighlight() {
    highlight_.on = false;
    rebuildOverlays();
}

void SignalView::setOverlayTrace(int channel, double startS, double rateHz, std::vector<float> samples, const QString& label) {
    overlayTrace_ = {channel, startS, rateHz, std::move(samples), label};
    rebuildOverlays();
}

void SignalView::clearOverlayTrace() {
    overlayTrace_ = {};
    rebuildOverlays();
}

void SignalView::rebuildOverlays() {
    for (auto* item : overlayItems_) plot_->removeItem(item);
    overlayItems_.clear();
    if (overlayCurve_) plot_->removePlottable(overlayCurve_);
    overlayCurve_ = nullptr;
    if (!rec_) return;
    const double n = double(rowChannels_.size());
    auto addRect = [&](double s, double e, int channel, QColor fill, QPen pen) {
        auto* r = new QCPItemRect(plot_);
        r->topLeft->setCoords(s, channel < 0 ? n : rowCenter(channel) + 0.5);
        r->bottomRight->setCoords(e, channel < 0 ? 0 : rowCenter(channel) - 0.5);
        r->setBrush(fill);
        r->setPen(pen);
        r->setSelectable(false);
        overlayItems_.push_back(r);
        return r;
    };
    auto addText = [&](double t, double y, const QString& text, QColor color, Qt::Alignment align) {
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(t, y);
        label->setPositionAlignment(align);
        label->setText(text);
        label->setColor(color);
        label->setFont(QFont(font().family(), 8, QFont::Bold));
        label->setBrush(QColor(255, 255, 255, 190));
        label->setSelectable(false);
        overlayItems_.push_back(label);
    };
    const double t0 = start_, t1 = start_ + length_;
    const double visTop = plot_->yAxis->range().upper, visBottom = plot_->yAxis->range().lower;
    const double pixelY = (visTop - visBottom) / std::max(1, plot_->axisRect()->height());
    annotationLabels_.clear();
    // Annotation labels along the bottom in up to three staggered rows; where even that is too
    // crowded the earlier label of the row is cut to fit (its tooltip has the whole text).
    const QFont labelFont(font().family(), 8, QFont::Bold);
    const QFontMetrics fm(labelFont);
    const QRect area = plot_->axisRect()->rect();
    constexpr int kRows = 3, kGap = 4;
    struct Placed { double onset; QString text, shown; int row, left, width; };
    std::vector<Placed> placed;
    {
        std::vector<std::pair<double, QString>> visible;
        for (const auto& a : rec_->annotations())
            if (a.onsetS + a.durationS >= t0 && a.onsetS <= t1) visible.push_back({a.onsetS, QString::fromStdString(a.text)});
        std::stable_sort(visible.begin(), visible.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        int rowEnd[kRows], last[kRows];
        for (int r = 0; r < kRows; ++r) rowEnd[r] = INT_MIN / 2, last[r] = -1;
        for (const auto& [onset, text] : visible) {
            const int left = int(std::lround(plot_->xAxis->coordToPixel(std::max(onset, t0))));
            const int width = fm.horizontalAdvance(text) + 4;
            int row = -1;
            for (int r = 0; r < kRows && row < 0; ++r)
                if (rowEnd[r] + kGap <= left) row = r;
            if (row < 0) {  // every row busy: cut the earliest-ending row's last label short
                row = int(std::min_element(rowEnd, rowEnd + kRows) - rowEnd);
                Placed& prev = placed[std::size_t(last[row])];
                prev.width = std::max(0, left - kGap - prev.left);
                prev.shown = prev.width >= fm.horizontalAdvance(QStringLiteral("W…")) + 4
                                 ? fm.elidedText(prev.text, Qt::ElideRight, prev.width - 4) : QString();
            }
            placed.push_back({onset, text, text, row, left, width});
            rowEnd[row] = left + width;
            last[row] = int(placed.size()) - 1;
        }
    }
    for (const auto& a : rec_->annotations()) {
        const double end = a.onsetS + a.durationS;
        if (end < t0 || a.onsetS > t1) continue;
        if (a.durationS > 0) {
            // The duration as a thin bar along the bottom: back-to-back events (EDF+ task
            // markers) would otherwise tint the whole view.
            auto* bar = addRect(a.onsetS, end, -1, QColor(255, 160, 0, 110), QPen(QColor(230, 120, 0), 1));
            bar->bottomRight->setCoords(end, visBottom);
            const double pixel = (visTop - visBottom) / std::max(1, plot_->axisRect()->height());
            bar->topLeft->setCoords(a.onsetS, visBottom + 5 * pixel);  // 5 px, whatever the row height
        }
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(a.onsetS, 0);
        line->point2->setCoords(a.onsetS, 1);
        line->setPen(QPen(QColor(230, 120, 0), 1, Qt::DashLine));
        line->setSelectable(false);
        overlayItems_.push_back(line);
    }
    // Annotation labels sit at the bottom so that they never cover region labels at the top.
    for (const Placed& p : placed) {
        const int bottom = area.bottom() - 6 - p.row * (fm.height() + 1);
        annotationLabels_.push_back({p.text, p.shown, p.row, QRect(p.left - 3, bottom - fm.height(), std::max(6, p.width + 3), fm.height())});
        if (p.shown.isEmpty()) continue;
        addText(p.onset, visBottom, p.shown, QColor(180, 90, 0), Qt::AlignLeft | Qt::AlignBottom);
        auto* label = static_cast<QCPItemText*>(overlayItems_.back());
        label->position->setTypeY(QCPItemPosition::ptAbsolute);
        label->position->setCoords(std::max(p.onset, t0), bottom);
    }
    for (int i = 0; i < int(regions_.size()); ++i) {
        const auto& r = regions_[i];
        if (r.endS < t0 || r.startS > t1) continue;
        QColor c = regionColor(r.kind);
        QColor fill = c;
        fill.setAlpha(i == selected_ ? 80 : 45);
        addRect(r.startS, r.endS, r.channel, fill, QPen(c, i == selected_ ? 2.5 : 1.5));
        // A solid strip along the region's top edge: the tint alone vanishes under dense traces.
        const double stripTop = std::min(visTop, r.channel < 0 ? n : rowCenter(r.channel) + 0.5);
        auto* strip = addRect(std::max(r.startS, t0), std::min(r.endS, t1), r.channel, c, QPen(c, 1));
        strip->topLeft->setCoords(std::max(r.startS, t0), stripTop);
        strip->bottomRight->setCoords(std::min(r.endS, t1), stripTop - 4 * pixelY);
        addText(std::max(r.startS, t0), stripTop - 4 * pixelY, regionKindLabel(r.kind) + (r.note.empty() ? QString() : ": " + QString::fromStdString(r.note)),
                c.darker(130), Qt::AlignLeft | Qt::AlignTop);
    }
    if (highlight_.on)
        addRect(highlight_.start, highlight_.end, highlight_.channel, QColor(255, 215, 0, 90), QPen(QColor(200, 150, 0), 2));
    if (const auto& o = overlayTrace_; !o.samples.empty() && o.rate > 0 && rowOf(o.channel) >= 0 &&
                                       o.start < t1 && o.start + double(o.samples.size()) / o.rate > t0) {
        // Centred on the row as the traces are (their mean removed), with the row's gain.
        double mean = 0;
        for (float v : o.samples) mean += v;
        mean /= double(o.samples.size());
        const double k = gains_[std::size_t(o.channel)] / unitsPerRow_, center = rowCenter(o.channel);
        QVector<double> keys(qsizetype(o.samples.size())), values(qsizetype(o.samples.size()));
        for (std::size_t i = 0; i < o.samples.size(); ++i) {
            keys[qsizetype(i)] = o.start + double(i) / o.rate;
            values[qsizetype(i)] = std::clamp(center + (o.samples[i] - mean) * k, center - 2.0, center + 2.0);
        }
        auto* curve = new QCPCurve(plot_->xAxis, plot_->yAxis);
        curve->setData(keys, values);
        curve->setPen(QPen(QColor(142, 36, 170, 220), 2));
        curve->setSelectable(QCP::stNone);
        overlayCurve_ = curve;
        addText(std::max(o.start, t0), center - 0.45, o.label, QColor(142, 36, 170), Qt::AlignLeft | Qt::AlignBottom);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

int SignalView::regionAt(double t, int channel) const {
    // The last drawn region wins, as it is painted on top.
    for (int i = int(regions_.size()) - 1; i >= 0; --i) {
        const auto& r = regions_[i];
        if (t >= r.startS && t <= r.endS && (r.channel < 0 || r.channel == channel)) return i;
    }
    return -1;
}

QPoint SignalView::plotPoint(double timeS, int channel) const {
    plot_->replot();  // make sure the axis rect has its final geometry
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(timeS))),
                  int(std::lround(plot_->yAxis->coordToPixel(rowCenter(channel)))));
}

void SignalView::onPress(QMouseEvent* e) {
    if (!rec_ || e->button() != Qt::LeftButton || !plot_->axisRect()->rect().contains(e->pos())) return;
    const double t = plot_->xAxis->pixelToCoord(e->pos().x());
    const int channel = channelAtY(plot_->yAxis->pixelToCoord(e->pos().y()));
    if (channel >= 0 && channel != currentChannel_) {
        currentChannel_ = channel;
        emit currentChannelChanged(channel);
    }
    pressPos_ = e->pos();
    dragAnchorS_ = dragNowS_ = t;
    dragMoved_ = false;
    // Marking never moves what is already there: a drag (Ctrl: one channel) always marks, even
    // inside a region; only Alt+drag inside a region moves it. A press inside selects it.
    const int hit = regionAt(t, channel);
    const bool alt = e->modifiers() & Qt::AltModifier;
    if (hit >= 0 && alt) {
        drag_ = Drag::Move;
        dragRegion_ = hit;
    } else {
        drag_ = Drag::Mark;
        dragChannel_ = (e->modifiers() & Qt::ControlModifier) ? channel : -1;
    }
    selected_ = hit;
    if (hit >= 0) emit regionSelected(hit);
    rebuildOverlays();
}

void SignalView::onMove(QMouseEvent* e) {
    if (drag_ == Drag::None) return;
    dragNowS_ = std::clamp(plot_->xAxis->pixelToCoord(e->pos().x()), 0.0, rec_->durationS());
    if ((e->pos() - pressPos_).manhattanLength() > 3) dragMoved_ = true;
    if (!dragMoved_) return;
    if (!rubber_) {
        rubber_ = new QCPItemRect(plot_);
        rubber_->setSelectable(false);
    }
    const double n = double(rowChannels_.size());
    double s = std::min(dragAnchorS_, dragNowS_), en = std::max(dragAnchorS_, dragNowS_);
    int channel = dragChannel_;
    QColor c = regionColor(markKind());
    if (drag_ == Drag::Move) {
        const auto& r = regions_[dragRegion_];
        s = r.startS + (dragNowS_ - dragAnchorS_);
        en = r.endS + (dragNowS_ - dragAnchorS_);
        channel = r.channel;
        c = regionColor(r.kind);
    }
    rubber_->topLeft->setCoords(s, channel < 0 ? n : rowCenter(channel) + 0.5);
    rubber_->bottomRight->setCoords(en, channel < 0 ? 0 : rowCenter(channel) - 0.5);
    rubber_->setPen(QPen(c, 1, Qt::DashLine));
    c.setAlpha(60);
    rubber_->setBrush(c);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SignalView::onRelease(QMouseEvent* e) {
    if (drag_ == Drag::None) return;
    onMove(e);
    const Drag drag = drag_;
    drag_ = Drag::None;
    if (rubber_) {
        plot_->removeItem(rubber_);
        rubber_ = nullptr;
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
    if (!dragMoved_) return;
    const double dur = rec_->durationS();
    if (drag == Drag::Mark) {
        io::Region r;
        r.kind = markKind();
        r.channel = dragChannel_;
        r.startS = std::clamp(std::min(dragAnchorS_, dragNowS_), 0.0, dur);
        r.endS = std::clamp(std::max(dragAnchorS_, dragNowS_), 0.0, dur);
        if (r.endS > r.startS) emit regionDrawn(r);
    } else if (dragRegion_ >= 0 && dragRegion_ < int(regions_.size())) {
        const auto& r = regions_[dragRegion_];
        double delta = dragNowS_ - dragAnchorS_;
        delta = std::clamp(delta, -r.startS, dur - r.endS);  // keep the region inside the recording
        if (delta != 0) emit regionMoveRequested(dragRegion_, r.startS + delta, r.endS + delta);
    }
}

void SignalView::onDoubleClick(QMouseEvent* e) {
    if (!rec_) return;
    const int hit = regionAt(plot_->xAxis->pixelToCoord(e->pos().x()), channelAtY(plot_->yAxis->pixelToCoord(e->pos().y())));
    drag_ = Drag::None;
    if (hit >= 0) emit regionEditRequested(hit);
}

void SignalView::keyPressEvent(QKeyEvent* event) {
    int wi = windowBox_->currentIndex();
    switch (event->key()) {
    case Qt::Key_Left: scrollBy(-0.25); break;
    case Qt::Key_Right: scrollBy(0.25); break;
    case Qt::Key_PageUp: scrollBy(-1); break;
    case Qt::Key_PageDown: scrollBy(1); break;
    case Qt::Key_Home: setWindow(0, length_); break;
    case Qt::Key_End: setWindow(1e300, length_); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: setUnitsPerRow(unitsPerRow_ / 1.5); break;
    case Qt::Key_Minus: setUnitsPerRow(unitsPerRow_ * 1.5); break;
    case Qt::Key_Up: setWindow(start_, windowBox_->itemData(std::max(0, wi - 1)).toDouble()); break;
    case Qt::Key_Down: setWindow(start_, windowBox_->itemData(std::min(windowBox_->count() - 1, wi + 1)).toDouble()); break;
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
        if (selected_ >= 0) emit regionDeleteRequested(selected_);
        break;
    case Qt::Key_Escape:
        selected_ = -1;
        rebuildOverlays();
        break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void SignalView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    reloadTraces();
    rebuildOverlays();  // annotation labels are laid out in pixels
}

}  // namespace warplab::widgets
