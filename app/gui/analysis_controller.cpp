#include "app/gui/analysis_controller.h"

#include <cmath>
#include <new>

#include "widgets/search_options_bar.h"
#include "widgets/search_results_view.h"

#include <algorithm>
#include <unistd.h>

#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/search_scope.h"
#include "compute/bench/bench.h"
#include "compute/engine/engine.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/spectral/band_filter.h"
#include "io/filters.h"
#include "io/region_labels.h"
#include "widgets/alignment_view.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/kernel_comparison_view.h"
#include "widgets/metric_panel.h"
#include "widgets/patterns_view.h"
#include "widgets/search_results_view.h"
#include "widgets/signal_view.h"

namespace warplab::app {
namespace {

QString bytesText(std::uint64_t b) {
    const double g = double(b) / (1024.0 * 1024 * 1024);
    return g >= 1 ? QObject::tr("%1 GiB").arg(g, 0, 'f', 1) : QObject::tr("%1 MiB").arg(double(b) / (1024.0 * 1024), 0, 'f', 1);
}

// [s, e] clipped to where the channel has samples (0 .. its samples / rate): a window or a
// region reaching past the end names, in every title, the stretch actually analysed.
void clipToChannel(const io::Recording& rec, int channel, double& s, double& e) {
    const auto& sigs = widgets::signalList(rec);
    if (channel < 0 || channel >= int(sigs.size()) || !(sigs[std::size_t(channel)].rateHz > 0)) return;
    const double end = double(sigs[std::size_t(channel)].samples) / sigs[std::size_t(channel)].rateHz;
    s = std::clamp(s, 0.0, end);
    e = std::clamp(e, s, end);
}

const io::Region* lastOfKind(const std::vector<io::Region>& regions, io::RegionKind kind) {
    for (auto it = regions.rbegin(); it != regions.rend(); ++it)
        if (it->kind == kind) return &*it;
    return nullptr;
}

}  // namespace

AnalysisController::AnalysisController(Document* doc, JobRunner* runner, Views views, QObject* parent)
    : QObject(parent), doc_(doc), runner_(runner), v_(views) {
    // The views are cleared with the recording (result_sources.h); so are their recipes.
    connect(doc_, &Document::recordingChanged, this, [this] { shown_.clear(); });
}

compute::Params AnalysisController::params() const { return v_.metric->params(); }

int AnalysisController::channelOf(int regionChannel) const {
    return regionChannel >= 0 ? regionChannel : std::max(0, v_.signal->currentChannel());
}

std::uint64_t AnalysisController::costMatrixBytes(std::size_t n, std::size_t m) {
    return std::uint64_t(n) * m * sizeof(double);
}

std::uint64_t AnalysisController::memoryBudget() {
    // A quarter of the physical memory, at most 1 GiB (a 11000 x 11000 pair): the matrix is
    // kept while it is shown, and the window must stay usable.
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    const std::uint64_t phys = pages > 0 && size > 0 ? std::uint64_t(pages) * std::uint64_t(size) : (8ULL << 30);
    return std::min<std::uint64_t>(phys / 4, 1ULL << 30);
}

quint64 AnalysisController::alignMarkedRegions() {
    const auto& regions = doc_->regions();
    const io::Region* q = lastOfKind(regions, io::RegionKind::Query);
    const io::Region* r = lastOfKind(regions, io::RegionKind::Reference);
    if (!q || !r) {
        Q_EMIT errorOccurred(tr("Align regions"),
                             tr("Mark a query region and a reference region first: choose the kind in 'Mark' above the "
                                "traces and drag over the signal (Ctrl+drag for one channel). Missing: %1.")
                                 .arg(!q && !r ? tr("query and reference") : !q ? tr("query") : tr("reference")));
        return 0;
    }
    return alignSegments(channelOf(q->channel), q->startS, q->endS, channelOf(r->channel), r->startS, r->endS);
}

quint64 AnalysisController::alignSegments(int cx, double sx, double ex, int cy, double sy, double ey) {
    if (auto rec = doc_->recording()) {
        clipToChannel(*rec, cx, sx, ex);
        clipToChannel(*rec, cy, sy, ey);
    }
    compute::Series x, y;
    try {
        x = doc_->segment(cx, sx, ex);
        y = doc_->segment(cy, sy, ey);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Align regions"), QString::fromStdString(e.what()));
        return 0;
    }
    const compute::Params p = params();
    const std::uint64_t need = costMatrixBytes(x.length, y.length), budget = this->budget();
    // Too large for a full cost matrix: the low-memory path computes the distance alone with
    // the fast kernels (no path), and the views say why no matrix is shown.
    const bool lowMemory = need > budget;
    const QString xName = tr("%1 [%2–%3 s]").arg(doc_->channelName(cx)).arg(sx, 0, 'f', 2).arg(ex, 0, 'f', 2);
    const QString yName = tr("%1 [%2–%3 s]").arg(doc_->channelName(cy)).arg(sy, 0, 'f', 2).arg(ey, 0, 'f', 2);
    const QString note = lowMemory ? tr("the full matrix would need %1, more than the %2 allowed").arg(bytesText(need), bytesText(budget)) : QString();
    auto* cost = v_.cost;
    auto* align = v_.alignment;
    const QString title = tr("%1 %2 × %3").arg(QString::fromLatin1(compute::metricName(p.metric).data()), xName, yName);
    AnalysisRecipe recipe = recipeOn(*doc_, AnalysisRecipe::Kind::Alignment, p);
    recipe.x = sampleCut(*doc_, cx, sx, ex);
    recipe.y = sampleCut(*doc_, cy, sy, ey);
    recipe.lowMemory = lowMemory;
    Q_EMIT viewRequested(cost);
    return runner_->submit("pair", title, v_.metric->runOptions(), [=, this](const compute::RunOptions& o) -> JobRunner::Apply {
        std::shared_ptr<compute::Alignment> a;
        if (lowMemory) {
            a = std::make_shared<compute::Alignment>();
            compute::SeriesSet qs{x}, ts{y};
            const compute::DistanceMatrix d = compute::Engine::distanceMatrix(qs, &ts, p, o);
            a->distance = d.at(0, 0);
            a->n = x.length;
            a->m = y.length;
        } else {
            // The job's token and progress: cancelling the alignment stops its worker.
            try {
                a = std::make_shared<compute::Alignment>(compute::Engine::align(x, y, p, true, o));
            } catch (const std::bad_alloc&) {
                // Within the budget, yet the host had less free than that: say how much was asked.
                throw compute::EngineError(compute::EngineError::Kind::Internal, "",
                                           tr("out of host memory: the %1 × %2 cost matrix needs %3 (choose shorter regions or a band)")
                                               .arg(x.length).arg(y.length).arg(bytesText(need)).toStdString());
            }
        }
        if (o.progress) o.progress(1.0);
        return [=, this] {
            shown_[cost] = shown_[align] = recipe;
            cost->setAlignment(a, x.values, y.values, xName, yName, note);
            align->setAlignment(a, x.values, y.values, xName, yName);
        };
    });
}

quint64 AnalysisController::channelDistanceMatrix() {
    auto rec = doc_->recording();
    if (!rec) return 0;
    double s = v_.signal->windowStart(), e = s + v_.signal->windowLength();
    // The window clipped to the recording's longest channel (rec->durationS()).
    s = std::clamp(s, 0.0, rec->durationS());
    e = std::clamp(e, s, rec->durationS());
    compute::SeriesSet set;
    try {
        for (int c = 0; c < int(widgets::signalList(*rec).size()); ++c) set.push_back(doc_->segment(c, s, e));
    } catch (const std::exception& ex) {
        Q_EMIT errorOccurred(tr("Distance matrix"), QString::fromStdString(ex.what()));
        return 0;
    }
    const compute::Params p = params();
    const std::uint64_t need = costMatrixBytes(set.size(), set.size());
    if (need > budget()) {
        Q_EMIT errorOccurred(tr("Distance matrix"), tr("%1 channels need %2 for the matrix, more than allowed").arg(set.size()).arg(bytesText(need)));
        return 0;
    }
    std::vector<Segment> segments;
    for (int ch = 0; ch < int(set.size()); ++ch) segments.push_back({ch, s, e});
    const QString title = tr("channels × channels, %1–%2 s").arg(s, 0, 'f', 1).arg(e, 0, 'f', 1);
    AnalysisRecipe recipe = recipeOn(*doc_, AnalysisRecipe::Kind::Matrix, p);
    for (int ch = 0; ch < int(set.size()); ++ch) recipe.rows.push_back(sampleCut(*doc_, ch, s, e));
    Q_EMIT viewRequested(v_.distances);
    return submitAllPairsMatrix(set, segments, p, title, recipe);
}

quint64 AnalysisController::submitAllPairsMatrix(const compute::SeriesSet& set, const std::vector<Segment>& segments,
                                                 const compute::Params& p, const QString& title,
                                                 const AnalysisRecipe& recipe) {
    auto* view = v_.distances;
    return runner_->submit("matrix", tr("Distance matrix (%1)").arg(title), v_.metric->runOptions(),
                           [=, this](const compute::RunOptions& o) -> JobRunner::Apply {
        auto m = std::make_shared<compute::DistanceMatrix>(compute::Engine::distanceMatrix(set, nullptr, p, o));
        m->rowNames.clear();
        for (const auto& series : set) m->rowNames.push_back(series.name);
        m->colNames = m->rowNames;
        return [=, this] {  // runs on the GUI thread, where the controller lives
            matrixRows_ = segments;
            shown_[view] = recipe;
            view->setFrequencyBand(recipe.freqBand);
            view->setMatrix(m, title);
            view->setRowLabels(regionLabels(segments), tr("region kind"));
        };
    });
}

// Each row's region kind ("seizure", ...), so that the matrix view can group the rows.
std::vector<std::string> AnalysisController::regionLabels(const std::vector<Segment>& segments) const {
    std::vector<std::string> out;
    for (const Segment& s : segments) out.push_back(io::regionKindLabel(doc_->regions(), s.channel, s.start, s.end));
    return out;
}

quint64 AnalysisController::openMatrixCell(int row, int col) {
    if (row < 0 || col < 0 || row >= int(matrixRows_.size()) || col >= int(matrixRows_.size())) return 0;
    const Segment a = matrixRows_[std::size_t(row)], b = matrixRows_[std::size_t(col)];
    return alignSegments(a.channel, a.start, a.end, b.channel, b.start, b.end);
}

quint64 AnalysisController::epochDistanceMatrix(int channel, double epochS, double strideS) {
    auto rec = doc_->recording();
    if (!rec || epochS <= 0 || strideS <= 0) return 0;
    compute::SeriesSet set;
    std::vector<Segment> segments;
    try {
        for (double t = 0; t + epochS <= rec->durationS() + 1e-9; t += strideS) {
            segments.push_back({channel, t, t + epochS});
            set.push_back(doc_->segment(channel, t, t + epochS));
            set.back().name = QString::number(t, 'f', 2).toStdString() + " s";
        }
    } catch (const std::exception& ex) {
        Q_EMIT errorOccurred(tr("Distance matrix"), QString::fromStdString(ex.what()));
        return 0;
    }
    if (costMatrixBytes(set.size(), set.size()) > budget()) {
        Q_EMIT errorOccurred(tr("Distance matrix"), tr("%1 epochs: the matrix would not fit in memory").arg(set.size()));
        return 0;
    }
    const compute::Params p = params();
    const QString title = tr("epochs of %1 (%2 s, stride %3 s)").arg(doc_->channelName(channel)).arg(epochS).arg(strideS);
    AnalysisRecipe recipe = recipeOn(*doc_, AnalysisRecipe::Kind::Matrix, p);
    recipe.x = sampleCut(*doc_, channel, 0, rec->durationS());
    recipe.epochS = epochS;
    recipe.strideS = strideS;
    recipe.durationS = rec->durationS();
    Q_EMIT viewRequested(v_.distances);  // the result docks are collapsed until asked for
    return submitAllPairsMatrix(set, segments, p, title, recipe);
}

quint64 AnalysisController::searchQuery(int topK) {
    const io::Region* q = lastOfKind(doc_->regions(), io::RegionKind::Query);
    auto rec = doc_->recording();
    if (!q || !rec) {
        Q_EMIT errorOccurred(tr("Search"), tr("Mark a query region first (choose 'Query' in 'Mark' and drag over the signal)."));
        return 0;
    }
    const int channel = channelOf(q->channel);
    compute::Series query, reference;
    try {
        query = doc_->segment(channel, q->startS, q->endS);
        reference = doc_->segment(channel, 0, rec->durationS());
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Search"), QString::fromStdString(e.what()));
        return 0;
    }
    compute::Params p = params();
    p.metric = compute::Metric::Sdtw;
    p.topk = topK;
    const double rate = doc_->channelRate(channel);
    auto* view = v_.search;
    auto* signal = v_.signal;
    // The options above the results; the query always comes from the searched
    // channel here, so its own place is excluded unless "include the query itself" is ticked.
    const widgets::SearchChoice choice = view->options()->choice();
    const std::size_t m = query.length;
    // The same first sample as Document::segment (floor).
    const std::size_t first = std::size_t(std::max(0LL, (long long)std::floor(q->startS * rate)));
    const compute::SearchScope scope = applySearchChoice(choice, first, m, rate, p);
    const QString how = choice.window ? tr("z-normalised window search, band %1").arg(p.band)
                                      : (choice.half2 ? tr("subsequence DTW, half2") : tr("subsequence DTW"));
    const QString desc = tr("Top %1 matches of the query %2–%3 s in %4 (%5%6)")
                             .arg(topK).arg(q->startS, 0, 'f', 2).arg(q->endS, 0, 'f', 2).arg(doc_->channelName(channel))
                             .arg(how)
                             .arg(choice.includeSelf ? QString()
                                  : choice.toleranceS > 0
                                      ? tr("; its own place excluded: no match overlaps the query by more than %1 s")
                                            .arg(choice.toleranceS)
                                      : tr("; its own place excluded: no match overlaps the query"));
    AnalysisRecipe recipe = recipeOn(*doc_, AnalysisRecipe::Kind::Search, p);
    recipe.x = sampleCut(*doc_, channel, q->startS, q->endS);
    recipe.y = sampleCut(*doc_, channel, 0, rec->durationS());
    recipe.topK = topK;
    recipe.window = choice.window;
    recipe.half2 = choice.half2 && !choice.window;
    recipe.includeSelf = choice.includeSelf;
    recipe.toleranceSamples = std::llround(choice.toleranceS * rate);
    Q_EMIT viewRequested(view);
    const bool window = choice.window;
    return runner_->submit("search", desc, v_.metric->runOptions(), [=, this](const compute::RunOptions& o) -> JobRunner::Apply {
        auto matches = window ? compute::Engine::windowSearch(query, reference, p, o, scope)
                              : compute::Engine::search(query, reference, p, o, scope);
        return [=, this] {
            shown_[view] = recipe;
            view->setMatches(matches, channel, rate, 0.0, desc);
            if (!matches.empty())
                signal->setHighlight(channel, matches[0].start / rate, (matches[0].end + 1) / rate);
        };
    });
}

quint64 AnalysisController::findPatterns(int channel, int epoch, int stride) {
    auto rec = doc_->recording();
    if (!rec || !v_.patterns) return 0;
    const auto& sigs = widgets::signalList(*rec);
    if (channel < 0 || channel >= int(sigs.size())) return 0;
    compute::PatternRequest req;
    for (const auto& r : doc_->regions())
        if (r.kind == io::RegionKind::Seizure && (r.channel < 0 || r.channel == channel)) req.seizures.push_back({r.startS, r.endS});
    if (req.seizures.empty()) {
        Q_EMIT errorOccurred(tr("Seizure patterns"), tr("Mark or import at least one seizure region on %1 (File ▸ Import seizures, "
                                                        "or 'Mark: Seizure' and drag).").arg(doc_->channelName(channel)));
        return 0;
    }
    const auto& info = sigs[std::size_t(channel)];
    req.sampleCount = info.samples;
    req.rateHz = info.rateHz;
    req.channel = info.displayName;
    req.epoch = epoch;
    req.stride = stride;
    req.band = params().band;
    // Read lazily from the recording: an hour-long channel is never copied whole.
    req.reader = [rec, channel](long long start, long long count, float* out) {
        const std::vector<float> v = rec->read(channel, start, count);
        std::copy(v.begin(), v.end(), out);
    };
    try {
        compute::validatePatternRequest(req);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Seizure patterns"), QString::fromStdString(e.what()));
        return 0;
    }
    auto* view = v_.patterns;
    const QString unit = QString::fromStdString(info.unit);
    compute::Params rp = params();
    rp.metric = compute::Metric::Cdtw;
    AnalysisRecipe recipe = recipeOn(*doc_, AnalysisRecipe::Kind::Patterns, rp);
    recipe.x = sampleCut(*doc_, channel, 0, rec->durationS());
    for (const auto& sz : req.seizures) recipe.seizures.push_back({sz.start, sz.end});
    recipe.epoch = epoch;
    recipe.stride = stride;
    // Filtered as every analysis is (filters applied to the analysis, the frequency band):
    // then the channel is read whole and filtered once, zero phase, in the job.
    const io::FilterSettings filters = doc_->filters();
    const bool filtered = filters.applyToAnalysis && filters.enabled();
    const auto freqBand = doc_->frequencyBand();
    Q_EMIT viewRequested(view);
    return runner_->submit("patterns", tr("Seizure patterns of %1").arg(doc_->channelName(channel)), v_.metric->runOptions(),
                           [=, this](const compute::RunOptions& o) -> JobRunner::Apply {
        std::vector<float> x;
        compute::PatternRequest r = req;
        if (filtered || freqBand) {
            x = rec->read(channel, 0, info.samples);
            if (filtered) x = io::applyFilters(std::move(x), info.rateHz, filters, true);
            if (freqBand) x = compute::spectral::bandFilter(std::span<const float>(x), info.rateHz, *freqBand);
            r.reader = {};
            r.sampleCount = 0;
            r.samples = std::span<const float>(x);
        }
        auto ranking = std::make_shared<compute::PatternRanking>(compute::findPatterns(r, o));
        widgets::PatternsView::SampleFetcher fetch = [rec, channel](long long start, long long count) {
            return rec->read(channel, start, count);
        };
        if (!x.empty()) {  // the excerpt shows the samples the patterns were cut from
            auto kept = std::make_shared<const std::vector<float>>(std::move(x));
            fetch = [kept](long long start, long long count) {
                const long long a = std::clamp<long long>(start, 0, (long long)kept->size());
                const long long b = std::clamp<long long>(start + count, a, (long long)kept->size());
                return std::vector<float>(kept->begin() + a, kept->begin() + b);
            };
        }
        return [=, this] {
            shown_[view] = recipe;
            view->setFrequencyBand(recipe.freqBand);
            view->setRanking(ranking, fetch, unit);
        };
    });
}

quint64 AnalysisController::runKernelComparison() {
    if (!v_.kernels) return 0;
    compute::BenchConfig config;
    try {
        config = v_.kernels->config();
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Kernel comparison"), QString::fromStdString(e.what()));
        return 0;
    }
    auto* view = v_.kernels;
    Q_EMIT viewRequested(view);
    return runner_->submit("bench", tr("Kernel comparison (%1)").arg(QString::fromLatin1(compute::metricName(config.params.metric).data())),
                           {}, [=](const compute::RunOptions& o) mutable -> JobRunner::Apply {
        config.progress = o.progress;
        config.cancel = o.cancel;
        // The same one way in as `warplab-cli bench`: engine rows, and a GPU's device-only rows.
        const compute::BenchReport report = compute::runBenchmark(config);
        return [=] {
            view->setResults(report.rows);
            if (report.ceiling) view->setCeiling(report.ceiling->cellsPerSecond, QString::fromStdString(report.ceiling->label));
            else view->setCeiling(0, {});
        };
    });
}

quint64 AnalysisController::alignExample() {
    auto rec = doc_->recording();
    if (!rec) return 0;
    const auto& regions = doc_->regions();
    if (!lastOfKind(regions, io::RegionKind::Query) || !lastOfKind(regions, io::RegionKind::Reference)) {
        const double d = rec->durationS();
        const double len = std::min(2.0, d / 4);
        io::Region q{io::RegionKind::Query, 0, std::min(1.0, d / 8), 0, "example"};
        q.endS = q.startS + len;
        io::Region r{io::RegionKind::Reference, 0, d / 2, d / 2 + len, "example"};
        doc_->addRegion(q);
        doc_->addRegion(r);
    }
    return alignMarkedRegions();
}

}  // namespace warplab::app
