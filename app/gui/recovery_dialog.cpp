#include "app/gui/recovery_dialog.h"
#include "widgets/counted.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace warplab::app {

RecoveryDialog::RecoveryDialog(const QList<RecoveryEntry>& entries, QWidget* parent) : QDialog(parent) {
    setObjectName("recoveryDialog");
    setWindowTitle(tr("Restore unsaved work"));
    auto* layout = new QVBoxLayout(this);
    auto* label = new QLabel(tr("WarpLab did not close normally. The last state of these recordings was kept, with their regions:"));
    label->setWordWrap(true);
    layout->addWidget(label);
    list_ = new QListWidget;
    list_->setObjectName("recoveryList");
    for (const RecoveryEntry& e : entries) {
        const io::Session& s = e.session;
        std::size_t regions = s.regions.size() + s.hiddenRegions.size();
        for (const auto& [name, list] : s.studyRegions) regions += list.size();
        const QString what = s.studyPath.empty() ? QFileInfo(e.source()).fileName()
                                                 : tr("study %1 (at %2)").arg(QFileInfo(e.source()).fileName(),
                                                                              QFileInfo(QString::fromStdString(s.recordingPath)).fileName());
        auto* item = new QListWidgetItem(tr("%1 — %2, %3")
                                             .arg(what, widgets::counted(qint64(regions), tr("region"), tr("regions")),
                                                  QLocale().toString(e.written, QLocale::ShortFormat)));
        item->setToolTip(tr("%1\nkept in %2").arg(e.source(), e.file));
        list_->addItem(item);
    }
    list_->setCurrentRow(0);
    layout->addWidget(list_);
    auto* note = new QLabel(tr("Not now keeps them for the next start; Discard removes the one chosen."));
    note->setWordWrap(true);
    layout->addWidget(note);
    auto* buttons = new QDialogButtonBox;
    QPushButton* restore = buttons->addButton(tr("&Restore"), QDialogButtonBox::AcceptRole);
    QPushButton* later = buttons->addButton(tr("&Not now"), QDialogButtonBox::RejectRole);
    QPushButton* discard = buttons->addButton(tr("&Discard"), QDialogButtonBox::DestructiveRole);
    restore->setObjectName("restoreButton");
    later->setObjectName("notNowButton");
    discard->setObjectName("discardButton");
    restore->setDefault(true);
    connect(restore, &QPushButton::clicked, this, [this] { done(Restore); });
    connect(later, &QPushButton::clicked, this, [this] { done(NotNow); });
    connect(discard, &QPushButton::clicked, this, [this] { done(Discard); });
    connect(list_, &QListWidget::itemDoubleClicked, this, [this] { done(Restore); });
    layout->addWidget(buttons);
    resize(560, 240);
}

int RecoveryDialog::selected() const { return std::max(0, list_->currentRow()); }

}  // namespace warplab::app
