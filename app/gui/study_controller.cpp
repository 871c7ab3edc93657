#include "app/gui/study_controller.h"

#include <algorithm>
#include <cmath>

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QStringList>

#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "compute/engine/engine.h"
#include "compute/engine/multi_search.h"
#include "compute/patterns/pattern_discovery.h"
#include "app/gui/study_missing_dialog.h"
#include "io/io_error.h"
#include "io/study_summary.h"
#include "widgets/study_access.h"
#include "widgets/metric_panel.h"
#include "widgets/signal_view.h"
#include "widgets/study_navigator.h"
#include "widgets/study_results_view.h"

namespace warplab::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

const io::Region* lastQuery(const std::vector<io::Region>& regions) {
    for (auto it = regions.rbegin(); it != regions.rend(); ++it)
        if (it->kind == io::RegionKind::Query) return &*it;
    return nullptr;
}

// Lines of the missing-files question before the rest goes under "Show Details".
constexpr int kMaxDialogLines = 14;

// Rows beyond this are not worth a table line (the ranking export has them all).
constexpr std::size_t kMaxPatternRows = 200;

}  // namespace

StudyController::StudyController(Document* doc, JobRunner* runner, widgets::SignalView* signal, widgets::MetricPanel* metric,
                                 widgets::StudyNavigator* navigator, widgets::StudyResultsView* results, QObject* parent)
    : QObject(parent), doc_(doc), runner_(runner), signal_(signal), metric_(metric), navigator_(navigator), results_(results) {
    confirm_ = [this](const QString& title, const QString& text) {
        // A summary may name dozens of absent files: the box shows the first ones and keeps the
        // whole list under "Show Details", so that its buttons stay on the screen.
        QStringList lines = text.split('\n');
        QMessageBox box(QMessageBox::Question, title, text, QMessageBox::Yes | QMessageBox::Cancel, signal_ ? signal_->window() : nullptr);
        box.setObjectName("studyMissingDialog");
        box.setTextFormat(Qt::PlainText);  // file names from the summary: never HTML
        if (lines.size() > kMaxDialogLines) {
            const QString question = lines.takeLast();
            const int more = int(lines.size()) - kMaxDialogLines + 2;
            lines = lines.mid(0, kMaxDialogLines - 2);
            lines << tr("… and %1 more (Show Details…)").arg(more) << QString() << question;
            box.setText(lines.join('\n'));
            box.setDetailedText(text);
        }
        box.setDefaultButton(QMessageBox::Yes);
        return box.exec() == QMessageBox::Yes;
    };
    chooseFolder_ = [this](const QString& title, const QString& text, const QStringList& paths, const QString& start) {
        StudyMissingDialog dialog(title, text, paths, start, signal_ ? signal_->window() : nullptr);
        return dialog.exec() == QDialog::Accepted ? dialog.folder() : QString();
    };
    connect(doc_, &Document::recordingChanged, this, [this] { syncCurrentFromDocument(); });
    connect(signal_, &widgets::SignalView::windowChanged, this, [this] { updateNavigator(); });
    connect(doc_, &Document::regionsChanged, this, [this] {
        if (!switching_) updateSeizureMarks();
    });
    connect(navigator_, &widgets::StudyNavigator::placeActivated, this, [this](int recording, double seconds) { goTo(recording, seconds); });
    connect(results_, &widgets::StudyResultsView::placeActivated, this,
            [this](int recording, const QString& channel, double startS, double endS) { goTo(recording, startS, endS, channel); });
}

StudyController::~StudyController() = default;

