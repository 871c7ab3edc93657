#include "io/events_tsv.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "io/io_error.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace {

std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t b = 0;
    for (;;) {
        const std::size_t t = line.find('\t', b);
        out.push_back(line.substr(b, t == std::string_view::npos ? std::string_view::npos : t - b));
        if (t == std::string_view::npos) return out;
        b = t + 1;
    }
}

bool isNa(std::string_view v) { return v.empty() || lower(std::string(v)) == "n/a"; }

std::optional<double> number(std::string_view v) {
    const std::string t = trim(v);
    double x = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
    if (ec != std::errc() || end != t.data() + t.size() || t.empty() || !std::isfinite(x)) return std::nullopt;
    return x;
}

std::string fixed6(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", v);
    std::string s = buf;
    while (s.size() > 1 && s.back() == '0') s.pop_back();  // 12.500000 -> 12.5, 3.000000 -> 3
    if (s.back() == '.') s.pop_back();
    return s;
}

std::string orNa(const std::string& s) { return s.empty() ? "n/a" : s; }

}  // namespace

bool isSeizureEventType(std::string_view eventType) {
    const std::string t = lower(trim(eventType));
    return t.empty() || t == "n/a" || t.rfind("sz", 0) == 0 || t.rfind("seiz", 0) == 0;
}

EventTable parseEventsTsv(std::string_view text, const std::string& file) {
    EventTable table;
    int onsetCol = -1, durationCol = -1, typeCol = -1, channelsCol = -1, confidenceCol = -1, dateCol = -1,
        recDurCol = -1;
    std::vector<std::string> names;
    std::size_t pos = 0;
    int lineNo = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        std::string_view line = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (trim(line).empty()) continue;
        const auto f = fields(line);
        if (names.empty()) {
            for (std::size_t c = 0; c < f.size(); ++c) {
                std::string n = trim(f[c]);
                if (lineNo == 1 && c == 0 && n.rfind("\xEF\xBB\xBF", 0) == 0) n = n.substr(3);  // a BOM
                names.push_back(n);
                const int ci = int(c);
                if (n == "onset") onsetCol = ci;
                else if (n == "duration") durationCol = ci;
                else if (n == "eventType" || n == "trial_type") typeCol = ci;
                else if (n == "channels") channelsCol = ci;
                else if (n == "confidence") confidenceCol = ci;
                else if (n == "dateTime") dateCol = ci;
                else if (n == "recordingDuration") recDurCol = ci;
            }
            const std::string where = "line " + std::to_string(lineNo);
            if (onsetCol < 0) throw IoError(file, where, "no 'onset' column in the header (columns are separated by tabs)");
            if (durationCol < 0) throw IoError(file, where, "no 'duration' column in the header");
            continue;
        }
        auto where = [&](int col) {
            return "line " + std::to_string(lineNo) + ", column '" + names[std::size_t(col)] + "'";
        };
        if (f.size() < names.size())
            throw IoError(file, "line " + std::to_string(lineNo),
                          "has " + std::to_string(f.size()) + " fields, the header " + std::to_string(names.size()) +
                              " (fields are separated by tabs)");
        EventRow row;
        auto time = [&](int col) {
            const auto v = number(f[std::size_t(col)]);
            if (!v) throw IoError(file, where(col), "'" + trim(f[std::size_t(col)]) + "' is not a finite number of seconds");
            if (*v < 0) throw IoError(file, where(col), "is negative");
            return *v;
        };
        row.onsetS = time(onsetCol);
        row.durationS = time(durationCol);
        if (typeCol >= 0 && !isNa(trim(f[std::size_t(typeCol)]))) row.eventType = trim(f[std::size_t(typeCol)]);
        if (channelsCol >= 0 && !isNa(trim(f[std::size_t(channelsCol)]))) row.channels = trim(f[std::size_t(channelsCol)]);
        if (dateCol >= 0 && !isNa(trim(f[std::size_t(dateCol)]))) row.dateTime = trim(f[std::size_t(dateCol)]);
        if (confidenceCol >= 0 && !isNa(trim(f[std::size_t(confidenceCol)]))) {
            row.confidence = number(f[std::size_t(confidenceCol)]);
            if (!row.confidence)
                throw IoError(file, where(confidenceCol), "'" + trim(f[std::size_t(confidenceCol)]) + "' is not a number");
        }
        if (recDurCol >= 0 && !isNa(trim(f[std::size_t(recDurCol)]))) {
            const double d = time(recDurCol);
            if (table.recordingDurationS && *table.recordingDurationS != d)
                throw IoError(file, where(recDurCol),
                              "disagrees with an earlier row (" + fixed6(*table.recordingDurationS) + " s)");
            table.recordingDurationS = d;
        }
        table.rows.push_back(std::move(row));
    }
    if (names.empty()) throw IoError(file, "", "empty: no header row (onset, duration, ...)");
    return table;
}

EventTable readEventsTsv(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open the events file");
    std::ostringstream ss;
    ss << in.rdbuf();
    return parseEventsTsv(ss.str(), path);
}

std::vector<compute::TimedEvent> seizureEvents(const EventTable& table) {
    std::vector<compute::TimedEvent> out;
    for (const auto& r : table.rows)
        if (isSeizureEventType(r.eventType)) out.push_back({r.onsetS, r.onsetS + r.durationS});
    return out;
}

std::string formatEventsTsv(const EventTable& table) {
    std::string s = "onset\tduration\teventType\tconfidence\tchannels\tdateTime\trecordingDuration\n";
    const std::string recDur = table.recordingDurationS ? fixed6(*table.recordingDurationS) : "n/a";
    for (const auto& r : table.rows) {
        s += fixed6(r.onsetS) + "\t" + fixed6(r.durationS) + "\t" + orNa(r.eventType) + "\t" +
             (r.confidence ? fixed6(*r.confidence) : "n/a") + "\t" + orNa(r.channels) + "\t" + orNa(r.dateTime) + "\t" +
             recDur + "\n";
    }
    return s;
}

void writeEventsTsv(const std::string& path, const EventTable& table) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError(path, "", "cannot write the events file");
    out << formatEventsTsv(table);
    out.flush();
    if (!out) throw IoError(path, "", "writing the events file failed");
}

}  // namespace warplab::io
