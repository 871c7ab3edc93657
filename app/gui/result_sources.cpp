#include "app/gui/result_sources.h"

#include <QDateTime>
#include <QFileInfo>
#include <qcustomplot.h>

#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "widgets/alignment_view.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/filter_text.h"
#include "widgets/metric_panel.h"
#include "widgets/patterns_view.h"
#include "widgets/plot_export.h"
#include "widgets/recording_access.h"
#include "widgets/search_results_view.h"
#include "widgets/counted.h"

namespace warplab::app {

QString resultSource(const Document& doc, const compute::Params& p, const QString& slot, const QString& what) {
    return QObject::tr("%1 · %2").arg(what, resultContext(doc, p, slot, what));
}

QString resultContext(const Document& doc, const compute::Params& panel, const QString& slot, const QString& what) {
    const auto rec = doc.recording();
    const QString file = doc.path().isEmpty() ? QObject::tr("no recording") : QFileInfo(doc.path()).fileName();
    const int channels = rec ? int(widgets::signalList(*rec).size()) : 0;
    const QString set = doc.montage().empty()
                            ? QObject::tr("%1 as recorded").arg(widgets::counted(channels, QObject::tr("channel"), QObject::tr("channels")))
                            : QObject::tr("montage of %1").arg(widgets::counted(channels, QObject::tr("derivation"), QObject::tr("derivations")));
    // What the job really ran: the search is subsequence DTW, the patterns cdtw in the panel's band.
    compute::Params p = panel;
    // Per-band jobs ("bands.patterns", ...) name their bands in `what`, not the panel's band.
    const bool perBand = slot.startsWith(QStringLiteral("bands."));
    const QString kind = perBand ? slot.mid(6) : slot;
    if (kind == "patterns") p.metric = compute::Metric::Cdtw;
    if (kind == "search") p.metric = compute::Metric::Sdtw;
    QString metric = QString::fromLatin1(compute::metricName(p.metric).data());
    if (kind == "search" && what.contains(QObject::tr("window search"))) metric = QObject::tr("cdtw (z-normalised)");
    if (p.metric == compute::Metric::Cdtw) metric += QObject::tr(", band %1 samples").arg(p.band);
    else if (kind != "search") metric += QObject::tr(", no band");
    const QString filters = widgets::filterSummary(doc.filters());
    QString analysed = filters.isEmpty() || !doc.filters().applyToAnalysis ? QString() : QObject::tr(" · filtered %1").arg(filters);
    if (const auto& band = doc.frequencyBand(); band && !perBand)
        analysed += QObject::tr(" · frequency band %1").arg(QString::fromStdString(band->describe()));
    return QObject::tr("%1 · %2 · %3%4").arg(file, set, metric, analysed);
}

ResultSources::ResultSources(Document* doc, JobRunner* runner, Views views, QObject* parent)
    : QObject(parent), doc_(doc), v_(views) {
    connect(runner, &JobRunner::jobStarted, this, [this](quint64 id, const QString& slot, const QString& title) {
        if (slot == "pair" || slot == "matrix" || slot == "search" || slot == "patterns")
            pending_[id] = {resultSource(*doc_, v_.metric->params(), slot, title), resultContext(*doc_, v_.metric->params(), slot, title)};
    });
    connect(runner, &JobRunner::jobFinished, this, [this](quint64 id, const QString& slot, qint64) {
        const auto it = pending_.find(id);
        if (it == pending_.end()) return;
        const Pending source = it->second;
        pending_.erase(it);
        // The matrix and the search already head their results with the job's title (range,
        // query): their first line adds where from; exported plots carry the whole title.
        const QString from = tr("from %1").arg(source.context);
        if (slot == "pair") {
            v_.cost->setSource(source.full);
            v_.alignment->setSource(source.full);
        } else if (slot == "matrix") {
            v_.distances->setSource(from);
            v_.distances->plot()->setProperty(widgets::kExportTitleProperty, source.full);
        } else if (slot == "search") {
            v_.search->setSource(from);
        } else if (slot == "patterns") {
            v_.patterns->setSource(source.full);
        }
    });
    connect(runner, &JobRunner::jobFailed, this, [this](quint64 id, const QString&, const QString&, const QString&) { pending_.erase(id); });
    connect(runner, &JobRunner::jobCancelled, this, [this](quint64 id, const QString&) { pending_.erase(id); });
    connect(doc_, &Document::recordingChanged, this, [this] {
        clearResults();
        const auto rec = doc_->recording();
        const QDateTime start = rec ? QDateTime::fromString(QString::fromStdString(rec->startIso()), Qt::ISODate) : QDateTime();
        QDateTime utc = start;
        if (utc.isValid()) utc.setTimeSpec(Qt::UTC);  // the recording's own clock, as the traces' axis
        v_.patterns->setClockStart(utc);
    });
}

void ResultSources::clearResults() {
    v_.cost->clear();
    v_.alignment->clear();
    v_.alignment->setSource({});
    v_.distances->clear();
    v_.search->clear();
    v_.patterns->clear();
    v_.patterns->setSource({});
}

}  // namespace warplab::app
