// The scale measurement of docs/PERFORMANCE.md ("Reading long recordings"): writes a generated
// one-channel EDF+ of N samples (default 150 million: 162.8 h at 256 Hz, 1-s records) with
// EdfWriter, then reads the whole channel window by window and random windows through
// Recording, printing throughput and peak RSS.
//   warplab-long-recording write PATH [SAMPLES]
//   warplab-long-recording read PATH [WINDOW_SECONDS] [RANDOM_WINDOWS] [--lenient] [--cold]
// --cold first drops this one file from the page cache (posix_fadvise DONTNEED), so the
// reads come from the disk.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "io/edf_writer.h"
#include "io/recording.h"

using namespace warplab::io;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

long peakRssKiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

int write(const std::string& path, long long samples) {
    const int spr = 256;
    const long long records = (samples + spr - 1) / spr;
    EdfWriterHeader h;
    h.year = 2024;
    h.patientCode = "generated";
    h.recordingAdditional = "warplab-long-recording";
    EdfWriter w(path, h, {{"EEG gen", "uV", "", "", -3276.8, 3276.7, -32768, 32767, spr}});
    std::vector<int> rec(spr);
    std::uint32_t noise = 12345;
    const auto t0 = Clock::now();
    for (long long r = 0; r < records; ++r) {
        for (int k = 0; k < spr; ++k) {
            // A 10 Hz rhythm, a slow drift and a little noise: digital values of a plausible EEG.
            noise = noise * 1664525u + 1013904223u;
            const double t = double(r * spr + k) / spr;
            rec[k] = int(std::lround(500 * std::sin(2 * M_PI * 10 * t) + 200 * std::sin(2 * M_PI * t / 3600) +
                                     double(noise >> 24) - 128));
        }
        w.writeRecordDigital(rec.data());
    }
    w.close();
    std::printf("wrote %s: %lld records x %d samples = %lld samples in %.1f s\n", path.c_str(), records, spr,
                records * spr, seconds(t0, Clock::now()));
    return 0;
}

void dropFromPageCache(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
}

int read(const std::string& path, double windowS, int randomWindows, bool lenient, bool cold) {
    if (cold) dropFromPageCache(path);
    OpenOptions o;
    o.forceLenient = lenient;
    const auto t0 = Clock::now();
    auto rec = Recording::open(path, o);
    const auto t1 = Clock::now();
    const SignalInfo& s = rec->signals().at(0);
    const long long win = std::llround(windowS * s.rateHz);
    double sum = 0;
    for (long long start = 0; start < s.samples; start += win) {
        const auto v = rec->read(0, start, std::min(win, s.samples - start));
        for (float x : v) sum += x;
    }
    const auto t2 = Clock::now();
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<long long> pick(0, s.samples - win);
    double rsum = 0;
    for (int i = 0; i < randomWindows; ++i) {
        const auto v = rec->read(0, pick(rng), win);
        rsum += v[0];
    }
    const auto t3 = Clock::now();
    const double full = seconds(t1, t2), rnd = seconds(t2, t3);
    std::printf("reader: %s\n", lenient ? "lenient raw reader" : (rec->warnings().empty() ? "EDFlib" : "lenient raw reader"));
    std::printf("samples: %lld (%.1f h at %.0f Hz)\n", s.samples, double(s.samples) / s.rateHz / 3600, s.rateHz);
    std::printf("open: %.3f s\n", seconds(t0, t1));
    std::printf("whole channel in %.0f-s windows: %.2f s, %.1f Msamples/s (checksum %.6g)\n", windowS, full,
                double(s.samples) / full / 1e6, sum);
    std::printf("random %.0f-s windows: %d in %.3f s, %.3f ms per window (checksum %.6g)\n", windowS, randomWindows, rnd,
                1e3 * rnd / std::max(1, randomWindows), rsum);
    std::printf("peak RSS: %ld KiB\n", peakRssKiB());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc >= 3 && std::strcmp(argv[1], "write") == 0)
            return write(argv[2], argc > 3 ? std::atoll(argv[3]) : 150000000LL);
        if (argc >= 3 && std::strcmp(argv[1], "read") == 0) {
            bool lenient = false, cold = false;
            std::vector<std::string> pos;
            for (int i = 3; i < argc; ++i) {
                if (std::strcmp(argv[i], "--lenient") == 0) lenient = true;
                else if (std::strcmp(argv[i], "--cold") == 0) cold = true;
                else pos.push_back(argv[i]);
            }
            return read(argv[2], pos.size() > 0 ? std::atof(pos[0].c_str()) : 60.0,
                        pos.size() > 1 ? std::atoi(pos[1].c_str()) : 1000, lenient, cold);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    std::fprintf(stderr, "usage: %s write PATH [SAMPLES] | read PATH [WINDOW_S] [RANDOM_WINDOWS] [--lenient] [--cold]\n", argv[0]);
    return 2;
}
