// Helpers shared by the io tests: the message of an expected error, temporary files.
#pragma once
#include <QTemporaryDir>
#include <sys/resource.h>

#include <csignal>
#include <fstream>
#include <string>

#include "io/io_error.h"

namespace iotest {

// Runs f and returns the message of the IoError/EngineError it throws; "" when none. Any other
// exception type is reported as "<unexpected exception> ...", so a test can tell.
template <typename F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const warplab::compute::EngineError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("<unexpected exception> ") + e.what();
    }
    return {};
}

inline void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

// Writes `bytes` as file `name` of `dir`; returns its path.
inline std::string writeIn(const QTemporaryDir& dir, const std::string& name, const std::string& bytes) {
    const std::string p = dir.filePath(QString::fromStdString(name)).toStdString();
    writeFile(p, bytes);
    return p;
}

// A disk that fills, for the life of the object: a file-size limit of `bytes`, with SIGXFSZ
// ignored so that a write past it fails (EFBIG, "File too large") instead of the process. `ok`:
// the limit was set.
struct FileSizeLimit {
    rlimit old{};
    void (*oldHandler)(int) = nullptr;
    bool ok = false;
    explicit FileSizeLimit(rlim_t bytes) : oldHandler(std::signal(SIGXFSZ, SIG_IGN)) {
        getrlimit(RLIMIT_FSIZE, &old);
        rlimit tight = old;
        tight.rlim_cur = bytes;
        ok = setrlimit(RLIMIT_FSIZE, &tight) == 0;
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
};

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace iotest
