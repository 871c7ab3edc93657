// Helpers shared by the io tests: the message of an expected error, temporary files.
#pragma once
#include <QTemporaryDir>
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

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace iotest
