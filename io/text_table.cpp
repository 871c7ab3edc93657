#include "io/text_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "io/io_error.h"

namespace warplab::io {

namespace {

std::string_view trimView(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
    return s.substr(b, e - b);
}

// Fills `out` (cleared first; reused across lines so that a long file allocates once).
void splitFields(std::string_view line, std::vector<std::string_view>& out) {
    out.clear();
    if (line.find(',') != std::string_view::npos || line.find(';') != std::string_view::npos) {
        const char sep = line.find(',') != std::string_view::npos ? ',' : ';';
        std::size_t pos = 0;
        while (true) {
            std::size_t c = line.find(sep, pos);
            out.push_back(trimView(line.substr(pos, c == std::string_view::npos ? std::string_view::npos : c - pos)));
            if (c == std::string_view::npos) break;
            pos = c + 1;
        }
        // A trailing separator ("1,2,3,") ends the line without starting a field.
        if (out.size() > 1 && out.back().empty()) out.pop_back();
        return;
    }
    std::size_t pos = 0;
    while (pos < line.size()) {
        while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '\r')) ++pos;
        std::size_t e = pos;
        while (e < line.size() && line[e] != ' ' && line[e] != '\t' && line[e] != '\r') ++e;
        if (e > pos) out.push_back(line.substr(pos, e - pos));
        pos = e;
    }
}

// Parses a number (from_chars refuses a leading '+', so one is taken off here, but only before
// the digits: "+-1" is not a number); NaN and infinities parse and are judged by the caller.
bool parseField(std::string_view f, double& v) {
    if (!f.empty() && f[0] == '+') {
        f.remove_prefix(1);
        if (!f.empty() && (f[0] == '-' || f[0] == '+')) return false;
    }
    if (f.empty()) return false;
    auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    return ec == std::errc() && p == f.data() + f.size();
}

}  // namespace

std::string formatDouble(double v) {
    char buf[64];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, p);
}

TextTable parseTextTable(const std::string& file, std::string_view content) {
    TextTable t;
    std::size_t lineNo = 0, pos = 0;
    std::size_t blankLine = 0;  // a blank line seen after data: an error if more data follows
    std::vector<std::string_view> fields;
    if (content.size() >= 3 && content.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;  // UTF-8 BOM
    while (pos < content.size()) {
        std::size_t nl = content.find('\n', pos);
        std::string_view line = content.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? content.size() : nl + 1;
        ++lineNo;
        std::string_view trimmed = trimView(line);
        if (trimmed.empty()) {
            if ((!t.rows.empty() || !t.header.empty()) && !blankLine) blankLine = lineNo;
            continue;
        }
        if (trimmed[0] == '#') continue;  // comment line
        // Built only for a message: a million-line file must not build a million strings.
        const auto where = [&] { return "line " + std::to_string(lineNo); };
        if (blankLine)
            throw IoError(file, "line " + std::to_string(blankLine), "empty line between data lines");
        splitFields(trimmed, fields);
        std::vector<double> row;
        row.reserve(fields.size());
        bool numeric = true;
        for (auto f : fields) {
            double v = 0;
            if (!parseField(f, v)) { numeric = false; break; }
            row.push_back(v);
        }
        if (!numeric) {
            // A header is a first line of names only: no field of it reads as a number.
            const bool names = std::none_of(fields.begin(), fields.end(), [](std::string_view f) {
                double v;
                return parseField(f, v);
            });
            if (names && t.rows.empty() && t.header.empty()) {
                for (auto f : fields) t.header.emplace_back(f);
                continue;
            }
            for (std::size_t i = 0; i < fields.size(); ++i) {
                double v = 0;
                if (!parseField(fields[i], v))
                    throw IoError(file, where() + ", field " + std::to_string(i + 1),
                                  fields[i].empty() ? "empty field" : "not a number: \"" + std::string(fields[i].substr(0, 40)) + "\"");
            }
        }
        std::size_t keep = row.size();
        while (keep > 0 && std::isnan(row[keep - 1])) --keep;
        if (keep < row.size()) t.trailingNanPadding = true;
        row.resize(keep);
        for (std::size_t i = 0; i < row.size(); ++i)
            if (!std::isfinite(row[i]))
                throw IoError(file, where() + ", field " + std::to_string(i + 1),
                              std::isnan(row[i]) ? "NaN value" : "infinite value");
        t.rows.push_back(std::move(row));
        t.lineNumbers.push_back(lineNo);
    }
    if (t.rows.empty()) throw IoError(file, "", "no numeric data");
    return t;
}

}  // namespace warplab::io
