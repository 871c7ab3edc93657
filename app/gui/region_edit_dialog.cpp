#include "app/gui/region_edit_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>

#include "widgets/region_style.h"

namespace warplab::app {

RegionEditDialog::RegionEditDialog(const io::Region& region, const QStringList& channels, double durationS, QWidget* parent)
    : QDialog(parent), original_(region) {
    setWindowTitle(tr("Edit region"));
    kind_ = new QComboBox;
    for (auto k : {io::RegionKind::Seizure, io::RegionKind::Query, io::RegionKind::Reference})
        kind_->addItem(widgets::regionKindLabel(k), int(k));
    kind_->setCurrentIndex(kind_->findData(int(region.kind)));
    channel_ = new QComboBox;
    channel_->addItem(tr("all channels"), -1);
    for (int i = 0; i < channels.size(); ++i) channel_->addItem(channels[i], i);
    channel_->setCurrentIndex(channel_->findData(region.channel));
    auto time = [durationS](double v) {
        auto* b = new QDoubleSpinBox;
        b->setRange(0, durationS);
        b->setDecimals(3);
        b->setSuffix(" s");
        b->setValue(v);
        return b;
    };
    start_ = time(region.startS);
    end_ = time(region.endS);
    note_ = new QLineEdit(QString::fromStdString(region.note));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (end_->value() > start_->value()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Kind"), kind_);
    form->addRow(tr("Channel"), channel_);
    form->addRow(tr("Start"), start_);
    form->addRow(tr("End"), end_);
    form->addRow(tr("Note"), note_);
    form->addRow(buttons);
}

io::Region RegionEditDialog::region() const {
    io::Region r = original_;
    r.kind = io::RegionKind(kind_->currentData().toInt());
    r.channel = channel_->currentData().toInt();
    r.startS = start_->value();
    r.endS = end_->value();
    r.note = note_->text().toStdString();
    return r;
}

}  // namespace warplab::app
