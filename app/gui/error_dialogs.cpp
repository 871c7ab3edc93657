#include "app/gui/error_dialogs.h"

#include <QMessageBox>

#include "app/gui/analysis_controller.h"

namespace warplab::app {

ErrorDialogs::ErrorDialogs(QWidget* parent) : QObject(parent), parent_(parent) {}

QMessageBox* ErrorDialogs::show(const QString& title, const QString& message, const QString& slot) {
    for (const Entry& e : open_)
        if (e.box && e.title == title) e.box->close();  // replaced, not piled up
    auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, parent_);
    box->setTextFormat(Qt::PlainText);  // messages quote file contents: never read them as HTML
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    open_.removeIf([](const Entry& e) { return !e.box; });
    open_.append({box, title, slot});
    box->show();
    return box;
}

void ErrorDialogs::closeForSlot(const QString& slot) {
    if (slot.isEmpty()) return;
    for (const Entry& e : open_)
        if (e.box && e.slot == slot) e.box->close();
    open_.removeIf([](const Entry& e) { return !e.box; });
}

int ErrorDialogs::openCount() const {
    int n = 0;
    for (const Entry& e : open_)
        if (e.box && e.box->isVisible()) ++n;
    return n;
}

QString ErrorDialogs::slotOfAnalysis(const QString& title) {
    // The titles AnalysisController gives the errors that keep an analysis from starting.
    if (title == AnalysisController::tr("Align regions")) return QStringLiteral("pair");
    if (title == AnalysisController::tr("Distance matrix")) return QStringLiteral("matrix");
    if (title == AnalysisController::tr("Search")) return QStringLiteral("search");
    if (title == AnalysisController::tr("Seizure patterns")) return QStringLiteral("patterns");
    if (title == AnalysisController::tr("Kernel comparison")) return QStringLiteral("bench");
    return {};
}

}  // namespace warplab::app
