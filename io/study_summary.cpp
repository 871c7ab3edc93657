#include "io/study_summary.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>

#include "io/io_error.h"
#include "io/text_table.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace {

std::string afterColon(const std::string& line) {
    const std::size_t c = line.find(':');
    return c == std::string::npos ? std::string() : trim(line.substr(c + 1));
}

// "13:43:04" (hours may be >= 24) -> seconds; false when malformed.
bool clockSeconds(const std::string& text, double& out) {
    int h = 0, m = 0, s = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%d:%d:%d%c", &h, &m, &s, &tail) != 3) return false;
    // Hours past 23 occur (CHB-MIT writes "24:01:03" for the next day); more than 99 do not.
    if (h < 0 || h > 99 || m < 0 || m > 59 || s < 0 || s > 59) return false;
    out = h * 3600.0 + m * 60.0 + s;
    return true;
}

// "2996 seconds" or "2996" -> 2996.
bool secondsValue(std::string v, double& out) {
    v = lower(trim(v));
    if (v.size() > 7 && v.substr(v.size() - 7) == "seconds") v = trim(v.substr(0, v.size() - 7));
    else if (v.size() > 4 && v.substr(v.size() - 4) == "secs") v = trim(v.substr(0, v.size() - 4));
    try {
        std::size_t used = 0;
        out = std::stod(v, &used);
        return used == v.size() && std::isfinite(out) && out >= 0;
    } catch (...) {
        return false;
    }
}

}  // namespace

bool looksLikeChbSummary(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::string head(1024, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    const std::string l = lower(head);
    return l.find("file name:") != std::string::npos || l.find("data sampling rate:") != std::string::npos;
}

ChbSummary parseChbSummary(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open the summary file");
    ChbSummary out;
    std::vector<std::string> channels;  // the list in effect
    bool readingChannels = false, channelListStarted = false;
    SummaryEntry* cur = nullptr;
    long long declared = -1;
    std::vector<double> starts, ends;
    auto finish = [&] {
        if (!cur) return;
        const std::string where = "line " + std::to_string(cur->line) + " (" + cur->file + ")";
        if (starts.size() != ends.size() || (declared >= 0 && std::size_t(declared) != starts.size()))
            throw IoError(path, where,
                          "says " + (declared >= 0 ? std::to_string(declared) : std::string("?")) + " seizures but lists " +
                              std::to_string(starts.size()) + " start and " + std::to_string(ends.size()) + " end times");
        for (std::size_t i = 0; i < starts.size(); ++i) {
            if (!(ends[i] > starts[i]))
                throw IoError(path, where + " seizure " + std::to_string(i + 1),
                              "end " + formatDouble(ends[i]) + " s is not after start " + formatDouble(starts[i]) + " s");
            cur->seizures.push_back({starts[i], ends[i]});
        }
        starts.clear();
        ends.clear();
        declared = -1;
    };
    std::string raw;
    int lineNo = 0;
    while (std::getline(in, raw)) {
        ++lineNo;
        const std::string line = trim(raw);
        const std::string l = lower(line);
        const std::string where = "line " + std::to_string(lineNo);
        if (line.empty() || line.find_first_not_of('*') == std::string::npos) continue;
        if (l.rfind("data sampling rate", 0) == 0) {
            std::string v = lower(afterColon(line));
            if (v.size() > 2 && v.substr(v.size() - 2) == "hz") v = trim(v.substr(0, v.size() - 2));
            try {
                out.rateHz = std::stod(v);
            } catch (...) {
                throw IoError(path, where, "unreadable sampling rate: \"" + line + "\"");
            }
            continue;
        }
        if (l.rfind("channels in edf files", 0) == 0 || l.rfind("channels changed", 0) == 0) {
            readingChannels = true;
            channelListStarted = false;
            continue;
        }
        if (readingChannels && l.rfind("channel ", 0) == 0 && line.find(':') != std::string::npos) {
            if (!channelListStarted) channels.clear();
            channelListStarted = true;
            channels.push_back(afterColon(line));
            continue;
        }
        readingChannels = false;
        if (l.rfind("file name:", 0) == 0) {
            finish();
            out.entries.push_back({});
            cur = &out.entries.back();
            cur->file = afterColon(line);
            cur->line = lineNo;
            cur->channels = channels;
            if (cur->file.empty()) throw IoError(path, where, "empty file name");
            // A summary describes the files beside it: a name with a folder in it (absolute,
            // "../", "sub/") would make opening the study read elsewhere than the user chose.
            if (cur->file.find_first_of("/\\") != std::string::npos || cur->file == "." || cur->file == "..")
                throw IoError(path, where, "file name \"" + cur->file +
                                               "\" has a folder in it: a summary names only files of its own folder");
            continue;
        }
        if (!cur) continue;  // text before the first entry
        if (l.rfind("file start time", 0) == 0 || l.rfind("file end time", 0) == 0) {
            double v = 0;
            if (!clockSeconds(afterColon(line), v))
                throw IoError(path, where, "unreadable clock time (expected HH:MM:SS): \"" + line + "\"");
            if (l[5] == 's') cur->startClockS = v;
            else {
                cur->endClockS = v;
                cur->hasTimes = true;
            }
            continue;
        }
        if (l.rfind("number of seizures", 0) == 0) {
            try {
                declared = std::stoll(afterColon(line));
            } catch (...) {
                throw IoError(path, where, "unreadable number of seizures: \"" + line + "\"");
            }
            continue;
        }
        if (l.rfind("seizure", 0) == 0) {
            double v = 0;
            const bool isStart = l.find("start time") != std::string::npos, isEnd = l.find("end time") != std::string::npos;
            if ((!isStart && !isEnd) || !secondsValue(afterColon(line), v))
                throw IoError(path, where, "unreadable seizure line: \"" + line + "\"");
            (isStart ? starts : ends).push_back(v);
            continue;
        }
    }
    finish();
    if (out.entries.empty()) throw IoError(path, "File Name", "the summary lists no file (no \"File Name:\" line)");
    return out;
}

}  // namespace warplab::io
