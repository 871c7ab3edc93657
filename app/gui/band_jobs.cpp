#include "app/gui/band_jobs.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include <QStringList>

#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/result_sources.h"
#include "app/gui/search_scope.h"
#include "compute/engine/engine.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/spectral/band_filter.h"
#include "io/filters.h"
#include "widgets/band_comparison_view.h"
#include "widgets/frequency_band_box.h"
#include "widgets/metric_panel.h"
#include "widgets/search_options_bar.h"
#include "widgets/search_results_view.h"
#include "widgets/signal_view.h"

namespace warplab::app {
namespace {

using compute::spectral::FrequencyBand;

const io::Region* lastOfKind(const std::vector<io::Region>& regions, io::RegionKind kind) {
    for (auto it = regions.rbegin(); it != regions.rend(); ++it)
        if (it->kind == kind) return &*it;
    return nullptr;
}

// The series filtered to `band` as Document::segment filters it (the same samples, the
// same zero-phase band-pass); a band the series cannot hold throws, naming the band.
compute::Series inBand(const compute::Series& s, double rate, const FrequencyBand& band) {
    return compute::Series(compute::spectral::bandFilter(std::span<const float>(s.values), rate, band), 1, s.name);
}

// One row per band, each filled by `fill(row, band, options)` with its own share of the job's
// progress. A band the engine refuses (too narrow for the rate, a series too short for it)
// is that row's error; anything else, a device fault, is the job's. Empty when cancelled.
template <class Row, class Fill>
std::optional<std::vector<Row>> eachBand(const std::vector<FrequencyBand>& bands, const compute::RunOptions& o, Fill fill) {
    std::vector<Row> rows;
    for (std::size_t i = 0; i < bands.size(); ++i) {
        Row r{};
        r.band = bands[i];
        compute::RunOptions sub = o;
        sub.progress = [&o, i, n = bands.size()](double f) {
            if (o.progress) o.progress((double(i) + std::clamp(f, 0.0, 1.0)) / double(n));
        };
        try {
            fill(r, bands[i], sub);
        } catch (const compute::EngineError& e) {
            if (!e.isBadInput()) throw;
            r.error = QString::fromStdString(e.what());
        }
        rows.push_back(std::move(r));
        if (o.cancel && o.cancel->cancelled()) return std::nullopt;
    }
    if (o.progress) o.progress(1.0);
    return rows;
}

}  // namespace

BandJobs::BandJobs(Document* doc, JobRunner* runner, widgets::SignalView* signal, widgets::MetricPanel* metric,
                   widgets::SearchResultsView* search, widgets::BandComparisonView* view, QObject* parent)
    : QObject(parent), doc_(doc), runner_(runner), signal_(signal), metric_(metric), search_(search), view_(view) {}

QString BandJobs::bandList() const {
    QStringList names;
    for (const auto& b : metric_->frequencyBands()->comparedBands()) names << QString::fromStdString(b.label());
    return names.join(", ");
}

quint64 BandJobs::findPatterns(int channel, int epoch, int stride) {
    const QString title = tr("Seizure patterns per frequency band");
    auto rec = doc_->recording();
    const auto bands = metric_->frequencyBands()->comparedBands();
    if (!rec || channel < 0 || channel >= int(widgets::signalList(*rec).size())) return 0;
    if (bands.empty()) {
        Q_EMIT errorOccurred(title, tr("Choose at least one band in the Metric panel's Compare… (under Frequency band)."));
        return 0;
    }
    const auto& info = widgets::signalList(*rec)[std::size_t(channel)];
    compute::PatternRequest req;
    for (const auto& r : doc_->regions())
        if (r.kind == io::RegionKind::Seizure && (r.channel < 0 || r.channel == channel)) req.seizures.push_back({r.startS, r.endS});
    if (req.seizures.empty()) {
        Q_EMIT errorOccurred(title, tr("Mark or import at least one seizure region on %1 (File ▸ Import seizures, "
                                       "or 'Mark: Seizure' and drag).").arg(doc_->channelName(channel)));
        return 0;
    }
    req.sampleCount = info.samples;
    req.rateHz = info.rateHz;
    req.channel = info.displayName;
    req.epoch = epoch;
    req.stride = stride;
    req.band = metric_->params().band;
    req.reader = [](long long, long long, float*) {};  // the checks below need a source; the job reads
    try {
        compute::validatePatternRequest(req);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(title, QString::fromStdString(e.what()));
        return 0;
    }
    req.reader = {};
    req.sampleCount = 0;
    const io::FilterSettings filters = doc_->filters();
    const bool filtered = filters.applyToAnalysis && filters.enabled();
    const compute::Params p = metric_->params();
    const QString what = tr("Seizure patterns of %1 per frequency band (%2)").arg(doc_->channelName(channel), bandList());
    const QString source = tr("%1 · %2").arg(what, resultContext(*doc_, p, "bands.patterns", what));
    auto* view = view_;
    Q_EMIT viewRequested(view);
    return runner_->submit("bands", what, metric_->runOptions(), [=](const compute::RunOptions& o) -> JobRunner::Apply {
        // The channel once, as analysed without a band; each band filters its own copy.
        std::vector<float> raw = rec->read(channel, 0, info.samples);
        if (filtered) raw = io::applyFilters(std::move(raw), info.rateHz, filters, true);
        auto results = eachBand<widgets::BandPatterns>(bands, o, [&](auto& r, const FrequencyBand& band, const compute::RunOptions& sub) {
            const std::vector<float> x = compute::spectral::bandFilter(std::span<const float>(raw), info.rateHz, band);
            compute::PatternRequest q = req;
            q.samples = std::span<const float>(x);
            r.ranking = std::make_shared<compute::PatternRanking>(compute::findPatterns(q, sub));
        });
        if (!results) return {};
        return [=, rows = std::move(*results)] { view->setPatterns(rows, source); };
    });
}

quint64 BandJobs::searchQuery(int topK) {
    const QString title = tr("Search per frequency band");
    const io::Region* q = lastOfKind(doc_->regions(), io::RegionKind::Query);
    auto rec = doc_->recording();
    const auto bands = metric_->frequencyBands()->comparedBands();
    if (!q || !rec) {
        Q_EMIT errorOccurred(title, tr("Mark a query region first (choose 'Query' in 'Mark' and drag over the signal)."));
        return 0;
    }
    if (bands.empty()) {
        Q_EMIT errorOccurred(title, tr("Choose at least one band in the Metric panel's Compare… (under Frequency band)."));
        return 0;
    }
    const int channel = q->channel >= 0 ? q->channel : std::max(0, signal_->currentChannel());
    compute::Series query, reference;
    try {
        query = doc_->segment(channel, q->startS, q->endS, false);
        reference = doc_->segment(channel, 0, rec->durationS(), false);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(title, QString::fromStdString(e.what()));
        return 0;
    }
    const double rate = doc_->channelRate(channel);
    compute::Params p = metric_->params();
    p.metric = compute::Metric::Sdtw;
    p.topk = topK;
    // The options of the Search panel, as the one-band search takes them.
    const widgets::SearchChoice choice = search_->options()->choice();
    const std::size_t m = query.length;
    const std::size_t first = std::size_t(std::max(0LL, (long long)std::floor(q->startS * rate)));
    const compute::SearchScope scope = applySearchChoice(choice, first, m, rate, p);
    std::vector<std::pair<double, double>> seizures;
    for (const auto& r : doc_->regions())
        if (r.kind == io::RegionKind::Seizure && (r.channel < 0 || r.channel == channel)) seizures.push_back({r.startS, r.endS});
    const QString what = tr("Top %1 matches of the query %2–%3 s in %4 per frequency band (%5%6)")
                             .arg(topK).arg(q->startS, 0, 'f', 2).arg(q->endS, 0, 'f', 2).arg(doc_->channelName(channel), bandList())
                             .arg(choice.window ? tr("; z-normalised window search") : QString());
    const QString source = tr("%1 · %2").arg(what, resultContext(*doc_, p, "bands.search", what));
    const double duration = double(reference.length) / rate, queryS = double(m) / rate;
    const bool window = choice.window;
    auto* view = view_;
    Q_EMIT viewRequested(view);
    return runner_->submit("bands", what, metric_->runOptions(), [=](const compute::RunOptions& o) -> JobRunner::Apply {
        auto results = eachBand<widgets::BandMatches>(bands, o, [&](auto& r, const FrequencyBand& band, const compute::RunOptions& sub) {
            const compute::Series qb = inBand(query, rate, band), rb = inBand(reference, rate, band);
            r.matches = window ? compute::Engine::windowSearch(qb, rb, p, sub, scope) : compute::Engine::search(qb, rb, p, sub, scope);
        });
        if (!results) return {};
        return [=, rows = std::move(*results)] { view->setSearch(rows, channel, rate, queryS, seizures, duration, source); };
    });
}

quint64 BandJobs::channelDistanceMatrix() {
    const QString title = tr("Distance matrices per frequency band");
    auto rec = doc_->recording();
    const auto bands = metric_->frequencyBands()->comparedBands();
    if (!rec) return 0;
    if (bands.empty()) {
        Q_EMIT errorOccurred(title, tr("Choose at least one band in the Metric panel's Compare… (under Frequency band)."));
        return 0;
    }
    double s = std::clamp(signal_->windowStart(), 0.0, rec->durationS());
    const double e = std::clamp(s + signal_->windowLength(), s, rec->durationS());
    compute::SeriesSet set;
    std::vector<double> rates;
    try {
        for (int c = 0; c < int(widgets::signalList(*rec).size()); ++c) {
            set.push_back(doc_->segment(c, s, e, false));
            rates.push_back(doc_->channelRate(c));
        }
    } catch (const std::exception& ex) {
        Q_EMIT errorOccurred(title, QString::fromStdString(ex.what()));
        return 0;
    }
    const compute::Params p = metric_->params();
    const QString what = tr("channels × channels, %1–%2 s, per frequency band (%3)").arg(s, 0, 'f', 1).arg(e, 0, 'f', 1).arg(bandList());
    const QString source = tr("Distance matrices (%1) · %2").arg(what, resultContext(*doc_, p, "bands.matrix", what));
    auto* view = view_;
    Q_EMIT viewRequested(view);
    return runner_->submit("bands", tr("Distance matrices (%1)").arg(what), metric_->runOptions(),
                           [=](const compute::RunOptions& o) -> JobRunner::Apply {
        auto results = eachBand<widgets::BandMatrix>(bands, o, [&](auto& r, const FrequencyBand& band, const compute::RunOptions& sub) {
            compute::SeriesSet filtered;
            for (std::size_t c = 0; c < set.size(); ++c) filtered.push_back(inBand(set[c], rates[c], band));
            auto m = std::make_shared<compute::DistanceMatrix>(compute::Engine::distanceMatrix(filtered, nullptr, p, sub));
            m->rowNames.clear();
            for (const auto& series : set) m->rowNames.push_back(series.name);
            m->colNames = m->rowNames;
            r.matrix = m;
        });
        if (!results) return {};
        return [=, rows = std::move(*results)] { view->setMatrices(rows, source); };
    });
}

}  // namespace warplab::app