bool StudyController::open(const QString& path, const QString& summary) {
    std::unique_ptr<io::Study> st;
    // A folder with its CHB-MIT summary beside the recordings: seizures from the summary
    // (a summary that does not parse is said, and the folder opens without it).
    io::StudyOptions options;
    QStringList notes;
    if (QFileInfo(path).isDir()) {
        const std::string found = summary.isEmpty() ? io::chbSummaryInFolder(path.toStdString()) : summary.toStdString();
        if (!found.empty()) {
            try {
                io::parseChbSummary(found);
                options.seizureSummary = found;
            } catch (const std::exception& e) {
                notes << tr("The summary beside the recordings is not used: %1").arg(q(e.what()));
            }
        }
    }
    try {
        st = io::Study::open(path.toStdString(), options);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Cannot open the study %1").arg(QFileInfo(path).fileName()), q(e.what()));
        return false;
    }
    const auto& recs = st->recordings();
    QStringList bad;
    for (int i : st->missing()) bad << tr("%1: missing (%2)").arg(q(recs[std::size_t(i)].name), q(recs[std::size_t(i)].error));
    for (int i : st->damaged()) bad << tr("%1: damaged (%2)").arg(q(recs[std::size_t(i)].name), q(recs[std::size_t(i)].error));
    const auto first = std::find_if(recs.begin(), recs.end(), [](const io::StudyRecording& r) { return r.status == io::RecordingStatus::Ok; });
    if (first == recs.end() && st->source() == io::StudySource::Summary) {
        // A summary copied without its recordings: name it, list the paths it looked for, and
        // offer to open the folder where they are.
        const QString name = QFileInfo(path).fileName(), folder = QFileInfo(path).absolutePath();
        QStringList paths;
        for (const auto& r : recs) paths << QDir::toNativeSeparators(QFileInfo(q(r.path)).absoluteFilePath());
        const QString title = tr("Cannot open the study %1").arg(name);
        const QString where = QDir::toNativeSeparators(folder);
        const QString text = recs.size() == 1
                                 ? tr("The recording named by the summary %1 cannot be read. The summary looks for it in "
                                      "its own folder, %2; this file is not there:").arg(name, where)
                                 : tr("None of the %3 recordings named by the summary %1 can be read. The summary looks "
                                      "for them in its own folder, %2; these files are not there:")
                                       .arg(name, where, QString::number(recs.size()));
        const QString chosen = chooseFolder_ ? chooseFolder_(title, text, paths, folder) : QString();
        if (!chosen.isEmpty()) return open(chosen, QFileInfo(path).absoluteFilePath());
        return false;
    }
    if (first == recs.end()) {
        QStringList shown = bad.mid(0, kMaxDialogLines);
        if (bad.size() > shown.size()) shown << tr("… and %1 more").arg(bad.size() - shown.size());
        Q_EMIT errorOccurred(tr("Cannot open the study %1").arg(QFileInfo(path).fileName()),
                             recs.size() == 1 ? tr("Its recording cannot be read:\n\n%1").arg(shown.join('\n'))
                                              : tr("None of its %1 recordings can be read:\n\n%2")
                                                    .arg(QString::number(recs.size()), shown.join('\n')));
        return false;
    }
    if (!bad.isEmpty() &&
        !confirm_(tr("Open study"), tr("%1 of the %2 recordings of this study cannot be read:\n\n%3\n\nGo on with the "
                                           "other recordings?").arg(bad.size()).arg(recs.size()).arg(bad.join('\n'))))
        return false;
    runner_->cancelAll();  // study jobs of the previous study read through it
    study_ = std::shared_ptr<io::Study>(std::move(st));
    summaryUsed_ = study_->source() == io::StudySource::Summary ? path : q(options.seizureSummary);
    current_ = -1;
    regions_.clear();
    navigator_->setStudy(study_);
    results_->clear();
    if (!goTo(int(first - study_->recordings().begin()), 0)) return false;
    if (!study_->warnings().empty() || !notes.isEmpty()) {
        QStringList w = notes;
        for (const auto& s : study_->warnings()) w << q(s);
        Q_EMIT warningsReady(tr("Study warnings"), w.join('\n'));
    }
    Q_EMIT studyChanged();
    return true;
}

void StudyController::close() {
    if (!study_) return;
    runner_->cancelAll();
    study_.reset();
    summaryUsed_.clear();
    current_ = -1;
    regions_.clear();
    navigator_->setStudy(nullptr);
    results_->clear();
    Q_EMIT studyChanged();
}

