#include "app/cli/time_split.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/cli/process_exit.h"

#if defined(__linux__)
#include <time.h>
#include <unistd.h>
#endif

namespace warplab::cli {

double secondsSinceProcessStart() {
#if defined(__linux__)
    // Field 22 of /proc/self/stat: the start in clock ticks after boot. The command name (field
    // 2) is in parentheses and may hold spaces: count fields after its closing one.
    std::ifstream f("/proc/self/stat");
    std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) return -1;
    std::istringstream rest(stat.substr(close + 2));
    std::string field;
    unsigned long long startTicks = 0;
    for (int k = 3; k <= 22; ++k) {
        if (!(rest >> field)) return -1;
        if (k == 22) startTicks = std::stoull(field);
    }
    const long hz = sysconf(_SC_CLK_TCK);
    timespec now{};
    if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0) return -1;
    const double s = double(now.tv_sec) + double(now.tv_nsec) * 1e-9 - double(startTicks) / double(hz);
    return s >= 0 ? s : -1;
#else
    return -1;
#endif
}

TimeSplit::TimeSplit() : last_(std::chrono::steady_clock::now()), launch_(secondsSinceProcessStart()) {}

void TimeSplit::mark(Phase p) {
    const auto now = std::chrono::steady_clock::now();
    phase_[p] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
}

void TimeSplit::move(Phase from, Phase to, double seconds) {
    phase_[from] -= seconds;
    phase_[to] += seconds;
}

void TimeSplit::setBackground(double seconds, const std::string& what) {
    background_ = seconds;
    backgroundWhat_ = what;
}

double TimeSplit::lastByteSeconds() const {
    double t = launch_ > 0 ? launch_ : 0;
    for (double p : phase_) t += p;
    return t;
}

std::string TimeSplit::line(const std::string& command) const {
    char launch[32] = "(unknown)", buf[320];
    if (launch_ >= 0) std::snprintf(launch, sizeof launch, "%.3f", launch_);
    std::snprintf(buf, sizeof buf,
                  "split: %s: last byte %.3f s after the process started = launch %s + start-up %.3f + input %.3f + "
                  "compute %.3f + output %.3f s",
                  command.c_str(), lastByteSeconds(), launch, phase_[StartUp], phase_[Input], phase_[Compute],
                  phase_[Output]);
    std::string s = buf;
    if (background_ >= 0) {
        std::snprintf(buf, sizeof buf, " (in the background while the input was read: %s %.3f s)",
                      backgroundWhat_.c_str(), background_);
        s += buf;
    }
    // What follows the last byte is timed only outside; the line says which exit it is.
    return s + (fullTeardownAtExit() ? "; exit: through the full teardown" : "; exit: at once, without the teardown");
}

void TimeSplit::print(const std::string& command) const {
    std::fprintf(stderr, "%s\n", line(command).c_str());
    std::fflush(stderr);
}

}  // namespace warplab::cli
