// `warplab-cli bench long-recording`: reading very long recordings through io::Recording.
//   bench long-recording write PATH [SAMPLES]   a generated one-channel EDF+ of SAMPLES samples
//       (default 150 million: 162.8 h at 256 Hz, 1-s records) written with io::EdfWriter
//   bench long-recording read PATH [WINDOW_SECONDS] [RANDOM_WINDOWS] [--lenient] [--cold]
//       the whole channel window by window, then random windows; throughput and peak RSS.
//       --cold first drops this one file from the page cache (posix_fadvise DONTNEED), so the
//       reads come from the disk; --lenient forces the lenient raw reader.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "compute/core/error.h"
#include "io/edf_writer.h"
#include "io/recording.h"

namespace warplab::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct LongRecordingOptions {
    std::string path;
    long long samples = 150000000LL;
    double windowSeconds = 60;
    int randomWindows = 1000;
    bool lenient = false, cold = false;
};

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

long peakRssKiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

void writeLongRecording(const LongRecordingOptions& o) {
    if (o.samples < 1)
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "SAMPLES", "needs at least one sample");
    const int spr = 256;
    const long long records = (o.samples + spr - 1) / spr;
    io::EdfWriterHeader h;
    h.year = 2024;
    h.patientCode = "generated";
    h.recordingAdditional = "warplab-cli bench long-recording";
    io::EdfWriter w(o.path, h, {{"EEG gen", "uV", "", "", -3276.8, 3276.7, -32768, 32767, spr}});
    std::vector<int> rec(spr);
    std::uint32_t noise = 12345;
    const auto t0 = Clock::now();
    for (long long r = 0; r < records; ++r) {
        for (int k = 0; k < spr; ++k) {
            // A 10 Hz rhythm, a slow drift and a little noise: digital values of a plausible EEG.
            noise = noise * 1664525u + 1013904223u;
            const double t = double(r * spr + k) / spr;
            rec[std::size_t(k)] = int(std::lround(500 * std::sin(2 * M_PI * 10 * t) + 200 * std::sin(2 * M_PI * t / 3600) +
                                                  double(noise >> 24) - 128));
        }
        w.writeRecordDigital(rec.data());
    }
    w.close();
    std::printf("wrote %s: %lld records x %d samples = %lld samples in %.1f s\n", o.path.c_str(), records, spr,
                records * spr, seconds(t0, Clock::now()));
}

void dropFromPageCache(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
}

void readLongRecording(const LongRecordingOptions& o) {
    if (o.cold) dropFromPageCache(o.path);
    io::OpenOptions oo;
    oo.forceLenient = o.lenient;
    const auto t0 = Clock::now();
    const auto rec = io::Recording::open(o.path, oo);
    const auto t1 = Clock::now();
    const io::SignalInfo& s = rec->signals().at(0);
    const long long win = std::llround(o.windowSeconds * s.rateHz);
    if (win < 1 || win > s.samples)
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "WINDOW_SECONDS",
                                   "a window must hold 1 to " + std::to_string(s.samples) + " samples");
    double sum = 0;
    for (long long start = 0; start < s.samples; start += win) {
        const auto v = rec->read(0, start, std::min(win, s.samples - start));
        for (float x : v) sum += x;
    }
    const auto t2 = Clock::now();
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<long long> pick(0, s.samples - win);
    double rsum = 0;
    for (int i = 0; i < o.randomWindows; ++i) {
        const auto v = rec->read(0, pick(rng), win);
        rsum += v[0];
    }
    const auto t3 = Clock::now();
    const double full = seconds(t1, t2), rnd = seconds(t2, t3);
    std::printf("reader: %s\n", o.lenient ? "lenient raw reader" : (rec->warnings().empty() ? "EDFlib" : "lenient raw reader"));
    std::printf("samples: %lld (%.1f h at %.0f Hz)\n", s.samples, double(s.samples) / s.rateHz / 3600, s.rateHz);
    std::printf("open: %.3f s\n", seconds(t0, t1));
    std::printf("whole channel in %.0f-s windows: %.2f s, %.1f Msamples/s (checksum %.6g)\n", o.windowSeconds, full,
                double(s.samples) / full / 1e6, sum);
    std::printf("random %.0f-s windows: %d in %.3f s, %.3f ms per window (checksum %.6g)\n", o.windowSeconds,
                o.randomWindows, rnd, 1e3 * rnd / std::max(1, o.randomWindows), rsum);
    std::printf("peak RSS: %ld KiB\n", peakRssKiB());
    std::fflush(stdout);
}

}  // namespace

void addBenchLongRecordingCommand(CLI::App& bench) {
    auto o = std::make_shared<LongRecordingOptions>();
    auto* cmd = bench.add_subcommand("long-recording", "write a generated long EDF+ recording, or time reading one");
    cmd->require_subcommand(1);
    auto* write = cmd->add_subcommand("write", "write a generated one-channel EDF+ at 256 Hz (1-s records)");
    write->add_option("PATH", o->path, "the EDF+ file to write")->required();
    write->add_option("SAMPLES", o->samples, "samples (150,000,000: 162.8 h)")->capture_default_str();
    write->callback([o] { writeLongRecording(*o); });
    auto* read = cmd->add_subcommand("read", "read the first channel whole, window by window, then random windows");
    read->add_option("PATH", o->path, "the recording")->required();
    read->add_option("WINDOW_SECONDS", o->windowSeconds, "window length in seconds")->capture_default_str();
    read->add_option("RANDOM_WINDOWS", o->randomWindows, "random windows read after the whole channel")->capture_default_str();
    read->add_flag("--lenient", o->lenient, "force the lenient raw reader");
    read->add_flag("--cold", o->cold, "drop the file from the page cache first, so that the reads come from the disk");
    read->callback([o] { readLongRecording(*o); });
}

}  // namespace warplab::cli
