#include "widgets/detection_view.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <QBuffer>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "io/events_tsv.h"
#include "io/score_json.h"
#include "widgets/atomic_file.h"
#include "widgets/counted.h"
#include "widgets/elided_label.h"

namespace warplab::widgets {

namespace {

// The target false-positive rate's slider: 0.01 % .. 100 % on a log scale, 100 steps a decade.
constexpr int kSliderMax = 400;
double fprOfSlider(int v) { return 1e-4 * std::pow(10.0, v / 100.0); }
int sliderOfFpr(double fpr) { return std::clamp(int(std::lround(100.0 * std::log10(std::max(fpr, 1e-4) / 1e-4))), 0, kSliderMax); }

QString ratioText(double v, int digits = 2) { return std::isnan(v) ? QStringLiteral("n/a") : QString::number(v, 'f', digits); }

QString recordingStem(const std::string& name) {
    QString s = QFileInfo(QString::fromStdString(name)).completeBaseName();
    if (s.isEmpty()) s = QStringLiteral("recording");
    return s;
}

enum Column { Recording, Hours, Seizures, Detected, FalseAlarms, Sensitivity, Precision, F1, FpPerDay, Latency, Columns };

}  // namespace

DetectionView::DetectionView(QWidget* parent) : QWidget(parent) {
    setObjectName("detectionView");
    auto* layout = new QVBoxLayout(this);
    source_ = new ElidedLabel;
    source_->setObjectName("detectionSource");
    layout->addWidget(source_);

    // The operating point and the votes: every change re-scores at once.
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Thresholds at")));
    pointBox_ = new QComboBox;
    pointBox_->setObjectName("detectionOperatingPoint");
    pointBox_->addItem(tr("the Youden point"));
    pointBox_->addItem(tr("a false-positive rate of"));
    pointBox_->setToolTip(tr("Where each pattern's threshold lies on its training ROC: the largest TPR − FPR, or the "
                             "largest distance whose share of interictal training epochs within it stays under the target"));
    controls->addWidget(pointBox_);
    fprSlider_ = new QSlider(Qt::Horizontal);
    fprSlider_->setObjectName("detectionFprSlider");
    fprSlider_->setRange(0, kSliderMax);
    fprSlider_->setMinimumWidth(60);
    controls->addWidget(fprSlider_, 1);
    fprBox_ = new QDoubleSpinBox;
    fprBox_->setObjectName("detectionFpr");
    fprBox_->setRange(0.01, 100);
    fprBox_->setDecimals(2);
    fprBox_->setSuffix(tr(" %"));
    fprBox_->setValue(1);
    fprSlider_->setValue(sliderOfFpr(0.01));
    controls->addWidget(fprBox_);
    layout->addLayout(controls);
    // The votes and the cost of a re-scoring on a line of their own: the dock stays narrow
    // enough to sit beside the traces on a 1280-pixel screen.
    auto* rule = new QHBoxLayout;
    controls = rule;
    controls->addWidget(new QLabel(tr("Votes")));
    votesBox_ = new QSpinBox;
    votesBox_->setObjectName("detectionVotes");
    votesBox_->setRange(1, 1);
    votesBox_->setToolTip(tr("Patterns within their threshold for an epoch to count as a seizure"));
    controls->addWidget(votesBox_);
    timing_ = new QLabel;
    timing_->setObjectName("detectionTiming");
    controls->addWidget(timing_);
    controls->addStretch();
    layout->addLayout(controls);

    summary_ = new QLabel;
    summary_->setObjectName("detectionSummary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    legend_ = new QLabel;
    legend_->setObjectName("detectionLegend");
    legend_->setTextFormat(Qt::RichText);
    legend_->setWordWrap(true);
    layout->addWidget(legend_);

    auto* split = new QSplitter(Qt::Vertical);
    timeline_ = new DetectionTimeline;
    timelineScroll_ = new QScrollArea;
    timelineScroll_->setWidget(timeline_);
    timelineScroll_->setWidgetResizable(true);
    timelineScroll_->setMinimumHeight(90);
    split->addWidget(timelineScroll_);
    table_ = new QTableWidget(0, Columns);
    table_->setObjectName("detectionFolds");
    // Short headings, so that the table fits a dock beside the traces; the tooltips say them whole.
    table_->setHorizontalHeaderLabels({tr("Held out"), tr("Hours"), tr("Seizures"), tr("Found"), tr("False alarms"),
                                       tr("Sens."), tr("Prec."), tr("F1"), tr("FP/24 h"), tr("Latency (s)")});
    const QString tips[Columns] = {tr("The recording held out of training and scored"), tr("Its length, hours"),
                                   tr("Seizures marked in it"), tr("Seizures the detector found (SzCORE event scoring)"),
                                   tr("Detections that touch no seizure"), tr("Event sensitivity"), tr("Event precision"),
                                   tr("Event F1"), tr("False alarms per 24 hours"),
                                   tr("Onset delay of each found seizure (negative: before the marked onset)")};
    for (int c = 0; c < Columns; ++c) table_->horizontalHeaderItem(c)->setToolTip(tips[c]);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    exportEvents_ = new QPushButton(tr("Export events…"));
    exportEvents_->setObjectName("detectionExportEvents");
    exportEvents_->setToolTip(tr("One BIDS events table (<recording>_events.tsv) per held-out recording, into a folder"));
    exportScores_ = new QPushButton(tr("Export scores…"));
    exportScores_->setObjectName("detectionExportScores");
    buttons->addWidget(exportEvents_);
    buttons->addWidget(exportScores_);
    layout->addLayout(buttons);

    connect(pointBox_, &QComboBox::currentIndexChanged, this, [this] {
        syncControls();
        rescoreNow();
    });
    connect(fprSlider_, &QSlider::valueChanged, this, [this](int v) {
        if (syncing_) return;
        syncing_ = true;
        fprBox_->setValue(100.0 * fprOfSlider(v));
        syncing_ = false;
        if (pointBox_->currentIndex() != 1) pointBox_->setCurrentIndex(1);  // re-scores
        else rescoreNow();
    });
    connect(fprBox_, &QDoubleSpinBox::valueChanged, this, [this](double pct) {
        if (syncing_) return;
        syncing_ = true;
        fprSlider_->setValue(sliderOfFpr(pct / 100.0));
        syncing_ = false;
        if (pointBox_->currentIndex() != 1) pointBox_->setCurrentIndex(1);
        else rescoreNow();
    });
    connect(votesBox_, &QSpinBox::valueChanged, this, [this] {
        if (!syncing_) rescoreNow();
    });
    connect(timeline_, &DetectionTimeline::eventClicked, this, [this](const TimelineEvent& e) { activateEvent(e); });
    connect(timeline_, &DetectionTimeline::foldClicked, this, [this](int fold) { table_->selectRow(fold); });
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) { timeline_->setCurrentFold(row); });
    connect(exportEvents_, &QPushButton::clicked, this, [this] { askExportEvents(); });
    connect(exportScores_, &QPushButton::clicked, this, [this] { askExportScores(); });
    clear();
}

