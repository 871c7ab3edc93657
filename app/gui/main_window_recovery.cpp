// The main window's recovery parts, kept out of main_window.cpp: the unsaved-marks guard and its
// recovery journal wired to the window, and the offer to restore what a crash left.
#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QStatusBar>

#include "app/gui/document.h"
#include "app/gui/main_window.h"
#include "app/gui/recovery_dialog.h"
#include "app/gui/recovery_journal.h"
#include "app/gui/session_bridge.h"
#include "app/gui/study_controller.h"
#include "app/gui/unsaved_guard.h"

namespace warplab::app {

void MainWindow::buildRecovery() {
    guard_ = new UnsavedGuard(this, doc_, study_, [this] {
        io::Session s = captureSession(*doc_, *metric_, *signal_, session_);
        study_->capture(s);
        return s;
    });
    connect(guard_, &UnsavedGuard::errorOccurred, this, &MainWindow::showError);
    connect(guard_, &UnsavedGuard::saved, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    connect(guard_->journal(), &RecoveryJournal::failed, this, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
    // The channel selection lives in the signal view; the dialog that changes it is an action.
    if (QAction* channels = actions_.action("view.channels")) connect(channels, &QAction::triggered, guard_, &UnsavedGuard::changed);
}

bool MainWindow::restoreRecovery(const RecoveryEntry& entry) {
    const io::Session& s = entry.session;
    if (!study_->restoreStudy(s)) return false;
    if (!restoreSession(s, *doc_, *metric_, *signal_)) return false;
    study_->restoreRegions(s);
    session_ = s;
    guard_->journal()->adopt(entry);
    guard_->markRestored();
    guard_->changed();
    statusBar()->showMessage(tr("Restored %1: not saved yet").arg(QFileInfo(entry.source()).fileName()), 10000);
    return true;
}

int MainWindow::offerRecovery() {
    const RecoveryScan scan = RecoveryJournal::scan();
    if (!scan.refused.isEmpty())
        showError(tr("Recovery files not restored"),
                  tr("These recovery files are damaged or were written by another version of WarpLab. They were not "
                     "restored and are kept, renamed as shown, in %1:\n\n%2").arg(RecoveryJournal::directory(), scan.refused.join("\n")));
    if (scan.entries.isEmpty()) return RecoveryDialog::NotNow;
    RecoveryDialog dialog(scan.entries, this);
    const int choice = dialog.exec();
    const RecoveryEntry& chosen = scan.entries[dialog.selected()];
    if (choice == RecoveryDialog::Discard) QFile::remove(chosen.file);
    if (choice != RecoveryDialog::Restore) return choice;
    return restoreRecovery(chosen) ? RecoveryDialog::Restore : RecoveryDialog::NotNow;
}

}  // namespace warplab::app
