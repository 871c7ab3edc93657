#include "app/gui/filter_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace warplab::app {

FilterDialog::FilterDialog(const io::FilterSettings& s, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Filters"));
    auto hz = [](double v) {
        auto* b = new QDoubleSpinBox;
        b->setRange(0, 10000);
        b->setDecimals(2);
        b->setSuffix(" Hz");
        b->setSpecialValueText(tr("off"));
        b->setValue(v);
        return b;
    };
    highpass_ = hz(s.highpassHz);
    lowpass_ = hz(s.lowpassHz);
    notch_ = new QComboBox;
    notch_->addItem(tr("off"), 0.0);
    notch_->addItem(tr("50 Hz"), 50.0);
    notch_->addItem(tr("60 Hz"), 60.0);
    notch_->setCurrentIndex(std::max(0, notch_->findData(s.notchHz)));
    order_ = new QSpinBox;
    order_->setRange(1, 16);
    order_->setValue(s.order);
    analysis_ = new QCheckBox(tr("also filter what is analysed (zero phase)"));
    analysis_->setChecked(s.applyToAnalysis);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("High-pass"), highpass_);
    form->addRow(tr("Low-pass"), lowpass_);
    form->addRow(tr("Notch"), notch_);
    form->addRow(tr("Butterworth order"), order_);
    form->addRow(analysis_);
    form->addRow(buttons);
}

io::FilterSettings FilterDialog::settings() const {
    io::FilterSettings s;
    s.highpassHz = highpass_->value();
    s.lowpassHz = lowpass_->value();
    s.notchHz = notch_->currentData().toDouble();
    s.order = order_->value();
    s.applyToAnalysis = analysis_->isChecked();
    return s;
}

}  // namespace warplab::app
