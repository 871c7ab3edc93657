// The window's non-modal error dialogs, kept from going stale: a second error with the same
// title replaces the first instead of piling up, and an analysis that could not start ("Mark a
// query region and a reference region first … Missing: reference") has its dialog closed as
// soon as that analysis does start, once the user supplied what was missing.
#pragma once
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QMessageBox;
class QWidget;

namespace warplab::app {

class ErrorDialogs : public QObject {
    Q_OBJECT
public:
    explicit ErrorDialogs(QWidget* parent);

    // Object name "errorDialog"; `slot` is the job slot whose start makes it obsolete ("" none).
    QMessageBox* show(const QString& title, const QString& message, const QString& slot = {});
    void closeForSlot(const QString& slot);
    int openCount() const;

    // The job slot of an analysis error title (AnalysisController's titles), "" for others.
    static QString slotOfAnalysis(const QString& title);

private:
    struct Entry {
        QPointer<QMessageBox> box;
        QString title, slot;
    };
    QWidget* parent_;
    QList<Entry> open_;
};

}  // namespace warplab::app
