// Unsaved marks: knows whether the regions (of the recording, and of every recording of an open
// study) were edited since they were last opened or saved (any undoable edit counts), shows it in the title bar ([*]), asks
// Save / Discard / Cancel before they would be lost (closing, opening another recording,
// study or session), and saves them beside each recording as "<stem>_regions.csv", the file
// File ▸ Export regions proposes, which opening a recording reads back. It also drives the
// recovery journal: every change to the state is journaled; saved or discarded, the recovery
// file goes.
#pragma once
#include <functional>
#include <set>

#include <QMessageBox>
#include <QObject>
#include <QString>
#include <nlohmann/json.hpp>

#include "io/session.h"

class QWidget;

namespace warplab::app {

class Document;
class RecoveryJournal;
class StudyController;

class UnsavedGuard : public QObject {
    Q_OBJECT
public:
    // `window` gets the modified mark and parents the question; `capture` returns the window's
    // state as a session (regions, study regions, montage, filters, channel selection).
    UnsavedGuard(QWidget* window, Document* doc, StudyController* study, std::function<io::Session()> capture);

    RecoveryJournal* journal() const { return journal_; }
    bool hasUnsavedMarks() const;

    // A recording was opened from its file: reads the regions saved beside it (when there is
    // such a file) and takes that as the saved state. Returns how many regions were read.
    int opened();
    void markClean();     // the state now is the saved one (a study or a session opened, saved)
    void markRestored();  // restored from a recovery file: unsaved until saved or discarded

    // Before the marks would be lost: asks Save / Discard / Cancel when there are unsaved
    // marks. True when the caller may go on (saved, discarded or nothing unsaved); the
    // recovery file is removed then. `what` ends the question ("before closing").
    bool confirm(const QString& what);
    // Replaces the question (tests that do not look at it answer Discard, as before it was asked).
    using Ask = std::function<QMessageBox::StandardButton(const QString& question)>;
    void setAsk(Ask ask) { ask_ = std::move(ask); }
    // Writes the regions beside their recordings; false (and errorOccurred) on failure.
    bool save();

    void changed();  // any change of the state: the title mark, and the journal

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);
    void saved(const QString& message);

private:
    // Journaled besides the regions: montage, channel selection, filters.
    static nlohmann::json viewState(const io::Session& s);
    QString targetFor(const QString& recordingPath);    // where Save writes that recording's regions
    void updateModified();

    QWidget* window_;
    Document* doc_;
    StudyController* study_;
    std::function<io::Session()> capture_;
    RecoveryJournal* journal_;
    bool edited_ = false;       // regions edited since opened or saved
    nlohmann::json savedView_;  // viewState when opened or saved
    // Region files read at open or written by Save in this run: Save may replace them. Any
    // other file of that name is never overwritten (Save picks a free name beside it).
    std::set<QString> ours_;
    Ask ask_;
};

}  // namespace warplab::app