std::vector<io::Region> StudyController::keptRegions(int recording) const {
    if (recording == current_ && recording >= 0) return doc_->keptRegions();
    if (auto it = regions_.find(recording); it != regions_.end()) return it->second;
    std::vector<io::Region> out;
    if (!study_ || recording < 0) return out;
    // Not visited yet: its seizures (summary, annotations, user regions) as seizure regions.
    const auto& rec = study_->recordings()[std::size_t(recording)];
    for (const auto& s : study_->seizures()) {
        if (s.recording != recording || s.startS >= rec.durationS) continue;  // a summary about a longer file
        const int channel = s.channel < 0 ? -1 : study_->channels()[std::size_t(s.channel)].signalOf[std::size_t(recording)];
        out.push_back({io::RegionKind::Seizure, channel, s.startS, std::min(s.endS, rec.durationS), s.source});
    }
    return out;
}

std::vector<io::Region> StudyController::regionsOf(int recording) const {
    std::vector<io::Region> out;
    if (!study_ || recording < 0 || recording >= int(study_->recordings().size())) return out;
#pragma push_macro("signals")
#undef signals
    const std::vector<io::SignalInfo>& recorded = study_->recordings()[std::size_t(recording)].signals;
#pragma pop_macro("signals")
    for (io::Region r : keptRegions(recording)) {
        if (!r.channelLabel.empty()) {
            const auto it = std::find_if(recorded.begin(), recorded.end(),
                                         [&](const io::SignalInfo& s) { return s.displayName == r.channelLabel; });
            if (it == recorded.end()) continue;
            r.channel = int(it - recorded.begin());
        }
        out.push_back(std::move(r));
    }
    return out;
}

void StudyController::storeCurrentRegions() {
    if (study_ && current_ >= 0) regions_[current_] = doc_->keptRegions();
}

void StudyController::updateSeizureMarks() {
    if (!study_) return;
    std::vector<widgets::SeizureMark> marks;
    for (int i = 0; i < int(study_->recordings().size()); ++i)
        for (const io::Region& r : keptRegions(i))
            if (r.kind == io::RegionKind::Seizure) marks.push_back({i, r.startS, r.endS});
    navigator_->setSeizures(std::move(marks));
}

void StudyController::syncCurrentFromDocument() {
    if (switching_ || !study_) return;
    // The user opened a file himself (File ▸ Open, a session): is it one of the study's?
    const int index = study_->findRecording(doc_->path().toStdString());
    if (index != current_) {
        current_ = index;
        updateNavigator();
    }
}

void StudyController::updateNavigator() {
    if (study_) navigator_->setCurrent(current_, signal_->windowStart(), signal_->windowLength());
}

bool StudyController::goTo(int recording, double startS, double endS, const QString& channel) {
    if (recording < 0) recording = current_;
    if (study_ && recording >= 0 && recording != current_) {
        if (recording >= int(study_->recordings().size())) return false;
        const io::StudyRecording& r = study_->recordings()[std::size_t(recording)];
        if (r.status != io::RecordingStatus::Ok) {
            Q_EMIT errorOccurred(tr("Cannot open %1").arg(q(r.name)),
                                 tr("This recording is %1: %2").arg(QString::fromLatin1(io::recordingStatusName(r.status).data()), q(r.error)));
            return false;
        }
        storeCurrentRegions();
        const std::vector<io::Region> regions = keptRegions(recording);
        switching_ = true;
        const bool ok = doc_->open(q(r.path));
        switching_ = false;
        if (!ok) return false;
        current_ = recording;
        doc_->setRegions(regions);
        updateSeizureMarks();
    }
    if (!doc_->recording()) return false;
    int ch = -1;
    if (!channel.isEmpty()) {
        ch = doc_->recording()->findSignal(channel.toStdString());
        if (ch >= 0) signal_->setCurrentChannel(ch);
    }
    const double len = signal_->windowLength();
    const double centre = endS > startS ? (startS + endS) / 2 : startS;
    signal_->setWindow(std::max(0.0, centre - len / 2), len);
    if (endS > startS) signal_->setHighlight(ch, startS, endS);
    updateNavigator();
    return true;
}

