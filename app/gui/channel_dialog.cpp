#include "app/gui/channel_dialog.h"

#include <algorithm>

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace warplab::app {

ChannelDialog::ChannelDialog(const QStringList& names, const std::vector<int>& visible, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Channels"));
    list_ = new QListWidget;
    for (int i = 0; i < names.size(); ++i) {
        auto* item = new QListWidgetItem(names[i], list_);
        item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        item->setCheckState(std::find(visible.begin(), visible.end(), i) != visible.end() ? Qt::Checked : Qt::Unchecked);
    }
    auto* all = new QPushButton(tr("All"));
    auto* none = new QPushButton(tr("None"));
    connect(all, &QPushButton::clicked, this, [this] {
        for (int i = 0; i < list_->count(); ++i) list_->item(i)->setCheckState(Qt::Checked);
    });
    connect(none, &QPushButton::clicked, this, [this] {
        for (int i = 0; i < list_->count(); ++i) list_->item(i)->setCheckState(Qt::Unchecked);
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* row = new QHBoxLayout;
    row->addWidget(all);
    row->addWidget(none);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(list_, 1);
    layout->addLayout(row);
    layout->addWidget(buttons);
    resize(280, 480);
}

std::vector<int> ChannelDialog::selected() const {
    std::vector<int> out;
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->checkState() == Qt::Checked) out.push_back(i);
    return out;
}

}  // namespace warplab::app