DetectionView::~DetectionView() = default;

void DetectionView::clear() {
    cache_.reset();
    result_ = {};
    timeline_->setResult(nullptr);
    table_->setRowCount(0);
    source_->setFullText(tr("No detector cross-validated yet: open a study with seizures in two recordings or more, "
                            "then Analysis ▸ Cross-validate a seizure detector."));
    summary_->clear();
    legend_->clear();
    timing_->clear();
    for (QWidget* w : std::initializer_list<QWidget*>{pointBox_, fprSlider_, fprBox_, votesBox_, exportEvents_, exportScores_})
        w->setEnabled(false);
}

void DetectionView::setCache(std::shared_ptr<const compute::CrossvalCache> cache, const QString& description) {
    if (!cache) {
        clear();
        return;
    }
    cache_ = std::move(cache);
    source_->setFullText(description);
    std::size_t patterns = std::numeric_limits<std::size_t>::max();
    for (const auto& f : cache_->folds) patterns = std::min(patterns, f.detector.patterns.size());
    if (cache_->folds.empty()) patterns = 1;
    const auto& build = cache_->options.build;
    syncing_ = true;
    votesBox_->setRange(1, int(std::max<std::size_t>(1, patterns)));
    votesBox_->setValue(build.rule.votes);
    pointBox_->setCurrentIndex(build.operatingPoint.kind == compute::OperatingPoint::Kind::Youden ? 0 : 1);
    if (build.operatingPoint.kind == compute::OperatingPoint::Kind::FalsePositiveRate) {
        fprBox_->setValue(100.0 * build.operatingPoint.target);
        fprSlider_->setValue(sliderOfFpr(build.operatingPoint.target));
    }
    syncing_ = false;
    for (QWidget* w : std::initializer_list<QWidget*>{pointBox_, votesBox_, exportEvents_, exportScores_}) w->setEnabled(true);
    syncControls();
    rescoreNow();
}

