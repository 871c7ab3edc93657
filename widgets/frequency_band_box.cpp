#include "widgets/frequency_band_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace warplab::widgets {
namespace {

using compute::spectral::bandPresets;

constexpr const char* kUserKey = "frequencyBands/user";
const QString kNone = QStringLiteral("none"), kCustom = QStringLiteral("custom");
QString presetData(const FrequencyBand& b) { return "preset:" + QString::fromStdString(b.name); }
QString userData(const FrequencyBand& b) { return "user:" + QString::fromStdString(b.name); }
QString hz(double v) { return QString::number(v, 'g', 4); }

}  // namespace

QString bandText(const FrequencyBand& band) { return QString::fromStdString(band.describe()); }

FrequencyBandBox::FrequencyBandBox(QWidget* parent) : QWidget(parent) {
    choice_ = new QComboBox;
    choice_->setObjectName("frequencyBand");
    choice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    choice_->setMinimumContentsLength(10);
    choice_->setToolTip(tr("The frequency band every analysis is filtered to (zero-phase Butterworth band-pass, "
                           "order %1); all frequencies: the signal as it is").arg(compute::spectral::kDefaultBandOrder));
    low_ = new QDoubleSpinBox;
    high_ = new QDoubleSpinBox;
    for (auto* b : {low_, high_}) {
        b->setRange(0.01, 100000);
        b->setDecimals(2);
        b->setSingleStep(0.5);
        b->setMinimumWidth(50);
    }
    low_->setObjectName("frequencyBandLow");
    high_->setObjectName("frequencyBandHigh");
    low_->setValue(1);
    high_->setValue(30);
    high_->setSuffix(tr(" Hz"));
    save_ = new QToolButton;
    save_->setText(tr("Save…"));
    save_->setToolTip(tr("Keep this range under a name of your own (it is offered from then on)"));
    remove_ = new QToolButton;
    remove_->setText(tr("Remove"));
    remove_->setToolTip(tr("Forget this saved band"));
    display_ = new QCheckBox(tr("filter the traces too"));
    display_->setObjectName("frequencyBandDisplay");
    display_->setToolTip(tr("Show the traces filtered to the band too (zero phase); otherwise only the analysis is"));
    compare_ = new QToolButton;
    compare_->setObjectName("compareBands");
    compare_->setText(tr("Compare…"));
    compare_->setPopupMode(QToolButton::InstantPopup);
    compare_->setToolTip(tr("The bands a per-band job (Analysis ▸ Per band) runs over, side by side"));
    compareMenu_ = new QMenu(compare_);
    compare_->setMenu(compareMenu_);
    refusal_ = new QLabel;
    refusal_->setObjectName("frequencyBandRefusal");
    refusal_->setWordWrap(true);
    refusal_->setStyleSheet("QLabel { color: #b00020; }");
    refusal_->setVisible(false);

    // Short rows: the panel shares the window with the traces and the result docks on a
    // 1280-pixel screen.
    auto* range = new QHBoxLayout;
    range->setContentsMargins(0, 0, 0, 0);
    range->addWidget(low_, 1);
    range->addWidget(new QLabel(QStringLiteral("–")));
    range->addWidget(high_, 1);
    auto* saved = new QHBoxLayout;
    saved->setContentsMargins(0, 0, 0, 0);
    saved->addWidget(save_);
    saved->addWidget(remove_);
    saved->addStretch(1);
    saved->addWidget(compare_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(choice_);
    layout->addLayout(range);
    layout->addLayout(saved);
    layout->addWidget(display_);
    layout->addWidget(refusal_);

    for (const auto& b : bandPresets()) compared_.push_back(b);
    refill();
    choice_->setCurrentIndex(0);
    connect(choice_, &QComboBox::currentIndexChanged, this, [this] {
        refresh();
        emit changed();
    });
    for (auto* b : {low_, high_})
        connect(b, &QDoubleSpinBox::valueChanged, this, [this] {
            if (choice_->currentData().toString() != kCustom) return;
            refresh();
            emit changed();
        });
    connect(display_, &QCheckBox::toggled, this, &FrequencyBandBox::changed);
    connect(save_, &QToolButton::clicked, this, &FrequencyBandBox::saveCustom);
    connect(remove_, &QToolButton::clicked, this, &FrequencyBandBox::removeUser);
    connect(compareMenu_, &QMenu::aboutToShow, this, &FrequencyBandBox::rebuildCompareMenu);
    refresh();
}

std::vector<FrequencyBand> FrequencyBandBox::userBands() {
    std::vector<FrequencyBand> out;
    for (const QString& text : QSettings().value(kUserKey).toStringList()) {
        try {
            FrequencyBand b = compute::spectral::parseFrequencyBand(text.toStdString(), {}, kUserKey);
            if (!b.name.empty()) out.push_back(std::move(b));
        } catch (const std::exception&) {
            // A hand-edited entry that no longer parses is skipped, not fatal.
        }
    }
    return out;
}

void FrequencyBandBox::saveUserBands(const std::vector<FrequencyBand>& bands) {
    QStringList list;
    for (const auto& b : bands) list << QStringLiteral("%1=%2-%3").arg(QString::fromStdString(b.name), hz(b.lowHz), hz(b.highHz));
    QSettings().setValue(kUserKey, list);
}

void FrequencyBandBox::refill() {
    const QString previous = choice_->currentData().toString();
    const QSignalBlocker block(choice_);
    choice_->clear();
    choice_->addItem(tr("all frequencies"), kNone);
    for (const auto& b : bandPresets())
        choice_->addItem(tr("%1 (%2–%3 Hz)").arg(QString::fromStdString(b.name), hz(b.lowHz), hz(b.highHz)), presetData(b));
    for (const auto& b : userBands())
        choice_->addItem(tr("%1 (%2–%3 Hz, saved)").arg(QString::fromStdString(b.name), hz(b.lowHz), hz(b.highHz)), userData(b));
    choice_->addItem(tr("custom range"), kCustom);
    const int i = choice_->findData(previous);
    choice_->setCurrentIndex(i >= 0 ? i : 0);
}

std::optional<FrequencyBand> FrequencyBandBox::chosen() const {
    const QString data = choice_->currentData().toString();
    if (data == kNone || data.isEmpty()) return std::nullopt;
    if (data == kCustom) return FrequencyBand{"", low_->value(), high_->value()};
    const std::string name = data.section(':', 1).toStdString();
    if (data.startsWith("user:"))
        for (const auto& b : userBands())
            if (b.name == name) return b;
    return compute::spectral::findBand(name);
}

QString FrequencyBandBox::whyRefused(const FrequencyBand& band) const {
    try {
        if (rate_ > 0) compute::spectral::validateBand(band, rate_, std::size_t(std::max(0LL, samples_)));
        else compute::spectral::checkBandForm(band);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

std::optional<FrequencyBand> FrequencyBandBox::band() const {
    const auto b = chosen();
    if (!b || !whyRefused(*b).isEmpty()) return std::nullopt;
    return b;
}

QString FrequencyBandBox::refusal() const {
    const auto b = chosen();
    return b ? whyRefused(*b) : QString();
}

void FrequencyBandBox::refresh() {
    const QString data = choice_->currentData().toString();
    const bool custom = data == kCustom;
    low_->setEnabled(custom);
    high_->setEnabled(custom);
    save_->setEnabled(custom);
    remove_->setEnabled(data.startsWith("user:"));
    display_->setEnabled(data != kNone);
    if (const auto b = chosen(); b && !custom) {
        const QSignalBlocker bl(low_), bh(high_);
        low_->setValue(b->lowHz);
        high_->setValue(b->highHz);
    }
    const QString why = refusal();
    refusal_->setText(why.isEmpty() ? QString() : tr("Refused: %1").arg(why));
    refusal_->setVisible(!why.isEmpty());
}

void FrequencyBandBox::setBand(const std::optional<FrequencyBand>& band) {
    int index = 0;
    if (band) {
        // A preset or saved band of that name and those edges; else a custom range (a named
        // band this machine does not know keeps its edges).
        index = -1;
        for (int i = 0; i < choice_->count() && index < 0 && !band->name.empty(); ++i) {
            const QString d = choice_->itemData(i).toString();
            if (d != presetData(*band) && d != userData(*band)) continue;
            const auto known = d.startsWith("user:") ? std::optional<FrequencyBand>{} : compute::spectral::findBand(band->name);
            std::optional<FrequencyBand> match = known;
            if (d.startsWith("user:"))
                for (const auto& u : userBands())
                    if (u.name == band->name) match = u;
            if (match && match->lowHz == band->lowHz && match->highHz == band->highHz) index = i;
        }
        if (index < 0) {
            const QSignalBlocker bl(low_), bh(high_);
            low_->setValue(band->lowHz);
            high_->setValue(band->highHz);
            index = choice_->findData(kCustom);
        }
    }
    {
        const QSignalBlocker block(choice_);
        choice_->setCurrentIndex(index);
    }
    refresh();
    emit changed();
}

bool FrequencyBandBox::filterDisplay() const { return display_->isChecked() && display_->isEnabled(); }
void FrequencyBandBox::setFilterDisplay(bool on) { display_->setChecked(on); }

void FrequencyBandBox::setRecording(double rateHz, long long samples) {
    rate_ = rateHz;
    samples_ = samples;
    refresh();
    emit changed();
}

std::vector<FrequencyBand> FrequencyBandBox::comparedBands() const { return compared_; }

void FrequencyBandBox::setComparedBands(const std::vector<FrequencyBand>& bands) { compared_ = bands; }

void FrequencyBandBox::rebuildCompareMenu() {
    compareMenu_->clear();
    std::vector<FrequencyBand> all(bandPresets().begin(), bandPresets().end());
    for (const auto& b : userBands()) all.push_back(b);
    if (const auto c = chosen(); c && c->name.empty()) all.push_back(*c);  // the custom range too
    for (const auto& b : all) {
        QAction* a = compareMenu_->addAction(bandText(b));
        a->setCheckable(true);
        a->setChecked(std::find(compared_.begin(), compared_.end(), b) != compared_.end());
        const QString why = whyRefused(b);
        if (!why.isEmpty()) a->setToolTip(why);
        connect(a, &QAction::toggled, this, [this, b](bool on) {
            const auto it = std::find(compared_.begin(), compared_.end(), b);
            if (on && it == compared_.end()) compared_.push_back(b);
            if (!on && it != compared_.end()) compared_.erase(it);
        });
    }
    compareMenu_->setToolTipsVisible(true);
}

void FrequencyBandBox::saveCustom() {
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Save frequency band"),
                                               tr("Name for %1–%2 Hz:").arg(hz(low_->value()), hz(high_->value())),
                                               QLineEdit::Normal, QString(), &ok).trimmed();
    if (!ok || name.isEmpty()) return;
    FrequencyBand b{name.toStdString(), low_->value(), high_->value()};
    try {
        compute::spectral::checkBandForm(b);
        // The name must read back: "mu=8-12" is how it is stored.
        b = compute::spectral::parseFrequencyBand(QStringLiteral("%1=%2-%3").arg(name, hz(b.lowHz), hz(b.highHz)).toStdString());
    } catch (const std::exception& e) {
        refusal_->setText(tr("Not saved: %1").arg(QString::fromStdString(e.what())));
        refusal_->setVisible(true);
        return;
    }
    std::vector<FrequencyBand> bands = userBands();
    std::erase_if(bands, [&](const FrequencyBand& x) { return x.name == b.name; });
    bands.push_back(b);
    saveUserBands(bands);
    refill();
    choice_->setCurrentIndex(choice_->findData(userData(b)));
}

void FrequencyBandBox::removeUser() {
    const auto b = chosen();
    if (!b) return;
    std::vector<FrequencyBand> bands = userBands();
    std::erase_if(bands, [&](const FrequencyBand& x) { return x.name == b->name; });
    saveUserBands(bands);
    refill();
    refresh();
    emit changed();
}

}  // namespace warplab::widgets
