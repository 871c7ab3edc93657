#include "widgets/atomic_file.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QSaveFile>

namespace warplab::widgets {

QString writeFileAtomically(const QString& path, const std::function<bool(QIODevice& out)>& fill) {
    auto failed = [&](const QString& why) {
        return QCoreApplication::translate("warplab", "%1: not written (%2); a previous file of that name is unchanged")
            .arg(path, why);
    };
    QBuffer content;
    content.open(QIODevice::WriteOnly);
    if (!fill(content)) return failed(QCoreApplication::translate("warplab", "the content could not be made"));
    content.close();
    // Unbuffered, so that a short write (disk full) is seen at write(): buffered, Qt 6.4's
    // commit() renames a temporary cut short by a failed flush over the previous file.
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) return failed(out.errorString());
    // A write cut short (disk full) returns what it wrote; the next one says why.
    const QByteArray& bytes = content.data();
    for (qint64 done = 0; done < bytes.size();) {
        const qint64 n = out.write(bytes.constData() + done, bytes.size() - done);
        if (n <= 0) {
            const QString why = out.errorString();
            out.cancelWriting();
            return failed(why);
        }
        done += n;
    }
    if (!out.commit()) return failed(out.errorString());
    return {};
}

}  // namespace warplab::widgets
