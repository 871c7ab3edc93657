#include "app/gui/crossval_dialog.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace warplab::app {

namespace {

const QString kGroup = QStringLiteral("crossval/");

QSpinBox* intBox(int lo, int hi, const QString& suffix, const QString& tip) {
    auto* b = new QSpinBox;
    b->setRange(lo, hi);
    b->setSuffix(suffix);
    b->setToolTip(tip);
    return b;
}

QDoubleSpinBox* realBox(double lo, double hi, int decimals, const QString& suffix, const QString& tip) {
    auto* b = new QDoubleSpinBox;
    b->setRange(lo, hi);
    b->setDecimals(decimals);
    b->setSuffix(suffix);
    b->setToolTip(tip);
    return b;
}

}  // namespace

CrossvalDialog::CrossvalDialog(std::vector<Channel> channels, const QString& current, compute::CrossvalFolds folds,
                               int band, QWidget* parent)
    : QDialog(parent), channels_(std::move(channels)) {
    setWindowTitle(tr("Cross-validate a seizure detector"));
    setObjectName("crossvalDialog");

    channelList_ = new QListWidget;
    channelList_->setObjectName("crossvalChannels");
    channelList_->setToolTip(tr("The channels whose patterns make the detector (--channel); with several, their "
                                "patterns vote together"));
    for (const Channel& c : channels_) {
        auto* item = new QListWidgetItem(c.name, channelList_);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    channelList_->setMinimumHeight(120);
    top_ = intBox(1, 1000, QString(), tr("The best patterns of each channel's ranking kept in the detector (--top)"));
    top_->setObjectName("crossvalTop");
    votes_ = intBox(1, 100000, QString(), tr("Patterns within their threshold for an epoch to be positive (--votes)"));
    votes_->setObjectName("crossvalVotes");
    point_ = new QComboBox;
    point_->setObjectName("crossvalOperatingPoint");
    point_->addItem(tr("Youden point (largest TPR − FPR)"));
    point_->addItem(tr("Target epoch false-positive rate"));
    point_->setToolTip(tr("Where each pattern's threshold lies on its training ROC (--operating-point youden or "
                          "fpr:RATE); the Detection view can move it afterwards without recomputing"));
    fpr_ = realBox(0.01, 100, 2, tr(" %"),
                   tr("The largest share of a pattern's interictal training epochs allowed within its threshold"));
    fpr_->setObjectName("crossvalFpr");
    // One line each: a wrapped label in a form row is given too little height and is cut.
    fprHint_ = new QLabel;
    fprHint_->setObjectName("crossvalFprHint");
    minEpochs_ = intBox(1, 10000, QString(), tr("Positive epochs an event needs (--min-epochs)"));
    minEpochs_->setObjectName("crossvalMinEpochs");
    eventGap_ = realBox(0, 86400, 1, tr(" s"), tr("Detections closer than this are joined into one event (--event-gap)"));
    eventGap_->setObjectName("crossvalEventGap");

    folds_ = new QComboBox;
    folds_->setObjectName("crossvalFolds");
    folds_->addItem(tr("Leave one seizure out (each recording with a seizure)"));
    folds_->addItem(tr("Leave one recording out (every recording)"));
    folds_->setToolTip(tr("--folds seizure: each recording with a seizure held out in turn, trained on the others; "
                          "recording: every recording, seizure-free ones too (they can only add false alarms)"));
    epoch_ = intBox(8, 1 << 20, tr(" samples"), tr("Epoch and pattern length e (--epoch)"));
    epoch_->setObjectName("crossvalEpoch");
    stride_ = intBox(1, 1 << 20, tr(" samples"), tr("Stride s of epochs and patterns (--stride)"));
    stride_->setObjectName("crossvalStride");
    epochHint_ = new QLabel;
    epochHint_->setObjectName("crossvalEpochHint");
    band_ = intBox(0, 1 << 20, QString(), tr("Sakoe-Chiba band w of cdtw (--band); opens with the metric panel's"));
    band_->setObjectName("crossvalBand");

    const QString sec = tr(" s");
    tolBefore_ = realBox(0, 86400, 1, sec, tr("Seconds before a seizure where a detection still counts (--tolerance-before)"));
    tolAfter_ = realBox(0, 86400, 1, sec, tr("Seconds after a seizure where a detection still counts (--tolerance-after)"));
    mergeGap_ = realBox(0, 86400, 1, sec, tr("Events closer than this are merged before scoring; 0: never (--merge-gap)"));
    mergeGap_->setSpecialValueText(tr("never"));
    maxEvent_ = realBox(0, 864000, 1, sec, tr("Events longer than this are split before scoring; 0: never (--max-event)"));
    maxEvent_->setSpecialValueText(tr("never"));
    minOverlap_ = realBox(0, 0.999999, 3, QString(),
                          tr("Fraction of a seizure's widened span a detection must cover; 0: any overlap (--min-overlap)"));
    minOverlap_->setSpecialValueText(tr("any overlap"));
    sampleHz_ = realBox(0.01, 1000, 2, tr(" Hz"), tr("Label rate of the sample-based scores (--sample-rate)"));
    tolBefore_->setObjectName("crossvalToleranceBefore");
    tolAfter_->setObjectName("crossvalToleranceAfter");
    mergeGap_->setObjectName("crossvalMergeGap");
    maxEvent_->setObjectName("crossvalMaxEvent");
    minOverlap_->setObjectName("crossvalMinOverlap");
    sampleHz_->setObjectName("crossvalSampleRate");

    auto* detector = new QGroupBox(tr("Detector"));
    auto* df = new QFormLayout(detector);
    df->addRow(tr("Channels"), channelList_);
    df->addRow(tr("Patterns per channel"), top_);
    df->addRow(tr("Votes needed"), votes_);
    df->addRow(tr("Operating point"), point_);
    df->addRow(tr("Target rate"), fpr_);
    df->addRow(QString(), fprHint_);
    df->addRow(tr("Epochs per event"), minEpochs_);
    df->addRow(tr("Join events closer than"), eventGap_);

    auto* run = new QGroupBox(tr("Folds and epochs"));
    auto* rf = new QFormLayout(run);
    rf->addRow(tr("Folds"), folds_);
    rf->addRow(tr("Epoch"), epoch_);
    rf->addRow(tr("Stride"), stride_);
    rf->addRow(QString(), epochHint_);
    rf->addRow(tr("Band w"), band_);

    auto* scoring = new QGroupBox(tr("Scoring (SzCORE)"));
    auto* sf = new QFormLayout(scoring);
    sf->addRow(tr("Tolerance before"), tolBefore_);
    sf->addRow(tr("Tolerance after"), tolAfter_);
    sf->addRow(tr("Merge events closer than"), mergeGap_);
    sf->addRow(tr("Split events longer than"), maxEvent_);
    sf->addRow(tr("Minimum overlap"), minOverlap_);
    sf->addRow(tr("Sample label rate"), sampleHz_);

    problem_ = new QLabel;
    problem_->setObjectName("crossvalProblem");
    problem_->setWordWrap(true);
    problem_->setStyleSheet("color: #b00020");
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Cross-validate"));
    buttons_->button(QDialogButtonBox::RestoreDefaults)->setToolTip(tr("warplab-cli crossval's defaults"));
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* right = new QVBoxLayout;
    right->addWidget(run);
    right->addWidget(scoring);
    right->addStretch();
    auto* columns = new QHBoxLayout;
    columns->addWidget(detector, 1);
    columns->addLayout(right, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addWidget(problem_);
    layout->addWidget(buttons_);

    // The defaults as the CLI has them, with the action's folds, the channel in view and the panel's band.
    auto defaults = [current, folds, band] {
        CrossvalSettings d;
        d.channels = QStringList{current};
        d.options.folds = folds;
        d.band = band;
        return d;
    };
    connect(buttons_->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this, defaults] { setSettings(defaults()); });
    CrossvalSettings s = remembered();
    s.options.folds = folds;
    s.band = band;
    setSettings(s);
    if (settings().channels.isEmpty()) {  // none of the remembered channels is in this study
        s.channels = QStringList{current};
        setSettings(s);
    }

    connect(channelList_, &QListWidget::itemChanged, this, [this] { refresh(); });
    for (QSpinBox* b : {top_, votes_, minEpochs_, epoch_, stride_, band_})
        connect(b, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(fpr_, &QDoubleSpinBox::valueChanged, this, [this] { refresh(); });
    connect(point_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    refresh();
}

CrossvalSettings CrossvalDialog::settings() const {
    CrossvalSettings s;
    for (int i = 0; i < channelList_->count(); ++i)
        if (channelList_->item(i)->checkState() == Qt::Checked) s.channels << channelList_->item(i)->text();
    s.epoch = epoch_->value();
    s.stride = stride_->value();
    s.band = band_->value();
    auto& o = s.options;
    o.folds = folds_->currentIndex() == 1 ? compute::CrossvalFolds::Recording : compute::CrossvalFolds::Seizure;
    o.build.top = std::size_t(top_->value());
    o.build.operatingPoint = point_->currentIndex() == 0
                                 ? compute::OperatingPoint{}
                                 : compute::OperatingPoint{compute::OperatingPoint::Kind::FalsePositiveRate, fpr_->value() / 100};
    o.build.rule.votes = votes_->value();
    o.build.rule.minEpochs = minEpochs_->value();
    o.build.rule.mergeGapS = eventGap_->value();
    o.event.toleranceBeforeS = tolBefore_->value();
    o.event.toleranceAfterS = tolAfter_->value();
    o.event.mergeGapS = mergeGap_->value();
    o.event.maxEventS = maxEvent_->value();
    o.event.minOverlap = minOverlap_->value();
    o.sample.sampleHz = sampleHz_->value();
    return s;
}

void CrossvalDialog::setSettings(const CrossvalSettings& s) {
    const QSignalBlocker block(channelList_);
    for (int i = 0; i < channelList_->count(); ++i)
        channelList_->item(i)->setCheckState(s.channels.contains(channelList_->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
    epoch_->setValue(s.epoch);
    stride_->setValue(s.stride);
    if (s.band >= 0) band_->setValue(s.band);
    const auto& o = s.options;
    folds_->setCurrentIndex(o.folds == compute::CrossvalFolds::Recording ? 1 : 0);
    top_->setValue(int(std::min<std::size_t>(o.build.top, std::size_t(top_->maximum()))));
    const bool youden = o.build.operatingPoint.kind == compute::OperatingPoint::Kind::Youden;
    point_->setCurrentIndex(youden ? 0 : 1);
    fpr_->setValue(100 * o.build.operatingPoint.target);
    votes_->setValue(o.build.rule.votes);
    minEpochs_->setValue(o.build.rule.minEpochs);
    eventGap_->setValue(o.build.rule.mergeGapS);
    tolBefore_->setValue(o.event.toleranceBeforeS);
    tolAfter_->setValue(o.event.toleranceAfterS);
    mergeGap_->setValue(o.event.mergeGapS);
    maxEvent_->setValue(o.event.maxEventS);
    minOverlap_->setValue(o.event.minOverlap);
    sampleHz_->setValue(o.sample.sampleHz);
    refresh();
}

QString CrossvalDialog::problem() const {
    const CrossvalSettings s = settings();
    if (QString why = crossvalSettingsProblem(s); !why.isEmpty()) return why;
    const Channel* first = nullptr;
    for (const Channel& c : channels_) {
        if (!s.channels.contains(c.name)) continue;
        if (!first) first = &c;
        else if (c.rateHz != first->rateHz)
            return tr("Channels that vote together must share one sampling rate: %1 is sampled at %2 Hz, %3 at %4 Hz.")
                .arg(first->name).arg(first->rateHz).arg(c.name).arg(c.rateHz);
    }
    return {};
}

void CrossvalDialog::refresh() {
    const CrossvalSettings s = settings();
    const QString why = problem();
    problem_->setText(why);
    problem_->setVisible(!why.isEmpty());
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
    fpr_->setEnabled(point_->currentIndex() == 1);
    // The epoch in seconds at the first chosen channel's rate (what a clinician reads).
    double rate = 0;
    for (const Channel& c : channels_)
        if (!s.channels.isEmpty() && c.name == s.channels.front()) rate = c.rateHz;
    if (rate > 0) {
        epochHint_->setText(tr("%1 s epochs every %2 s at %3 Hz")
                                .arg(s.epoch / rate, 0, 'f', 2).arg(s.stride / rate, 0, 'f', 2).arg(rate, 0, 'g', 6));
        // The target as a person counts it: interictal epochs a pattern may pass in a day.
        const double epochsADay = std::round(86400.0 * rate / s.stride * fpr_->value() / 100);
        fprHint_->setText(point_->currentIndex() == 1 ? tr("≈ %1 epochs a day per pattern").arg(epochsADay)
                                                      : tr("each pattern at its largest TPR − FPR"));
        fprHint_->setToolTip(tr("At most this share of each pattern's interictal training epochs lies within its "
                                "threshold: at this stride, about %1 epochs of a day")
                                 .arg(epochsADay));
    } else {
        epochHint_->clear();
        fprHint_->clear();
    }
}

void CrossvalDialog::accept() {
    if (!problem().isEmpty()) return;
    remember(settings());
    QDialog::accept();
}

CrossvalSettings CrossvalDialog::remembered() {
    QSettings q;
    CrossvalSettings s;
    auto& o = s.options;
    s.channels = q.value(kGroup + "channels").toStringList();
    s.epoch = q.value(kGroup + "epoch", s.epoch).toInt();
    s.stride = q.value(kGroup + "stride", s.stride).toInt();
    o.build.top = std::size_t(std::max(1, q.value(kGroup + "top", int(o.build.top)).toInt()));
    if (const auto op = compute::parseOperatingPoint(q.value(kGroup + "operatingPoint").toString().toStdString()))
        o.build.operatingPoint = *op;
    o.build.rule.votes = q.value(kGroup + "votes", o.build.rule.votes).toInt();
    o.build.rule.minEpochs = q.value(kGroup + "minEpochs", o.build.rule.minEpochs).toInt();
    o.build.rule.mergeGapS = q.value(kGroup + "eventGap", o.build.rule.mergeGapS).toDouble();
    o.event.toleranceBeforeS = q.value(kGroup + "toleranceBefore", o.event.toleranceBeforeS).toDouble();
    o.event.toleranceAfterS = q.value(kGroup + "toleranceAfter", o.event.toleranceAfterS).toDouble();
    o.event.mergeGapS = q.value(kGroup + "mergeGap", o.event.mergeGapS).toDouble();
    o.event.maxEventS = q.value(kGroup + "maxEvent", o.event.maxEventS).toDouble();
    o.event.minOverlap = q.value(kGroup + "minOverlap", o.event.minOverlap).toDouble();
    o.sample.sampleHz = q.value(kGroup + "sampleRate", o.sample.sampleHz).toDouble();
    return s;
}

void CrossvalDialog::remember(const CrossvalSettings& s) {
    QSettings q;
    const auto& o = s.options;
    q.setValue(kGroup + "channels", s.channels);
    q.setValue(kGroup + "epoch", s.epoch);
    q.setValue(kGroup + "stride", s.stride);
    q.setValue(kGroup + "top", int(o.build.top));
    q.setValue(kGroup + "operatingPoint", QString::fromStdString(compute::operatingPointName(o.build.operatingPoint)));
    q.setValue(kGroup + "votes", o.build.rule.votes);
    q.setValue(kGroup + "minEpochs", o.build.rule.minEpochs);
    q.setValue(kGroup + "eventGap", o.build.rule.mergeGapS);
    q.setValue(kGroup + "toleranceBefore", o.event.toleranceBeforeS);
    q.setValue(kGroup + "toleranceAfter", o.event.toleranceAfterS);
    q.setValue(kGroup + "mergeGap", o.event.mergeGapS);
    q.setValue(kGroup + "maxEvent", o.event.maxEventS);
    q.setValue(kGroup + "minOverlap", o.event.minOverlap);
    q.setValue(kGroup + "sampleRate", o.sample.sampleHz);
}

}  // namespace warplab::app