quint64 StudyController::searchQuery(SearchScope scope, int topK) {
    const io::Region* region = lastQuery(doc_->regions());
    auto rec = doc_->recording();
    if (!region || !rec) {
        Q_EMIT errorOccurred(tr("Search"), tr("Mark a query region first (choose 'Query' in 'Mark' and drag over the signal)."));
        return 0;
    }
    if ((scope == SearchScope::StudyChannel || scope == SearchScope::StudyAllChannels) && !study_) {
        Q_EMIT errorOccurred(tr("Search"), tr("Open a study first (File ▸ Open study)."));
        return 0;
    }
    const int channel = region->channel >= 0 ? region->channel : std::max(0, signal_->currentChannel());
    compute::Series query;
    std::vector<compute::SearchSource> sources;
    std::vector<std::string> skipped;
    const QString channelName = doc_->channelName(channel);
    QString where;
    try {
        query = doc_->segment(channel, region->startS, region->endS);
        if (scope == SearchScope::Channel || scope == SearchScope::AllChannels) {
            // The open recording, as the signal view shows it (montage and analysis filters).
            const auto& sigs = widgets::signalList(*rec);
            const io::FilterSettings filters = doc_->filters();
            const std::string name = QFileInfo(doc_->path()).fileName().toStdString();
            const double clock0 = study_ && current_ >= 0 ? study_->recordings()[std::size_t(current_)].offsetS : 0;
            for (int c = 0; c < int(sigs.size()); ++c) {
                if (scope == SearchScope::Channel && c != channel) continue;
                const auto info = sigs[std::size_t(c)];
                compute::SearchSource s;
                s.recording = name;
                s.channel = info.displayName;
                s.recordingIndex = current_;
                s.channelIndex = c;
                s.rateHz = info.rateHz;
                s.clockStartS = clock0;
                s.load = [rec, c, info, filters] {
                    std::vector<float> v = rec->read(c, 0, info.samples);
                    if (filters.applyToAnalysis && filters.enabled()) v = io::applyFilters(std::move(v), info.rateHz, filters, true);
                    return compute::Series(std::move(v), 1, info.displayName);
                };
                sources.push_back(std::move(s));
            }
            where = scope == SearchScope::Channel ? channelName : tr("every channel of %1").arg(q(name));
        } else {
            std::vector<int> channels;
            if (scope == SearchScope::StudyChannel) {
                const int sc = study_->findChannel(channelName.toStdString());
                if (sc < 0) throw io::IoError(study_->sourcePath(), "channel", "the study has no channel " + channelName.toStdString());
                channels.push_back(sc);
                where = tr("%1 in every recording of the study").arg(channelName);
            } else {
                for (int c = 0; c < int(study_->channels().size()); ++c) channels.push_back(c);
                where = tr("every channel of every recording of the study");
            }
            sources = io::studySearchSources(*study_, channels, &skipped);
        }
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Search"), q(e.what()));
        return 0;
    }
    if (sources.empty()) {
        Q_EMIT errorOccurred(tr("Search"), tr("Nothing to search in %1.").arg(where));
        return 0;
    }
    // The Search panel's mode, band, precision and "include the query itself", as for one channel.
    const widgets::SearchChoice choice = searchChoice_ ? searchChoice_() : widgets::SearchChoice{};
    const std::size_t m = query.length;
    compute::Params p = metric_->params();
    p.metric = compute::Metric::Sdtw;
    p.topk = topK;
    const int band = int(std::floor(choice.bandPercent / 100.0 * double(m)));
    if (choice.window) {
        p.metric = compute::Metric::Cdtw;
        p.band = band;
        p.cost = compute::Cost::Squared;
    }
    const bool window = choice.window, half2 = choice.half2 && !choice.window;
    // The query would find itself in the series it was cut from (the open recording, its
    // channel), so no match overlapping its samples there is reported, as the single-channel
    // search does; other series are searched whole.
    const double queryRate = doc_->channelRate(channel);
    const std::size_t first = std::size_t(std::max(0LL, (long long)std::floor(region->startS * queryRate)));
    const std::size_t toleranceSamples = std::size_t(std::llround(choice.toleranceS * queryRate));
    const int ownRecording = current_;
    const int ownChannel = (scope == SearchScope::Channel || scope == SearchScope::AllChannels)
                               ? channel
                               : (study_ ? study_->findChannel(channelName.toStdString()) : -1);
    const bool studyScope = scope == SearchScope::StudyChannel || scope == SearchScope::StudyAllChannels;
    auto isOwn = [=](const compute::SearchSource& s) {
        return s.channelIndex == ownChannel && (!studyScope || (ownRecording >= 0 && s.recordingIndex == ownRecording));
    };
    const bool selfExcluded = !choice.includeSelf && std::any_of(sources.begin(), sources.end(), isOwn);
    const compute::SeriesSearch perSeries = [=](const compute::Series& qs, const compute::Series& ref,
                                                const compute::SearchSource& src, const compute::Params& pp,
                                                const compute::RunOptions& ro) {
        compute::SearchScope sc;
        // No match overlapping the query's samples there (overlap_exclusion.h).
        if (selfExcluded && isOwn(src) && m > 0) sc.spans = {compute::ExcludedSpan{first, first + m - 1, toleranceSamples}};
        if (half2) sc.precision = compute::SearchPrecision::Half2;
        return window ? compute::Engine::windowSearch(qs, ref, pp, ro, sc) : compute::Engine::search(qs, ref, pp, ro, sc);
    };
    const QString how = window ? tr("z-normalised window search, band %1").arg(band)
                               : (half2 ? tr("subsequence DTW, half2") : tr("subsequence DTW"));
    const QString desc = tr("Top %1 matches of the query %2–%3 s (%4) in %5: %6 series searched (%8%9)%7")
                             .arg(topK).arg(region->startS, 0, 'f', 2).arg(region->endS, 0, 'f', 2).arg(channelName, where)
                             .arg(sources.size())
                             .arg(skipped.empty() ? QString() : tr("; skipped: %1").arg(q([&] {
                                 std::string all;
                                 for (const auto& s : skipped) all += (all.empty() ? "" : "; ") + s;
                                 return all;
                             }())))
                             .arg(how)
                             .arg(selfExcluded ? tr("; its own place excluded: no match overlaps the query") : QString());
    auto study = study_;  // the sources read through it: it lives as long as the job
    // Without a study, the open recording's own start gives the clock column (as the signal
    // view's clock axis does); empty when the file has no start time.
    const QDateTime recordingStart = QDateTime::fromString(q(rec->startIso()), Qt::ISODate);
    auto* view = results_;
    Q_EMIT viewRequested(view);
    // Bound to the study (rows name its recordings): survives opening another recording. The
    // open recording's channels without a study: "the open one" changes, so it does not.
    const QString slot = study && current_ >= 0 ? QStringLiteral("study.search") : QStringLiteral("allChannelsSearch");
    return runner_->submit(slot, desc, metric_->runOptions(), [=](const compute::RunOptions& o) -> JobRunner::Apply {
        std::vector<std::size_t> tooShort;
        const auto matches = compute::searchSources(query, sources, p, o, perSeries, &tooShort);
        std::vector<widgets::StudyResultRow> rows;
        for (const compute::SourceMatch& m : matches) {
            const compute::SearchSource& s = sources[m.source];
            widgets::StudyResultRow row;
            row.value = m.match.cost;
            row.recording = s.recordingIndex;
            row.recordingName = q(s.recording);
            row.channel = q(s.channel);
            row.startS = m.startS;
            row.endS = m.endS;
            if (study && s.recordingIndex >= 0)
                row.clock = q(study->clockTime(s.recordingIndex, m.startS));
            else if (recordingStart.isValid())
                row.clock = recordingStart.addMSecs(std::llround(m.startS * 1000.0)).toString("yyyy-MM-ddTHH:mm:ss.zzz");
            rows.push_back(std::move(row));
        }
        return [=]() mutable {
            view->setRows(std::move(rows), tr("cost"),
                          tooShort.empty() ? desc : desc + tr(" (%1 series shorter than the query skipped)").arg(tooShort.size()));
        };
    });
}

