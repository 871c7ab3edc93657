// At start, after a crash: the recovery files found (recording or study, regions, when
// written), one chosen. Restore brings back the chosen one; Not now keeps them all for the next
// start; Discard removes the chosen one (the others stay).
#pragma once
#include <QDialog>
#include <QList>

#include "app/gui/recovery_journal.h"

class QListWidget;

namespace warplab::app {

class RecoveryDialog : public QDialog {
    Q_OBJECT
public:
    enum Choice { NotNow = 0, Restore = 1, Discard = 2 };

    explicit RecoveryDialog(const QList<RecoveryEntry>& entries, QWidget* parent = nullptr);
    int selected() const;  // index into the entries

private:
    QListWidget* list_;
};

}  // namespace warplab::app
