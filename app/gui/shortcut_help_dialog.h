// The keyboard-shortcut help (F1 or ?), generated from the action table.
#pragma once
#include <QDialog>

namespace warplab::app {

class ActionTable;

class ShortcutHelpDialog : public QDialog {
    Q_OBJECT
public:
    ShortcutHelpDialog(const ActionTable& table, QWidget* parent = nullptr);
    int rowCount() const { return rows_; }

private:
    int rows_ = 0;
};

}  // namespace warplab::app