quint64 StudyController::findPatterns(int documentChannel, int epoch, int stride) {
    if (!study_) {
        Q_EMIT errorOccurred(tr("Seizure patterns"), tr("Open a study first (File ▸ Open study)."));
        return 0;
    }
    storeCurrentRegions();  // the user's seizures of the open recording count too
    const QString channelName = doc_->channelName(documentChannel);
    compute::PatternRequest req;
    std::vector<std::string> skipped;
    try {
        const int sc = study_->findChannel(channelName.toStdString());
        if (sc < 0) throw io::IoError(study_->sourcePath(), "channel", "the study has no channel " + channelName.toStdString());
        req = io::studyPatternRequest(*study_, sc, &skipped);
        // Each recording's seizures are its region list as the user keeps it (regionsOf).
        for (compute::PatternSegment& seg : req.segments) {
            seg.seizures.clear();
            const int signal = study_->channels()[std::size_t(sc)].signalOf[std::size_t(seg.recordingIndex)];
            for (const io::Region& r : regionsOf(seg.recordingIndex))
                if (r.kind == io::RegionKind::Seizure && (r.channel < 0 || r.channel == signal)) seg.seizures.push_back({r.startS, r.endS});
        }
        req.epoch = epoch;
        req.stride = stride;
        req.band = metric_->params().band;
        compute::validatePatternRequest(req);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Seizure patterns"), q(e.what()));
        return 0;
    }
    auto study = study_;
    auto* view = results_;
    QString skippedText;
    for (const auto& s : skipped) skippedText += (skippedText.isEmpty() ? "" : ", ") + q(s);
    Q_EMIT viewRequested(view);
    return runner_->submit("study.patterns", tr("Seizure patterns of %1 over the study").arg(channelName), metric_->runOptions(),
                           [=](const compute::RunOptions& o) -> JobRunner::Apply {
        const compute::PatternRanking ranking = compute::findPatterns(req, o);
        std::vector<widgets::StudyResultRow> rows;
        const double length = double(ranking.epoch) / ranking.rateHz;
        for (std::size_t k = 0; k < ranking.ranked.size() && k < kMaxPatternRows; ++k) {
            const compute::PatternScore& p = ranking.ranked[k];
            const compute::SegmentSummary& seg = ranking.segments[p.segment];
            widgets::StudyResultRow row;
            row.value = p.quality;
            row.recording = seg.recordingIndex;
            row.recordingName = q(seg.recording);
            row.channel = q(ranking.channel);
            row.startS = p.startS;
            row.endS = p.startS + length;
            row.clock = q(study->clockTime(seg.recordingIndex, p.startS));
            rows.push_back(std::move(row));
        }
        QString desc = tr("Seizure patterns of %1 over %2 recordings: %3 patterns × %4 epochs (%5 ictal), e = %6, s = %7, w = %8, "
                          "%9 s; best first (quality = AUC)")
                           .arg(q(ranking.channel)).arg(ranking.segments.size()).arg(ranking.patternCount).arg(ranking.epochCount)
                           .arg(ranking.ictalCount).arg(ranking.epoch).arg(ranking.stride).arg(ranking.band).arg(ranking.seconds, 0, 'f', 2);
        if (!skippedText.isEmpty()) desc += tr("; skipped: %1").arg(skippedText);
        return [=]() mutable { view->setRows(std::move(rows), tr("quality"), desc); };
    });
}

void StudyController::capture(io::Session& s) {
    s.studyPath.clear();
    s.studyRegions.clear();
    if (!study_) return;
    storeCurrentRegions();
    s.studyPath = study_->sourcePath();
    for (const auto& [index, regions] : regions_)
        s.studyRegions[study_->recordings()[std::size_t(index)].name] = regions;
}

bool StudyController::restoreStudy(const io::Session& s) {
    if (s.studyPath.empty()) {
        close();
        return true;
    }
    return open(q(s.studyPath));
}

void StudyController::restoreRegions(const io::Session& s) {
    if (!study_) return;
    regions_.clear();
    syncCurrentFromDocument();
    for (const auto& [name, regions] : s.studyRegions) {
        const int index = study_->findRecording(name);
        if (index < 0 || index == current_) continue;  // the open one's came with the session's regions
        regions_[index] = regions;
    }
    updateSeizureMarks();
    updateNavigator();
}

}  // namespace warplab::app
