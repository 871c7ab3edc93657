// A small generated study for the study tests (io, CLI): four short EDF+ files written through
// io::EdfWriter, 64 Hz, with a gap, a channel missing from one file, a repeated label, two
// seizures in different files, and CHB-MIT style summaries (one complete, one naming an
// absent file). Qt-free so that every suite can use it.
#pragma once
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "io/edf_writer.h"

namespace study_fixture {

struct FileSpec {
    std::string name;
    int hour, minute, second;  // start on 2020-02-03
    int seconds;               // duration (1-s records)
    bool hasCz;                // the "CZ" channel (missing from one file)
    double seizureStart, seizureEnd;  // 0, 0: none
};

inline const std::vector<FileSpec>& files() {
    // a: 10:00:00 +60 s; b: 10:01:00 +45 s (no gap, no CZ); c: 10:05:00 +50 s (gap of 195 s
    // after b); d: 10:05:55 +30 s (gap of 5 s). Seizures in a (20-35 s) and c (10-30 s).
    static const std::vector<FileSpec> f = {
        {"s_a.edf", 10, 0, 0, 60, true, 20, 35},
        {"s_b.edf", 10, 1, 0, 45, false, 0, 0},
        {"s_c.edf", 10, 5, 0, 50, true, 10, 30},
        {"s_d.edf", 10, 5, 55, 30, true, 0, 0},
    };
    return f;
}

constexpr int kRate = 64;

// Physical value of channel `c` at sample k of file `f`: a rhythm, louder and faster inside
// the seizure, with a per-file, per-channel pseudo-random component.
inline double value(int f, int c, long k, bool ictal) {
    const double t = double(k) / kRate;
    std::uint32_t h = std::uint32_t(k * 2654435761u) ^ std::uint32_t((f * 31 + c) * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    const double noise = double(h % 2001) / 1000.0 - 1.0;
    const double base = 40 * std::sin(2 * M_PI * (7 + c) * t) + 15 * noise;
    return ictal ? base * 2.5 + 60 * std::sin(2 * M_PI * 3 * t + f) : base;
}

inline std::vector<std::string> channelsOf(const FileSpec& s) {
    std::vector<std::string> ch = {"FP1-F7", "T8-P8", "T8-P8"};
    if (s.hasCz) ch.push_back("CZ");
    return ch;
}

// Writes the four files (the subset `which`, by index, when given) into `dir`.
inline void writeFiles(const std::string& dir, const std::vector<int>& which = {0, 1, 2, 3}) {
    for (int f : which) {
        const FileSpec& s = files()[std::size_t(f)];
        std::vector<warplab::io::EdfWriterSignal> sig;
        for (const auto& label : channelsOf(s))
            sig.push_back({label, "uV", "", "", -500, 500, -32768, 32767, kRate});
        warplab::io::EdfWriterHeader h;
        h.year = 2020;
        h.month = 2;
        h.day = 3;
        h.hour = s.hour;
        h.minute = s.minute;
        h.second = s.second;
        warplab::io::EdfWriter w(dir + "/" + s.name, h, sig);
        std::vector<double> rec(sig.size() * kRate);
        for (int r = 0; r < s.seconds; ++r) {
            for (std::size_t c = 0; c < sig.size(); ++c)
                for (int q = 0; q < kRate; ++q) {
                    const long k = long(r) * kRate + q;
                    const double t = double(k) / kRate;
                    rec[c * kRate + std::size_t(q)] = value(f, int(c), k, t >= s.seizureStart && t < s.seizureEnd);
                }
            w.writeRecordPhysical(rec.data());
        }
        if (s.seizureEnd > s.seizureStart) w.addAnnotation(s.seizureStart, s.seizureEnd - s.seizureStart, "Seizure onset");
        w.addAnnotation(1, -1, "eyes closed");
        w.close();
    }
}

// A CHB-MIT style summary of the four files; `extra` adds an entry for a file that is absent.
inline std::string summaryText(bool extra) {
    std::string t = "Data Sampling Rate: 64 Hz\n*************************\n\nChannels in EDF Files:\n**********************\n"
                    "Channel 1: FP1-F7\nChannel 2: T8-P8\nChannel 3: T8-P8\nChannel 4: CZ\n\n";
    char buf[64];
    bool cz = true;
    for (const auto& s : files()) {
        if (s.hasCz != cz) {  // a montage change, as CHB-MIT summaries write it
            cz = s.hasCz;
            t += "Channels changed:\nChannel 1: FP1-F7\nChannel 2: T8-P8\nChannel 3: T8-P8\n";
            t += cz ? "Channel 4: CZ\n\n" : "\n";
        }
        t += "File Name: " + s.name + "\n";
        std::snprintf(buf, sizeof buf, "File Start Time: %02d:%02d:%02d\n", s.hour, s.minute, s.second);
        t += buf;
        const int end = s.hour * 3600 + s.minute * 60 + s.second + s.seconds;
        std::snprintf(buf, sizeof buf, "File End Time: %02d:%02d:%02d\n", end / 3600, end / 60 % 60, end % 60);
        t += buf;
        const bool sz = s.seizureEnd > s.seizureStart;
        t += std::string("Number of Seizures in File: ") + (sz ? "1" : "0") + "\n";
        if (sz)
            t += "Seizure Start Time: " + std::to_string(int(s.seizureStart)) + " seconds\nSeizure End Time: " +
                 std::to_string(int(s.seizureEnd)) + " seconds\n";
        t += "\n";
    }
    if (extra) t += "File Name: s_e.edf\nFile Start Time: 10:07:00\nFile End Time: 10:08:00\nNumber of Seizures in File: 0\n\n";
    return t;
}

inline void writeSummary(const std::string& path, bool extra) {
    std::ofstream(path, std::ios::binary) << summaryText(extra);
}

}  // namespace study_fixture
