// Temporary names that carry their writer's identity, and the removal of those whose writer
// died (see temporary_files.h).
#include "io/temporary_files.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace warplab::io {

namespace {

std::string readSmallFile(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool processExists(long pid) {
    if (pid <= 0) return false;
    // EPERM: it exists but belongs to someone else.
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

// Digits only, the whole of `s`.
bool parseNumber(const std::string& s, unsigned long long& v) {
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size();
}

// Whether the temporary with this suffix (after ".tmp-") belongs to a process that still runs.
// Unknown shapes count as alive: they are not ours to remove.
bool writerAlive(const std::string& suffix) {
    std::vector<unsigned long long> parts;
    std::size_t from = 0;
    while (true) {
        const std::size_t dash = suffix.find('-', from);
        unsigned long long v = 0;
        if (!parseNumber(suffix.substr(from, dash == std::string::npos ? std::string::npos : dash - from), v)) return true;
        parts.push_back(v);
        if (dash == std::string::npos) break;
        from = dash + 1;
    }
    const long pid = parts.empty() ? 0 : long(parts[0]);
    if (parts.size() == 3) {  // pid, start ticks, counter
        if (!processExists(pid)) return false;
        const unsigned long long start = processStartTicks(pid);
        return start == 0 || start == parts[1];  // no /proc: trust the pid alone
    }
    if (parts.size() == 2) {  // older form: pid, counter
        if (!processExists(pid)) return false;
        const std::string comm = readSmallFile("/proc/" + std::to_string(pid) + "/comm");
        return comm.empty() || comm.rfind("warplab", 0) == 0;
    }
    return true;
}

}  // namespace

unsigned long long processStartTicks(long pid) {
    if (pid <= 0) return 0;
    const std::string stat = readSmallFile("/proc/" + std::to_string(pid) + "/stat");
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so count the fields
    // after the last ')'; starttime is field 22, the 20th after it.
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(stat.substr(close + 1));
    std::string field;
    for (int i = 0; i < 20 && (rest >> field); ++i) {
    }
    unsigned long long v = 0;
    return parseNumber(field, v) ? v : 0;
}

std::vector<std::string> removeStaleTemporaries(const std::string& path) {
    std::vector<std::string> removed;
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const std::string prefix = target.filename().string() + ".tmp-";
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
        if (writerAlive(name.substr(prefix.size()))) continue;
        std::error_code rm;
        if (fs::remove(it->path(), rm)) removed.push_back(it->path().string());
    }
    return removed;
}

std::string temporaryPathFor(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    static const long pid = long(::getpid());
    static const unsigned long long start = processStartTicks(pid);
    removeStaleTemporaries(path);
    return path + ".tmp-" + std::to_string(pid) + "-" + std::to_string(start) + "-" + std::to_string(counter++);
}

}  // namespace warplab::io
