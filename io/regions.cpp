// Seizure times from CHB-MIT summaries and EDF+ annotations, and the check that marked
// regions lie inside the recording.
#include "io/regions.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "io/io_error.h"
#include "io/recording.h"
#include "io/text_table.h"
#include "io/trim_lower.h"

namespace warplab::io {

std::string regionKindName(RegionKind k) {
    switch (k) {
    case RegionKind::Seizure: return "seizure";
    case RegionKind::Query: return "query";
    case RegionKind::Reference: return "reference";
    }
    return "seizure";
}

namespace {

// "Seizure Start Time: 2996 seconds" or (later CHB-MIT cases) "Seizure 1 Start Time: 2996 seconds".
bool seizureTime(const std::string& line, const char* which, double& seconds) {
    const std::string l = lower(line);
    if (l.rfind("seizure", 0) != 0 || l.find(std::string(which) + " time") == std::string::npos) return false;
    std::size_t colon = l.find(':');
    if (colon == std::string::npos) return false;
    std::string v = trim(l.substr(colon + 1));
    if (v.size() > 7 && v.substr(v.size() - 7) == "seconds") v = trim(v.substr(0, v.size() - 7));
    try {
        std::size_t used = 0;
        seconds = std::stod(v, &used);
        return used == v.size() && std::isfinite(seconds);
    } catch (...) {
        return false;
    }
}

}  // namespace

std::vector<Region> seizuresFromChbSummary(const std::string& summaryPath, const std::string& recordingFile) {
    std::ifstream in(summaryPath, std::ios::binary);
    if (!in) throw IoError(summaryPath, "", "cannot open the summary file");
    const std::string wanted = std::filesystem::path(recordingFile).filename().string();
    const std::string wantedStem = std::filesystem::path(recordingFile).stem().string();
    std::vector<std::string> listed;
    std::string line, current;
    std::size_t lineNo = 0, entryLine = 0;
    long long declared = -1;
    std::vector<double> starts, ends;
    bool found = false;
    auto finishEntry = [&] {
        if (!found || current.empty()) return;
        // Start and end times pair up even when the count line is missing or unreadable.
        if (starts.size() != ends.size() || (declared >= 0 && std::size_t(declared) != starts.size()))
            throw IoError(summaryPath, "line " + std::to_string(entryLine) + " (" + current + ")",
                          "says " + (declared >= 0 ? std::to_string(declared) : std::string("?")) + " seizures but lists " +
                              std::to_string(starts.size()) + " start and " + std::to_string(ends.size()) + " end times");
    };
    while (std::getline(in, line)) {
        ++lineNo;
        line = trim(line);
        const std::string l = lower(line);
        if (l.rfind("file name:", 0) == 0) {
            if (found) break;  // the entry we wanted is complete
            current = trim(line.substr(10));
            listed.push_back(current);
            entryLine = lineNo;
            found = current == wanted || std::filesystem::path(current).stem().string() == wantedStem;
            declared = -1;
            starts.clear();
            ends.clear();
            continue;
        }
        if (!found) continue;
        if (l.rfind("number of seizures", 0) == 0) {
            std::size_t colon = l.find(':');
            try {
                declared = std::stoll(l.substr(colon + 1));
            } catch (...) {
                throw IoError(summaryPath, "line " + std::to_string(lineNo), "unreadable number of seizures");
            }
            continue;
        }
        double s = 0;
        if (seizureTime(line, "start", s)) starts.push_back(s);
        else if (seizureTime(line, "end", s)) ends.push_back(s);
        else if (l.rfind("seizure", 0) == 0)
            throw IoError(summaryPath, "line " + std::to_string(lineNo), "unreadable seizure time: \"" + line + "\"");
    }
    if (!found) {
        std::string names = listed.empty() ? "no File Name entries"
                                           : "it lists " + listed.front() + (listed.size() > 1 ? " ... " + listed.back() : "");
        throw IoError(summaryPath, "File Name", "no entry for \"" + wanted + "\" (" + names + ")");
    }
    finishEntry();
    std::vector<Region> out;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        if (!(ends[i] > starts[i]))
            throw IoError(summaryPath, current + " seizure " + std::to_string(i + 1),
                          "end " + formatDouble(ends[i]) + " s is not after start " + formatDouble(starts[i]) + " s");
        out.push_back({RegionKind::Seizure, -1, starts[i], ends[i], "CHB-MIT summary: " + current});
    }
    return out;
}

std::vector<Region> seizuresFromAnnotations(const Recording& rec, const std::string& pattern) {
    std::vector<Region> out;
    const std::string p = lower(pattern);
    for (const auto& a : rec.annotations()) {
        if (lower(a.text).find(p) == std::string::npos) continue;
        // An annotation without duration marks a moment; it becomes a region reaching to the
        // end of the recording only if nothing better is known, so keep it at zero length and
        // let checkRegions name it.
        out.push_back({RegionKind::Seizure, -1, a.onsetS, a.onsetS + a.durationS, "annotation: " + a.text});
    }
    return out;
}

void checkRegions(const Recording& rec, const std::vector<Region>& regions) {
    const double dur = rec.durationS();
    const int nsig = int(rec.signals().size());
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const Region& r = regions[i];
        const std::string field = "regions[" + std::to_string(i) + "]";
        const std::string span = formatDouble(r.startS) + "-" + formatDouble(r.endS) + " s";
        if (!std::isfinite(r.startS) || !std::isfinite(r.endS))
            throw IoError(rec.path(), field, "start and end must be finite numbers");
        if (r.startS < 0) throw IoError(rec.path(), field, span + " starts before the recording (negative start)");
        if (!(r.endS > r.startS)) throw IoError(rec.path(), field, span + " is empty (end must be after start)");
        if (r.endS > dur + 1e-9)
            throw IoError(rec.path(), field, span + " ends after the recording's end at " + formatDouble(dur) + " s");
        if (r.channel < -1 || r.channel >= nsig)
            throw IoError(rec.path(), field, "channel " + std::to_string(r.channel) + " outside 0.." + std::to_string(nsig - 1));
    }
}

}  // namespace warplab::io
