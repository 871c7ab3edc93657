#include "io/summary_crops.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

namespace warplab::io {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// "1976-11-06T14:32:59" -> seconds of the day; false for "" or a "+Nd ..." study day.
bool clockOfDay(const std::string& iso, double& seconds) {
    const std::size_t t = iso.find('T');
    int h = 0, m = 0;
    double s = 0;
    if (t == std::string::npos || std::sscanf(iso.c_str() + t + 1, "%d:%d:%lf", &h, &m, &s) != 3) return false;
    seconds = h * 3600.0 + m * 60.0 + s;
    return true;
}

}  // namespace

std::vector<std::pair<double, double>> cropSeizures(const SummaryEntry& e, const StudyRecording& r) {
    std::vector<std::pair<double, double>> out;
    if (e.seizures.empty() || !e.hasTimes || r.status != RecordingStatus::Ok || !r.startKnown) return out;
    const std::string stem = lower(std::filesystem::path(e.file).stem().string());
    const std::string name = lower(r.name);
    if (name.size() <= stem.size() + 1 || name.compare(0, stem.size(), stem) != 0 ||
        (name[stem.size()] != '_' && name[stem.size()] != '-'))
        return out;
    double clock = 0;
    if (!clockOfDay(r.startIso, clock)) return out;
    // Summary clocks may pass 24:00 ("24:01:03"); the excerpt's start is a time of day.
    double offset = clock - e.startClockS;
    while (offset < 0) offset += 86400.0;
    const double fileLength = e.endClockS - e.startClockS;
    if (fileLength > 0 && offset >= fileLength) return out;
    for (const auto& [a, z] : e.seizures) {
        const double s = std::max(0.0, a - offset), t = std::min(r.durationS, z - offset);
        if (t > s) out.emplace_back(s, t);
    }
    return out;
}

std::string chbSummaryInFolder(const std::string& folder) {
    std::error_code ec;
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        std::error_code ec2;
        if (!entry.is_regular_file(ec2)) continue;
        const std::string n = lower(entry.path().filename().string());
        if (n.size() >= 11 && n.compare(n.size() - 11, 11, "summary.txt") == 0 && looksLikeChbSummary(entry.path().string()))
            found.push_back(entry.path().string());
    }
    return found.size() == 1 ? found.front() : std::string();
}

}  // namespace warplab::io
