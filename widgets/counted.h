// Counts in words: "1 region", "3 regions". No translator is loaded, so Qt's %n plural forms
// would print "region(s)"; the caller gives both forms, each through tr().
#pragma once
#include <QChar>
#include <QString>

namespace warplab::widgets {

inline QString counted(long long n, const QString& one, const QString& many) {
    return QString::number(n) + QChar(' ') + (n == 1 ? one : many);
}

}  // namespace warplab::widgets
