// Writes a generated study of the published pattern-discovery shape as real EDF
// files through io::EdfWriter, with a CHB-MIT style summary file placing the seizures:
//   warplab-make-study DIR [--files 42] [--seconds 14044] [--last-seconds 14145]
//                          [--channels 23] [--rate 256] [--threads N]
// Defaults: 42 files, 41 of 14,044 s and one of 14,145 s (163.9 h), 23 channels at 256 Hz,
// 16-bit: 589,823 epochs of 1024 at stride 256 that never cross a file end, 7 seizures of
// 436 s in all, one per file (each of L s gives L - 3 patterns: 415 patterns), about 6.9 GB.
// (42 one-hour files would hold only 151,000 such epochs: the published 589,823 need 164 h,
// so the files are 3.9 h each.) Files are EDF+ (EDFlib writes
// no plain EDF), with an empty annotation signal. Data: background rhythms and
// hashed noise per channel and file; each seizure adds a 3 Hz spike-and-wave starting on a
// whole second. DIR/chb99-summary.txt lists the files, their clock times (3 s gaps) and seizures.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "io/edf_writer.h"

using namespace warplab::io;

namespace {

const char* kLabels[23] = {"FP1-F7", "F7-T7", "T7-P7", "P7-O1", "FP1-F3", "F3-C3", "C3-P3", "P3-O1",
                           "FP2-F4", "F4-C4", "C4-P4", "P4-O2", "FP2-F8", "F8-T8", "T8-P8", "P8-O2",
                           "FZ-CZ", "CZ-PZ", "P7-T7", "T7-FT9", "FT9-FT10", "FT10-T8", "T8-P8"};

struct Seizure {
    int file;
    long long startS, lengthS;
};

std::uint32_t hash(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return std::uint32_t(x);
}

std::string clock(long long s) {
    char b[32];
    std::snprintf(b, sizeof b, "%02lld:%02lld:%02lld", (s / 3600) % 24, (s / 60) % 60, s % 60);
    return b;
}

void writeFile(const std::string& path, int file, long long seconds, int channels, int rate,
               const std::vector<Seizure>& seizures, long long clockStart) {
    EdfWriterHeader h;
    h.year = 2026;
    h.hour = int((clockStart / 3600) % 24);
    h.minute = int((clockStart / 60) % 60);
    h.second = int(clockStart % 60);
    std::vector<EdfWriterSignal> sig;
    for (int c = 0; c < channels; ++c) {
        std::string label = kLabels[c % 23];
        if (c >= 23) label += "-" + std::to_string(c / 23);
        sig.push_back({label, "uV", "", "", -3276.8, 3276.7, -32768, 32767, rate});
    }
    EdfWriter w(path, h, sig);
    std::vector<int> rec(std::size_t(channels) * rate);
    const double pi = 3.14159265358979;
    for (long long r = 0; r < seconds; ++r) {
        double ictal = -1;  // seconds into a seizure, or < 0
        for (const auto& z : seizures)
            if (z.file == file && r >= z.startS && r < z.startS + z.lengthS) ictal = double(r - z.startS);
        for (int c = 0; c < channels; ++c) {
            const double a = 1.0 + 0.1 * (c % 7), ph = 0.37 * c + 1.3 * file;
            for (int k = 0; k < rate; ++k) {
                const double t = double(r) + double(k) / rate;
                double v = 30 * a * std::sin(2 * pi * 10 * t + ph) + 20 * std::sin(2 * pi * 6.3 * t + 2 * ph) +
                           double(hash((std::uint64_t(file) << 48) ^ (std::uint64_t(c) << 40) ^ std::uint64_t(r * rate + k)) % 2001) / 25.0 - 40;
                if (ictal >= 0) {
                    // 3 Hz spike-and-wave, rigid on the second grid of the seizure.
                    const double u = std::fmod(ictal + double(k) / rate, 1.0 / 3.0) * 3.0;
                    v += 200 * a * (u < 0.15 ? std::sin(pi * u / 0.15) : -0.4 * std::sin(pi * (u - 0.15) / 0.85));
                }
                rec[std::size_t(c) * rate + std::size_t(k)] = int(std::lround(std::clamp(v * 10, -32768.0, 32767.0)));
            }
        }
        w.writeRecordDigital(rec.data());
    }
    w.close();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: warplab-make-study DIR [--files N] [--seconds S] [--last-seconds S] "
                             "[--channels C] [--rate HZ] [--threads T]\n");
        return 2;
    }
    const std::string dir = argv[1];
    int files = 42, channels = 23, rate = 256, threads = int(std::max(1u, std::thread::hardware_concurrency()));
    long long seconds = 14044, lastSeconds = 14145;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        const long long v = std::atoll(argv[i + 1]);
        if (k == "--files") files = int(v);
        else if (k == "--seconds") seconds = v;
        else if (k == "--last-seconds") lastSeconds = v;
        else if (k == "--channels") channels = int(v);
        else if (k == "--rate") rate = int(v);
        else if (k == "--threads") threads = int(v);
        else {
            std::fprintf(stderr, "warplab-make-study: unknown option %s\n", k.c_str());
            return 2;
        }
    }
    if (files < 1 || seconds < 60 || lastSeconds < 60 || channels < 1 || rate < 1 || threads < 1) {
        std::fprintf(stderr, "warplab-make-study: --files, --channels, --rate, --threads >= 1; --seconds >= 60\n");
        return 2;
    }
    // Seven seizures, one per file, 436 s in all. Patterns are cut per recording from that
    // recording's own seizures (never across two files), so a seizure of L s gives L - 3
    // patterns of 1024 at stride 256: 436 - 7 * 3 = 415 patterns, the published count.
    const long long lengths[7] = {43, 55, 64, 78, 61, 69, 66};
    std::vector<Seizure> seizures;
    for (int z = 0; z < 7; ++z) {
        const int f = int((long long)(2 * z + 1) * files / 14);
        const long long len = f == files - 1 ? lastSeconds : seconds;
        seizures.push_back({f, std::min(len - lengths[z] - 1, 1000 + 977LL * z), lengths[z]});
    }
    std::filesystem::create_directories(dir);
    std::vector<std::string> names;
    std::vector<long long> starts;
    long long clockAt = 11 * 3600 + 42 * 60 + 54;
    for (int f = 0; f < files; ++f) {
        char b[64];
        std::snprintf(b, sizeof b, "chb99_%02d.edf", f + 1);
        names.push_back(b);
        starts.push_back(clockAt);
        clockAt += (f == files - 1 ? lastSeconds : seconds) + 3;
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<int> next{0}, failed{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            for (int f; (f = next++) < files;) {
                try {
                    writeFile(dir + "/" + names[std::size_t(f)], f, f == files - 1 ? lastSeconds : seconds, channels, rate,
                              seizures, starts[std::size_t(f)]);
                } catch (const std::exception& e) {
                    std::fprintf(stderr, "warplab-make-study: %s\n", e.what());
                    ++failed;
                }
            }
        });
    for (auto& t : pool) t.join();
    if (failed) return 1;
    std::ofstream s(dir + "/chb99-summary.txt");
    s << "Data Sampling Rate: " << rate << " Hz\n*************************\n\nChannels in EDF Files:\n**********************\n";
    for (int c = 0; c < channels; ++c) s << "Channel " << c + 1 << ": " << kLabels[c % 23] << "\n";
    s << "\n";
    for (int f = 0; f < files; ++f) {
        const long long len = f == files - 1 ? lastSeconds : seconds;
        int n = 0;
        for (const auto& z : seizures) n += z.file == f;
        s << "File Name: " << names[std::size_t(f)] << "\nFile Start Time: " << clock(starts[std::size_t(f)])
          << "\nFile End Time: " << clock(starts[std::size_t(f)] + len) << "\nNumber of Seizures in File: " << n << "\n";
        int k = 0;
        for (const auto& z : seizures)
            if (z.file == f) {
                ++k;
                const std::string tag = n > 1 ? "Seizure " + std::to_string(k) + " " : "Seizure ";
                s << tag << "Start Time: " << z.startS << " seconds\n" << tag << "End Time: " << z.startS + z.lengthS << " seconds\n";
            }
        s << "\n";
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("wrote %d files (%d channels, %d Hz) and chb99-summary.txt to %s in %.1f s\n", files, channels, rate,
                dir.c_str(), secs);
    return s ? 0 : 1;
}
