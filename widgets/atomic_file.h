// Every file a view writes (plots, CSV tables) goes through here: the content is made in memory
// first, then written with QSaveFile under a temporary name beside the file and renamed over it
// only once all of it is on disk. A full disk, a file-size limit or a missing folder leaves any
// previous file of that name as it was, no temporary behind, and a message naming the file and
// the reason.
#pragma once
#include <functional>

#include <QString>

class QIODevice;

namespace warplab::widgets {

// `fill` writes the content to the device it is given (an in-memory buffer) and returns false
// when it could not make it. Returns "" once `path` holds all of it, else why not.
QString writeFileAtomically(const QString& path, const std::function<bool(QIODevice& out)>& fill);

}  // namespace warplab::widgets
