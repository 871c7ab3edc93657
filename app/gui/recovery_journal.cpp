#include "app/gui/recovery_journal.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

#include "io/io_error.h"

namespace warplab::app {
namespace {

constexpr const char* kSuffix = ".recovery.json";

// Locks live as long as their holder: a killed WarpLab's lock is stale by its dead process,
// never by its age (a window may stay open for days).
std::unique_ptr<QLockFile> lockFor(const QString& file) {
    auto lock = std::make_unique<QLockFile>(file + ".lock");
    lock->setStaleLockTime(0);
    return lock;
}

// Moves a refused file aside, never over another one; returns the name it now has.
QString setAside(const QString& file) {
    QString aside = file + ".refused";
    for (int n = 2; QFileInfo::exists(aside); ++n) aside = file + ".refused-" + QString::number(n);
    return QFile::rename(file, aside) ? aside : file;
}

}  // namespace

QString RecoveryEntry::source() const {
    return QString::fromStdString(session.studyPath.empty() ? session.recordingPath : session.studyPath);
}

RecoveryJournal::RecoveryJournal(std::function<io::Session()> capture, std::function<bool()> clean, QObject* parent)
    : QObject(parent), capture_(std::move(capture)), clean_(std::move(clean)) {
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, [this] { writeNow(); });
}

RecoveryJournal::~RecoveryJournal() = default;

QString RecoveryJournal::directory() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

QString RecoveryJournal::keyOf(const io::Session& s) {
    const std::string& p = s.studyPath.empty() ? s.recordingPath : s.studyPath;
    return p.empty() ? QString() : QFileInfo(QString::fromStdString(p)).absoluteFilePath();
}

QString RecoveryJournal::fileFor(const QString& key) {
    // The name shows whose it is; the hash tells apart recordings of the same name.
    const QByteArray hash = QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    QString name = QFileInfo(key).fileName();
    name.replace(QRegularExpression("[^A-Za-z0-9._-]"), "_");
    return directory() + "/" + name + "-" + QString::fromLatin1(hash) + kSuffix;
}

RecoveryEntry RecoveryJournal::read(const QString& file) {
    const std::string name = file.toStdString();
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) throw io::IoError(name, "", "cannot be read: " + f.errorString().toStdString());
    const QByteArray bytes = f.readAll();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size());
    } catch (const nlohmann::json::parse_error& e) {
        throw io::IoError(name, "", "damaged: not valid JSON at byte " + std::to_string(e.byte));
    }
    if (!j.is_object() || !j.contains("warplab_recovery"))
        throw io::IoError(name, "warplab_recovery", "missing: not a WarpLab recovery file");
    const auto& v = j["warplab_recovery"];
    if (!v.is_number_integer() || v.get<long long>() != kRecoveryVersion)
        throw io::IoError(name, "warplab_recovery",
                          "written by another version of WarpLab (recovery format " + v.dump() + "; this one reads " +
                              std::to_string(kRecoveryVersion) + ")");
    RecoveryEntry e;
    e.file = file;
    e.session = io::sessionFromJson(j, name);  // throws IoError naming the field
    // Saved later as a session, the state carries none of the journal's own fields.
    e.session.original.erase("warplab_recovery");
    e.session.original.erase("written_at");
    if (e.session.recordingPath.empty()) throw io::IoError(name, "recording", "empty: no recording to restore");
    if (auto w = j.find("written_at"); w != j.end() && w->is_string())
        e.written = QDateTime::fromString(QString::fromStdString(w->get<std::string>()), Qt::ISODate);
    if (!e.written.isValid()) e.written = QFileInfo(file).lastModified();
    return e;
}

RecoveryScan RecoveryJournal::scan() {
    RecoveryScan out;
    const QDir dir(directory());
    const QStringList files = dir.entryList({QString("*") + kSuffix}, QDir::Files, QDir::Time);
    for (const QString& name : files) {
        const QString file = dir.filePath(name);
        auto lock = lockFor(file);
        if (!lock->tryLock(0)) continue;  // a running WarpLab is editing it
        try {
            out.entries << read(file);
        } catch (const std::exception& e) {
            const QString aside = setAside(file);
            // The folder is named once, above the list.
            const QString why = QString::fromUtf8(e.what()).remove(dir.path() + "/");
            out.refused << tr("%1 (kept as %2)").arg(why, QFileInfo(aside).fileName());
        }
    }
    return out;
}

void RecoveryJournal::own(const QString& file, const QString& key, bool adopted) {
    if (file == file_) return;
    lock_.reset();
    file_ = file;
    key_ = key;
    QDir().mkpath(directory());
    lock_ = lockFor(file);
    // Another WarpLab editing the same recording keeps its lock; both still write, so that
    // neither loses its marks (the later write is what a restart offers).
    const bool locked = lock_->tryLock(0);
    if (adopted || !locked || !QFileInfo::exists(file)) return;
    // A state left earlier and not restored ("Not now"): kept under a dated name, still
    // offered at the next start, never written over.
    const QString stem = file.left(file.size() - int(qstrlen(kSuffix)));
    const QString stamp = QFileInfo(file).lastModified().toString("yyyyMMdd-HHmmss");
    QString aside = stem + "-" + stamp + kSuffix;
    for (int n = 2; QFileInfo::exists(aside); ++n) aside = stem + "-" + stamp + "-" + QString::number(n) + kSuffix;
    QFile::rename(file, aside);
}

void RecoveryJournal::adopt(const RecoveryEntry& entry) { own(entry.file, keyOf(entry.session), true); }

void RecoveryJournal::touch() {
    if (!timer_.isActive()) timer_.start(kRecoveryDelayMs);
}

bool RecoveryJournal::writeNow() {
    timer_.stop();
    const io::Session s = capture_();
    const QString key = keyOf(s);
    if (key.isEmpty()) return true;
    if (key != key_) own(fileFor(key), key);
    if (clean_()) {
        QFile::remove(file_);
        return true;
    }
    nlohmann::json j = io::sessionToJson(s);
    j["warplab_recovery"] = kRecoveryVersion;
    j["written_at"] = QDateTime::currentDateTime().toString(Qt::ISODateWithMs).toStdString();
    const std::string text = j.dump(1) + "\n";
    // QSaveFile writes a temporary beside the file and renames it over only once all of it is
    // on disk: a full disk or a kill mid-write leaves the previous recovery file whole.
    // Unbuffered, so that a short write (disk full) is seen here: buffered, Qt 6.4's commit()
    // renames a temporary cut short by a failed flush over the previous file.
    // A write cut short returns what it wrote; the next one sets the reason (EFBIG, ENOSPC).
    QSaveFile out(file_);
    bool ok = out.open(QIODevice::WriteOnly | QIODevice::Unbuffered);
    for (qint64 done = 0, n = 0; ok && done < qint64(text.size()); done += n)
        ok = (n = out.write(text.data() + done, qint64(text.size()) - done)) > 0;
    if (!ok || !out.commit()) {
        const QString why = out.errorString();
        out.cancelWriting();
        Q_EMIT failed(tr("The recovery file %1 could not be written (%2); the previous one is kept.").arg(file_, why));
        return false;
    }
    return true;
}

void RecoveryJournal::remove() {
    timer_.stop();
    if (!file_.isEmpty()) QFile::remove(file_);
}

}  // namespace warplab::app
