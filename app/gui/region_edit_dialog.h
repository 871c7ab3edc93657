// Edits one region: kind, channel (or all), start and end, note.
#pragma once
#include <QDialog>

#include "io/regions.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;

namespace warplab::app {

class RegionEditDialog : public QDialog {
    Q_OBJECT
public:
    RegionEditDialog(const io::Region& region, const QStringList& channels, double durationS, QWidget* parent = nullptr);
    io::Region region() const;

private:
    io::Region original_;
    QComboBox* kind_;
    QComboBox* channel_;
    QDoubleSpinBox* start_;
    QDoubleSpinBox* end_;
    QLineEdit* note_;
};

}  // namespace warplab::app