void DetectionView::syncControls() {
    // The rate's slider and box stay live under the Youden point: a rate set there switches to
    // it (a disabled box would leave the user looking for how to type one).
    fprSlider_->setEnabled(bool(cache_));
    fprBox_->setEnabled(bool(cache_));
}

compute::OperatingPoint DetectionView::operatingPoint() const {
    if (pointBox_->currentIndex() == 0) return {};
    return {compute::OperatingPoint::Kind::FalsePositiveRate, fprBox_->value() / 100.0};
}

void DetectionView::setOperatingPoint(const compute::OperatingPoint& op) {
    if (op.kind == compute::OperatingPoint::Kind::Youden) {
        if (pointBox_->currentIndex() == 0) rescoreNow();
        else pointBox_->setCurrentIndex(0);
        return;
    }
    syncing_ = true;
    fprSlider_->setValue(sliderOfFpr(op.target));
    syncing_ = false;
    fprBox_->setValue(100.0 * op.target);  // re-scores (and selects the target rate)
    if (pointBox_->currentIndex() != 1) pointBox_->setCurrentIndex(1);
    else rescoreNow();
}

void DetectionView::setVotes(int votes) { votesBox_->setValue(votes); }
int DetectionView::votes() const { return votesBox_->value(); }

void DetectionView::rescoreNow() {
    if (!cache_ || syncing_) return;
    const auto t0 = std::chrono::steady_clock::now();
    compute::DetectorRule rule = cache_->options.build.rule;
    rule.votes = votesBox_->value();
    try {
        result_ = compute::rescore(*cache_, operatingPoint(), rule, cache_->options.event, cache_->options.sample);
    } catch (const std::exception& e) {
        summary_->setText(tr("Cannot score at this setting: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    lastMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ++rescores_;
    timeline_->setResult(&result_);
    // Every row in view when there is room: the table below gets the rest.
    timelineScroll_->setMinimumHeight(std::min(timeline_->sizeHint().height() + 2 * timelineScroll_->frameWidth() + 2, 300));
    fillTable();
    const auto& e = result_.event;
    const auto& s = result_.sample;
    summary_->setText(tr("Pooled over %1 (%2 h of the study's %3 h scored): event sensitivity %4, precision %5, F1 %6, "
                         "%7 false alarms per 24 h; sample sensitivity %8, precision %9.")
                          .arg(counted(qint64(result_.folds.size()), tr("fold"), tr("folds")))
                          .arg(result_.testedS / 3600, 0, 'f', 2)
                          .arg(result_.totalS / 3600, 0, 'f', 2)
                          .arg(ratioText(e.sensitivity), ratioText(e.precision), ratioText(e.f1), ratioText(e.fpPerDay, 1),
                               ratioText(s.sensitivity), ratioText(s.precision)));
    const Counts c = counts();
    auto swatch = [](EventKind k, const QString& text) {
        // Each entry kept on one line: the legend wraps between entries only.
        return QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
            .arg(eventColor(k).name(), text.toHtmlEscaped().replace(' ', QStringLiteral("&nbsp;")));
    };
    legend_->setText(swatch(EventKind::Hit, counted(c.hits, tr("seizure detected"), tr("seizures detected"))) + "&nbsp;&nbsp; " +
                     swatch(EventKind::Miss, counted(c.misses, tr("seizure missed"), tr("seizures missed"))) + "&nbsp;&nbsp; " +
                     swatch(EventKind::Detection, counted(c.detections, tr("detection on a seizure"), tr("detections on a seizure"))) +
                     "&nbsp;&nbsp; " + swatch(EventKind::FalseAlarm, counted(c.falseAlarms, tr("false alarm"), tr("false alarms"))));
    legend_->setToolTip(tr("Seizures above each recording's line, the detector's events below it, as SzCORE scores them"));
    timing_->setText(tr("re-scored in %1 ms").arg(lastMs_, 0, 'f', lastMs_ < 10 ? 1 : 0));
}

DetectionView::Counts DetectionView::counts() const {
    Counts c;
    for (const auto& e : timeline_->events()) {
        switch (e.kind) {
        case EventKind::Hit: ++c.hits; break;
        case EventKind::Miss: ++c.misses; break;
        case EventKind::Detection: ++c.detections; break;
        case EventKind::FalseAlarm: ++c.falseAlarms; break;
        }
    }
    return c;
}

void DetectionView::fillTable() {
    const int keep = table_->currentRow();
    table_->setRowCount(int(result_.folds.size()));
    for (int r = 0; r < int(result_.folds.size()); ++r) {
        const auto& f = result_.folds[std::size_t(r)];
        long long detected = 0;
        QStringList latency;
        for (const auto& o : f.outcomes) {
            detected += o.detected ? 1 : 0;
            if (o.detected) latency << QString::number(o.latencyS, 'f', 1);
        }
        const QString cells[Columns] = {QString::fromStdString(f.recording),
                                        QString::number(f.durationS / 3600, 'f', 2),
                                        QString::number(f.outcomes.size()),
                                        QString::number(detected),
                                        QString::number(f.event.fp),
                                        ratioText(f.event.sensitivity),
                                        ratioText(f.event.precision),
                                        ratioText(f.event.f1),
                                        ratioText(f.event.fpPerDay, 1),
                                        latency.isEmpty() ? QStringLiteral("n/a") : latency.join(", ")};
        for (int c = 0; c < Columns; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c != Recording && c != Latency) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == Recording) item->setToolTip(tr("Trained on %1").arg(counted(qint64(f.training.size()), tr("recording"), tr("recordings"))));
            table_->setItem(r, c, item);
        }
    }
    if (keep >= 0 && keep < table_->rowCount()) table_->selectRow(keep);
}

QString DetectionView::summary() const { return summary_->text(); }

DetectionPlace DetectionView::placeOf(const TimelineEvent& e) const {
    DetectionPlace place;
    if (!cache_ || e.fold < 0 || e.fold >= int(result_.folds.size()) || e.fold >= int(cache_->folds.size())) return place;
    const auto& fold = result_.folds[std::size_t(e.fold)];
    const auto& cached = cache_->folds[std::size_t(e.fold)];
    const compute::Detector& d = fold.detector;
    place.recording = fold.recordingIndex;
    place.recordingName = QString::fromStdString(fold.recording);
    place.startS = e.startS;
    place.endS = e.endS;
    place.rateHz = d.rateHz;
    // The epochs that overlap the event; the pattern nearest to one of them, relative to its threshold.
    const auto& dist = cached.detection.distances;
    const std::size_t nE = dist.empty() ? 0 : dist.front().size();
    if (nE == 0 || d.patterns.empty()) return place;
    const double first = std::ceil((e.startS * d.rateHz - d.epoch) / d.stride);
    const std::size_t j0 = std::size_t(std::clamp(first, 0.0, double(nE - 1)));
    const std::size_t j1 = std::size_t(std::clamp(std::floor(e.endS * d.rateHz / d.stride), double(j0), double(nE - 1)));
    double best = std::numeric_limits<double>::infinity();
    std::size_t bp = 0, bj = j0;
    for (std::size_t p = 0; p < d.patterns.size() && p < dist.size(); ++p) {
        const double t = d.patterns[p].threshold;
        for (std::size_t j = j0; j <= j1; ++j) {
            const double score = t > 0 ? dist[p][j] / t : dist[p][j] - t;
            if (score < best) {
                best = score;
                bp = p;
                bj = j;
            }
        }
    }
    const auto& pat = d.patterns[bp];
    place.channel = QString::fromStdString(pat.channel);
    place.patternStartS = double(bj) * d.stride / d.rateHz;
    place.pattern = pat.samples;
    place.distance = dist[bp][bj];
    place.threshold = pat.threshold;
    return place;
}

void DetectionView::activateEvent(const TimelineEvent& event) {
    timeline_->setCurrentFold(event.fold);
    table_->selectRow(event.fold);
    Q_EMIT placeActivated(placeOf(event));
}

QString DetectionView::exportEvents(const QString& folder) const {
    if (!cache_) return tr("There are no detections to export.");
    if (!QFileInfo(folder).isDir()) return tr("%1 is not a folder.").arg(QDir::toNativeSeparators(folder));
    for (const auto& f : result_.folds) {
        io::EventTable table;
        table.recordingDurationS = f.durationS;
        std::string channels;
        for (const auto& c : f.detector.channels()) channels += (channels.empty() ? "" : ",") + c;
        for (const auto& e : f.detections) {
            io::EventRow row;
            row.onsetS = e.startS;
            row.durationS = e.endS - e.startS;
            row.eventType = "sz";
            row.channels = channels;
            row.confidence = e.confidence;
            table.rows.push_back(std::move(row));
        }
        const std::string text = io::formatEventsTsv(table);
        const QString path = QDir(folder).filePath(recordingStem(f.recording) + QStringLiteral("_events.tsv"));
        const QString error = writeFileAtomically(path, [&](QIODevice& out) {
            return out.write(text.data(), qint64(text.size())) == qint64(text.size());
        });
        if (!error.isEmpty()) return error;
    }
    return {};
}

QString DetectionView::exportScores(const QString& path) const {
    if (!cache_) return tr("There are no scores to export.");
    std::string text;
    if (path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) {
        nlohmann::ordered_json j;
        j["operating_point"] = compute::operatingPointName(operatingPoint());
        j["votes"] = votes();
        io::appendCrossvalJson(j, result_);
        text = j.dump(2) + "\n";
    } else {
        auto num = [](double v) { return std::isnan(v) ? std::string() : nlohmann::json(v).dump(); };
        text = "recording,duration_s,seizures,detected,tp,fp,sensitivity,precision,f1,fp_per_day,sample_sensitivity,"
               "sample_precision\n";
        auto row = [&](const std::string& name, double dur, std::size_t sz, long long det, const compute::DetectionScores& e,
                       const compute::DetectionScores& s) {
            std::string quoted = "\"";
            for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
            quoted += "\"";
            text += quoted + "," + num(dur) + "," + std::to_string(sz) + "," + std::to_string(det) + "," + std::to_string(e.tp) +
                    "," + std::to_string(e.fp) + "," + num(e.sensitivity) + "," + num(e.precision) + "," + num(e.f1) + "," +
                    num(e.fpPerDay) + "," + num(s.sensitivity) + "," + num(s.precision) + "\n";
        };
        std::size_t allSz = 0;
        long long allDet = 0;
        for (const auto& f : result_.folds) {
            long long det = 0;
            for (const auto& o : f.outcomes) det += o.detected ? 1 : 0;
            allSz += f.outcomes.size();
            allDet += det;
            row(f.recording, f.durationS, f.outcomes.size(), det, f.event, f.sample);
        }
        row("pooled", result_.testedS, allSz, allDet, result_.event, result_.sample);
    }
    return writeFileAtomically(path, [&](QIODevice& out) { return out.write(text.data(), qint64(text.size())) == qint64(text.size()); });
}

void DetectionView::askExportEvents() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Export detections: a folder for the events tables"));
    if (folder.isEmpty()) return;
    const QString error = exportEvents(folder);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Export events"), error);
}

void DetectionView::askExportScores() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export detection scores"), QStringLiteral("detection_scores.json"),
                                                      tr("JSON (*.json);;CSV (*.csv)"));
    if (path.isEmpty()) return;
    const QString error = exportScores(path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Export scores"), error);
}

}  // namespace warplab::widgets
