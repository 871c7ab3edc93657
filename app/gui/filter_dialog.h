// Chooses the filters of the view (and optionally of the analysis): high-pass, low-pass,
// notch, order.
#pragma once
#include <QDialog>

#include "io/filters.h"

class QDoubleSpinBox;
class QSpinBox;
class QComboBox;
class QCheckBox;

namespace warplab::app {

class FilterDialog : public QDialog {
    Q_OBJECT
public:
    FilterDialog(const io::FilterSettings& settings, QWidget* parent = nullptr);
    io::FilterSettings settings() const;

private:
    QDoubleSpinBox* highpass_;
    QDoubleSpinBox* lowpass_;
    QComboBox* notch_;
    QSpinBox* order_;
    QCheckBox* analysis_;
};

}  // namespace warplab::app
