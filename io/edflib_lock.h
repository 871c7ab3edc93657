// EDFlib keeps its open files in a global table and is not thread-safe: every EDFlib call in
// io/ holds this one mutex (recursive, since a constructor running under it may close a file).
#pragma once
#include <mutex>

namespace warplab::io {

inline std::recursive_mutex& edflibMutex() {
    static std::recursive_mutex m;
    return m;
}

}  // namespace warplab::io
