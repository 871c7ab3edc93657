#include "widgets/search_options_bar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace warplab::widgets {

SearchOptionsBar::SearchOptionsBar(bool gpuPresent, QWidget* parent) : QWidget(parent) {
    mode_ = new QComboBox;
    mode_->addItem(tr("subsequence"));
    mode_->addItem(tr("window (z-normalised)"));
    mode_->setToolTip(tr("subsequence: DTW with free start and end (METRICS.md sdtw).\n"
                         "window: every window of the query's length, z-normalised on its own, band DTW; "
                         "exact (docs/SEARCH.md)."));
    band_ = new QDoubleSpinBox;
    band_->setRange(0, 100);
    band_->setDecimals(1);
    band_->setSuffix(tr(" %"));
    band_->setValue(5.0);
    band_->setToolTip(tr("Sakoe-Chiba half-width as a percentage of the query length (window mode)"));
    bandLabel_ = new QLabel(tr("band"));
    self_ = new QCheckBox(tr("include the query itself"));
    self_->setToolTip(tr("Off: no match that overlaps the query's own place (same recording and channel) is "
                         "reported, beyond the overlap allowed beside it."));
    tolerance_ = new QDoubleSpinBox;
    tolerance_->setRange(0, 3600);
    tolerance_->setDecimals(2);
    tolerance_->setSingleStep(0.1);
    tolerance_->setSuffix(tr(" s"));
    tolerance_->setToolTip(tr("Overlap with the query's own place still allowed, in seconds (0: no shared sample)"));
    tolerance_->setAccessibleName(tr("overlap allowed with the query"));
    precision_ = new QComboBox;
    precision_->addItem(tr("fp32"));
    precision_->addItem(tr("half2"));
    precision_->setToolTip(tr("half2: ends chosen on a half-precision row, every match rescored in fp32; "
                              "8 of 160 top-5 ends differ from fp32's for 128-sample queries (H100)"));
    precisionLabel_ = new QLabel(tr("precision"));
    precision_->setVisible(gpuPresent);
    precisionLabel_->setVisible(gpuPresent);
    // Two rows, so that the bar fits beside the traces: the mode and its settings, then what
    // happens to the query's own place.
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(0, 0, 0, 0);
    auto* l = new QHBoxLayout;
    rows->addLayout(l);
    l->addWidget(new QLabel(tr("mode")));
    l->addWidget(mode_);
    l->addWidget(bandLabel_);
    l->addWidget(band_);
    l->addWidget(precisionLabel_);
    l->addWidget(precision_);
    l->addStretch(1);
    auto* self = new QHBoxLayout;
    rows->addLayout(self);
    self->addWidget(self_);
    toleranceLabel_ = new QLabel(tr("overlap allowed"));
    toleranceLabel_->setToolTip(tolerance_->toolTip());
    self->addWidget(toleranceLabel_);
    self->addWidget(tolerance_);
    self->addStretch(1);
    auto changed = [this] {
        updateEnabled();
        emit choiceChanged();
    };
    connect(mode_, &QComboBox::currentIndexChanged, this, changed);
    connect(band_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(self_, &QCheckBox::toggled, this, changed);
    connect(tolerance_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(precision_, &QComboBox::currentIndexChanged, this, changed);
    updateEnabled();
}

void SearchOptionsBar::updateEnabled() {
    const bool window = mode_->currentIndex() == 1;
    band_->setEnabled(window);
    bandLabel_->setEnabled(window);
    precision_->setEnabled(!window);
    tolerance_->setEnabled(!self_->isChecked());
    toleranceLabel_->setEnabled(!self_->isChecked());
}

SearchChoice SearchOptionsBar::choice() const {
    SearchChoice c;
    c.window = mode_->currentIndex() == 1;
    c.bandPercent = band_->value();
    c.includeSelf = self_->isChecked();
    c.toleranceS = tolerance_->value();
    c.half2 = precision_->isVisible() && precision_->currentIndex() == 1;
    return c;
}

void SearchOptionsBar::setChoice(const SearchChoice& c) {
    mode_->setCurrentIndex(c.window ? 1 : 0);
    band_->setValue(c.bandPercent);
    self_->setChecked(c.includeSelf);
    tolerance_->setValue(c.toleranceS);
    precision_->setCurrentIndex(c.half2 ? 1 : 0);
}

}  // namespace warplab::widgets
