// The recovery journal: what the user marked (regions, a study's regions, montage, filters,
// channel selection) written to a recovery file in the user's data folder shortly after each
// change, so that a crash or a kill loses at most the last second. The file is a session
// (io/session.h) with a "warplab_recovery" format number and the time it was written; one file
// per recording or study, named by a hash of its path. A running WarpLab holds a lock beside
// its file, so that another instance never offers to restore a state still being edited.
#pragma once
#include <functional>
#include <memory>

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include "io/session.h"

class QLockFile;

namespace warplab::app {

inline constexpr int kRecoveryVersion = 1;
// Changes are written at most this long after the first one (debounced: a drag writes once).
inline constexpr int kRecoveryDelayMs = 1000;

// A recovery file found at start, left by a WarpLab that did not close cleanly.
struct RecoveryEntry {
    QString file;        // the recovery file
    io::Session session; // the state it holds
    QDateTime written;   // when it was written
    QString source() const;  // the study or recording it belongs to
};

struct RecoveryScan {
    QList<RecoveryEntry> entries;  // to offer
    QStringList refused;           // one line per file refused (damaged, other version): name and reason
};

class RecoveryJournal : public QObject {
    Q_OBJECT
public:
    // `capture` returns the window's state as a session; `clean` whether it equals what is
    // saved (then nothing needs recovering and the file is removed).
    RecoveryJournal(std::function<io::Session()> capture, std::function<bool()> clean, QObject* parent = nullptr);
    ~RecoveryJournal() override;

    static QString directory();                  // <AppDataLocation>/recovery
    static QString fileFor(const QString& key);  // the recovery file of a recording or study path
    static QString keyOf(const io::Session& s);  // the study when one is open, else the recording

    // Reads every recovery file not held by a running WarpLab. Damaged files and files of
    // another format version are renamed aside (".refused", never deleted) and listed.
    static RecoveryScan scan();
    // One file: throws IoError naming the file and the reason.
    static RecoveryEntry read(const QString& file);

    void touch();    // a change: written within kRecoveryDelayMs
    bool writeNow(); // false when writing failed (failed() says why; the previous file stays)
    void remove();   // the state was saved or discarded: its recovery file goes
    QString currentFile() const { return file_; }

    // Takes over a file found by scan() (the state restored from it is now this window's).
    void adopt(const RecoveryEntry& entry);

Q_SIGNALS:
    void failed(const QString& message);

private:
    void own(const QString& file, const QString& key, bool adopted = false);

    std::function<io::Session()> capture_;
    std::function<bool()> clean_;
    QTimer timer_;
    QString file_;                      // the file this window writes ("" before the first)
    QString key_;                       // whose state it holds (keyOf)
    std::unique_ptr<QLockFile> lock_;   // held while file_ is ours
};

}  // namespace warplab::app
