#include "app/gui/shortcut_help_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/gui/action_table.h"

namespace warplab::app {

ShortcutHelpDialog::ShortcutHelpDialog(const ActionTable& table, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Keyboard shortcuts"));
    setObjectName("shortcutHelp");
    auto* list = new QTableWidget(0, 3);
    list->setHorizontalHeaderLabels({tr("Where"), tr("Action"), tr("Keys")});
    list->verticalHeader()->setVisible(false);
    list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (const ActionSpec& spec : table.specs()) {
        if (spec.shortcuts.isEmpty() && spec.keysText.isEmpty()) continue;
        QStringList keys;
        if (!spec.keysText.isEmpty()) keys << spec.keysText;
        for (const auto& k : spec.shortcuts) keys << k.toString(QKeySequence::NativeText);
        const int r = list->rowCount();
        list->insertRow(r);
        list->setItem(r, 0, new QTableWidgetItem(QString(spec.menu).remove('&')));
        list->setItem(r, 1, new QTableWidgetItem(QString(spec.text).remove('&').remove("…")));
        list->setItem(r, 2, new QTableWidgetItem(keys.join(tr("  or  "))));
    }
    rows_ = list->rowCount();
    // Keys always fully visible; the action text takes what is left and wraps.
    list->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    list->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    list->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    list->setWordWrap(true);
    list->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(list);
    layout->addWidget(buttons);
    resize(680, 560);
}

}  // namespace warplab::app
