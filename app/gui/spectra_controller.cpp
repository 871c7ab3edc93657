#include "app/gui/spectra_controller.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <QFileInfo>
#include <QStringList>

#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "compute/core/error.h"
#include "compute/spectral/welch.h"
#include "io/filters.h"
#include "widgets/filter_text.h"
#include "widgets/frequency_band_box.h"
#include "widgets/metric_panel.h"
#include "widgets/psd_view.h"
#include "widgets/region_style.h"
#include "widgets/signal_view.h"
#include "widgets/spectrogram_view.h"
#include "widgets/value_units.h"

namespace warplab::app {
namespace {

using Span = std::pair<long long, long long>;  // samples [first, last)

// Merged, sorted sample spans of `regions` of `kind` on `channel` (or on all channels).
std::vector<Span> kindSpans(const std::vector<io::Region>& regions, io::RegionKind kind, int channel, double rate, long long n) {
    std::vector<Span> spans;
    for (const io::Region& r : regions) {
        if (r.kind != kind || (r.channel >= 0 && r.channel != channel)) continue;
        const long long a = std::clamp<long long>((long long)std::floor(r.startS * rate), 0, n);
        const long long b = std::clamp<long long>((long long)std::floor(r.endS * rate), 0, n);
        if (b > a) spans.push_back({a, b});
    }
    std::sort(spans.begin(), spans.end());
    std::vector<Span> merged;
    for (const Span& s : spans) {
        if (!merged.empty() && s.first <= merged.back().second) merged.back().second = std::max(merged.back().second, s.second);
        else merged.push_back(s);
    }
    return merged;
}

std::vector<Span> complement(const std::vector<Span>& spans, long long n) {
    std::vector<Span> out;
    long long at = 0;
    for (const Span& s : spans) {
        if (s.first > at) out.push_back({at, s.first});
        at = std::max(at, s.second);
    }
    if (at < n) out.push_back({at, n});
    return out;
}

// Welch segments of about two seconds (0.5 Hz bins), a power of two.
std::size_t welchSegment(double rate) {
    std::size_t n = 16;
    while (double(n) < 2 * rate && n < (std::size_t(1) << 16)) n *= 2;
    return n;
}

}  // namespace

SpectraController::SpectraController(Document* doc, JobRunner* runner, widgets::SignalView* signal, widgets::MetricPanel* metric,
                                     widgets::PsdView* psd, widgets::SpectrogramView* spectrogram, QObject* parent)
    : QObject(parent), doc_(doc), runner_(runner), signal_(signal), metric_(metric), psd_(psd), spectrogram_(spectrogram) {
    widgets::FrequencyBandBox* box = metric_->frequencyBands();
    connect(box, &widgets::FrequencyBandBox::changed, this, &SpectraController::applyBand);
    connect(doc_, &Document::recordingChanged, this, [this, box] {
        const auto rec = doc_->recording();
        double rate = 0;
        long long samples = 0;
        if (rec)
            for (const auto& s : widgets::signalList(*rec)) {
                if (s.rateHz > 0 && (rate == 0 || s.rateHz < rate)) rate = s.rateHz;
                if (s.samples > 0 && (samples == 0 || s.samples < samples)) samples = s.samples;
            }
        box->setRecording(rate, samples);  // a band the new recording cannot hold is refused here
        psd_->clear();
        refreshSpectrogram();
    });
    connect(doc_, &Document::filtersChanged, this, &SpectraController::refreshSpectrogram);
    connect(doc_, &Document::regionsChanged, this, [this] { spectrogram_->setRegions(doc_->regions()); });
    connect(signal_, &widgets::SignalView::currentChannelChanged, this, &SpectraController::refreshSpectrogram);
    connect(signal_, &widgets::SignalView::windowChanged, spectrogram_, &widgets::SpectrogramView::setWindow);
    connect(signal_, &widgets::SignalView::cursorMoved, spectrogram_, &widgets::SpectrogramView::setCursorTime);
    connect(spectrogram_, &widgets::SpectrogramView::cursorMoved, signal_, &widgets::SignalView::setCursorTime);
    connect(psd_, &widgets::PsdView::computeRequested, this, &SpectraController::computeSpectrum);
    spectrogram_->alignWith(signal_->plot());
    applyBand();
}

void SpectraController::applyBand() {
    widgets::FrequencyBandBox* box = metric_->frequencyBands();
    const auto band = box->band();
    doc_->setFrequencyBand(band);
    signal_->setDisplayBand(band && box->filterDisplay() ? band : std::nullopt);
    spectrogram_->setBandEdges(band ? band->lowHz : 0, band ? band->highHz : 0);
    std::vector<widgets::PsdBandMark> marks;
    bool chosenIsPreset = false;
    for (const auto& p : compute::spectral::bandPresets()) {
        const bool chosen = band && *band == p;
        chosenIsPreset |= chosen;
        marks.push_back({QString::fromStdString(p.name), p.lowHz, p.highHz, chosen});
    }
    if (band && !chosenIsPreset) marks.push_back({QString::fromStdString(band->label()), band->lowHz, band->highHz, true});
    psd_->setBands(std::move(marks));
}

void SpectraController::refreshSpectrogram() {
    const auto rec = doc_->recording();
    const int channel = signal_->currentChannel();
    if (!rec || channel < 0 || channel >= int(widgets::signalList(*rec).size())) {
        spectrogram_->clearChannel();
        return;
    }
    const auto& s = widgets::signalList(*rec)[std::size_t(channel)];
    const io::FilterSettings filters = doc_->filters();
    // What the samples are: frames of another recording, montage, channel or filters are
    // never shown for these.
    std::string key = rec->path() + "|" + s.displayName + "|" + std::to_string(channel);
    for (const auto& m : doc_->montage()) key += "|" + m;
    if (filters.enabled()) key += "|" + widgets::filterSummary(filters).toStdString() + "|" + std::to_string(filters.order);
    const double rate = s.rateHz;
    const long long total = s.samples;
    widgets::SpectrogramView::Reader read = [rec, channel, filters, rate, total](long long start, long long count) {
        if (!filters.enabled()) return rec->read(channel, start, count);
        // The traces' filters, settled over two seconds read on each side and cut away again.
        const long long margin = (long long)(2 * rate);
        const long long a = std::max(0LL, start - margin), b = std::min(total, start + count + margin);
        std::vector<float> v = io::applyFilters(rec->read(channel, a, b - a), rate, filters, true);
        return std::vector<float>(v.begin() + (start - a), v.begin() + (start - a) + count);
    };
    spectrogram_->setChannel(channel, QString::fromStdString(s.displayName), rate, total,
                             widgets::displayUnit(QString::fromStdString(s.unit)), key, std::move(read));
    spectrogram_->setRegions(doc_->regions());
    spectrogram_->setWindow(signal_->windowStart(), signal_->windowLength());
}

quint64 SpectraController::computeSpectrum() {
    const auto rec = doc_->recording();
    const QString title = tr("Power spectrum");
    if (!rec) {
        Q_EMIT errorOccurred(title, tr("Open a recording first."));
        return 0;
    }
    const int channel = std::max(0, signal_->currentChannel());
    const auto& info = widgets::signalList(*rec)[std::size_t(channel)];
    const double rate = info.rateHz;
    const long long n = info.samples;
    if (!(rate > 0) || n <= 0) {
        Q_EMIT errorOccurred(title, tr("%1 has no samples or no sampling rate.").arg(QString::fromStdString(info.displayName)));
        return 0;
    }
    const QString name = QString::fromStdString(info.displayName);
    struct Part { QString label; std::vector<Span> spans; };
    std::vector<Part> parts;
    QString what;
    const auto source = psd_->source();
    if (source == widgets::PsdView::Source::VisibleWindow) {
        const double s = signal_->windowStart(), e = s + signal_->windowLength();
        const long long a = std::clamp<long long>((long long)std::floor(s * rate), 0, n), b = std::clamp<long long>((long long)std::floor(e * rate), 0, n);
        what = tr("%1, %2–%3 s").arg(name).arg(s, 0, 'f', 1).arg(e, 0, 'f', 1);
        parts.push_back({tr("visible window %1–%2 s").arg(s, 0, 'f', 1).arg(e, 0, 'f', 1), {{a, b}}});
    } else if (source == widgets::PsdView::Source::SelectedRegion) {
        const int index = signal_->selectedRegion();
        if (index < 0 || index >= int(doc_->regions().size())) {
            Q_EMIT errorOccurred(title, tr("Select a region first (click inside it, or pick it in the Regions list)."));
            return 0;
        }
        const io::Region& r = doc_->regions()[std::size_t(index)];
        const int ch = r.channel >= 0 ? r.channel : channel;
        if (ch != channel) {
            Q_EMIT errorOccurred(title, tr("The selected region lies on %1; click that channel first.").arg(doc_->channelName(ch)));
            return 0;
        }
        const long long a = std::clamp<long long>((long long)std::floor(r.startS * rate), 0, n),
                        b = std::clamp<long long>((long long)std::floor(r.endS * rate), 0, n);
        const QString kind = widgets::regionKindLabel(r.kind).toLower();
        what = tr("%1, %2 %3–%4 s").arg(name, kind).arg(r.startS, 0, 'f', 1).arg(r.endS, 0, 'f', 1);
        parts.push_back({tr("%1 %2–%3 s").arg(kind).arg(r.startS, 0, 'f', 1).arg(r.endS, 0, 'f', 1), {{a, b}}});
    } else {
        const auto kind = io::RegionKind(psd_->regionKind());
        const QString label = widgets::regionKindLabel(kind).toLower();
        const std::vector<Span> in = kindSpans(doc_->regions(), kind, channel, rate, n);
        if (in.empty()) {
            Q_EMIT errorOccurred(title, tr("No %1 region on %2: mark or import one first.").arg(label, name));
            return 0;
        }
        const std::vector<Span> out = complement(in, n);
        auto seconds = [rate](const std::vector<Span>& v) {
            long long c = 0;
            for (const Span& s : v) c += s.second - s.first;
            return double(c) / rate;
        };
        what = tr("%1, %2 regions against the rest").arg(name, label);
        parts.push_back({tr("%1 (%n region(s), %2 s)", nullptr, int(in.size())).arg(label).arg(seconds(in), 0, 'f', 1), in});
        if (!out.empty()) parts.push_back({tr("rest (%1 s)").arg(seconds(out), 0, 'f', 1), out});
    }
    compute::spectral::WelchOptions o;
    o.segmentLength = welchSegment(rate);
    const io::FilterSettings filters = doc_->filters();
    const bool filtered = filters.applyToAnalysis && filters.enabled();
    const QString unit = widgets::displayUnit(QString::fromStdString(info.unit));
    const QString file = QFileInfo(doc_->path()).fileName();
    const auto band = doc_->frequencyBand();
    const QString sourceText = tr("Power spectrum of %1 · %2%3%4").arg(what, file)
                                   .arg(filtered ? tr(" · filtered %1").arg(widgets::filterSummary(filters)) : QString())
                                   .arg(band ? tr(" · band %1 drawn, not applied").arg(QString::fromStdString(band->describe())) : QString());
    auto* view = psd_;
    Q_EMIT viewRequested(view);
    return runner_->submit("psd", sourceText, {}, [=](const compute::RunOptions& ro) -> JobRunner::Apply {
        std::vector<widgets::PsdCurve> curves;
        std::size_t segments = 0;
        QStringList skipped;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            std::vector<std::vector<float>> data;
            for (const Span& s : parts[i].spans) {
                std::vector<float> v = rec->read(channel, s.first, s.second - s.first);
                if (filtered) v = io::applyFilters(std::move(v), rate, filters, true);
                data.push_back(std::move(v));
                if (ro.cancel && ro.cancel->cancelled()) return {};
            }
            std::vector<std::span<const float>> spans(data.begin(), data.end());
            try {
                const compute::spectral::Spectrum sp = compute::spectral::welch(spans, rate, o);
                curves.push_back({parts[i].label, sp.frequencyHz, sp.power, int(sp.segments)});
                segments += sp.segments;
            } catch (const compute::EngineError& e) {
                // The rest of a channel that is nearly all seizure may hold no whole segment:
                // the other curves still show, and the title says what is missing and why.
                if (!e.isBadInput() || i == 0) throw;
                skipped << tr("%1: %2").arg(parts[i].label, QString::fromStdString(e.what()));
            }
            if (ro.progress) ro.progress(double(i + 1) / double(parts.size()));
        }
        const QString params = tr("Welch: %1-sample (%2 s) Hann segments, 50 % overlap, mean removed, density; %n segment(s)",
                                  nullptr, int(segments)).arg(o.segmentLength).arg(double(o.segmentLength) / rate, 0, 'f', 2) +
                             (skipped.isEmpty() ? QString() : tr(" · not shown: %1").arg(skipped.join("; ")));
        return [=] { view->setSpectra(curves, unit, sourceText, params); };
    });
}

}  // namespace warplab::app
