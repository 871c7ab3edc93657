// Distance matrices as CSV with round-trip precision: std::to_chars' shortest form reads back
// bit-exact through std::from_chars. Names, when present, go in a header line and a first
// column (RFC 4180 quoting).
#include <charconv>
#include <fstream>
#include <sstream>

#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/text_table.h"

namespace warplab::io {

namespace {

std::string quote(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos && !s.empty()) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

// Splits one CSV line, honouring quotes; `quoted[i]` tells whether field i was quoted.
std::vector<std::string> splitCsv(const std::string& line, std::vector<bool>& quoted) {
    std::vector<std::string> out;
    quoted.clear();
    std::string cur;
    bool inQuotes = false, wasQuoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (inQuotes) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') { cur += '"'; ++i; }
            else if (c == '"') inQuotes = false;
            else cur += c;
        } else if (c == '"') {
            inQuotes = wasQuoted = true;
        } else if (c == ',') {
            out.push_back(cur);
            quoted.push_back(wasQuoted);
            cur.clear();
            wasQuoted = false;
        } else if (c != '\r') {
            cur += c;
        }
    }
    out.push_back(cur);
    quoted.push_back(wasQuoted);
    return out;
}

bool number(const std::string& s, double& v) {
    const char* b = s.data();
    if (!s.empty() && s[0] == '+') ++b;
    auto [p, ec] = std::from_chars(b, s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

void writeMatrixCsv(const std::string& path, const compute::DistanceMatrix& m) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw IoError(path, "", "cannot create the file");
    const bool names = !m.rowNames.empty() || !m.colNames.empty();
    if (names) {
        out << "name";  // a non-numeric first cell marks the header line
        for (std::size_t c = 0; c < m.cols; ++c) out << ',' << quote(c < m.colNames.size() ? m.colNames[c] : std::to_string(c));
        out << '\n';
    }
    std::string line;
    for (std::size_t r = 0; r < m.rows; ++r) {
        line.clear();
        if (names) line = quote(r < m.rowNames.size() ? m.rowNames[r] : std::to_string(r)) + ",";
        for (std::size_t c = 0; c < m.cols; ++c) {
            if (c) line += ',';
            line += formatDouble(m.values[r * m.cols + c]);
        }
        out << line << '\n';
    }
    if (!out.flush()) throw IoError(path, "", "write failed (disk full?)");
}

compute::DistanceMatrix readMatrixCsv(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open for reading");
    compute::DistanceMatrix m;
    std::string line;
    std::size_t lineNo = 0;
    bool header = false, rowNames = false;
    std::vector<bool> quoted;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        auto fields = splitCsv(line, quoted);
        double v;
        if (lineNo == 1 && (!number(fields[0], v) || quoted[0])) {
            header = rowNames = true;
            m.colNames.assign(fields.begin() + 1, fields.end());
            m.cols = m.colNames.size();
            continue;
        }
        std::size_t first = 0;
        if (rowNames || (m.rows == 0 && (quoted[0] || !number(fields[0], v)))) {
            rowNames = true;
            m.rowNames.push_back(fields[0]);
            first = 1;
        }
        const std::size_t n = fields.size() - first;
        if (m.rows == 0 && !header) m.cols = n;
        if (n != m.cols)
            throw IoError(path, "line " + std::to_string(lineNo), std::to_string(n) + " values, expected " + std::to_string(m.cols));
        for (std::size_t i = first; i < fields.size(); ++i) {
            if (!number(fields[i], v))
                throw IoError(path, "line " + std::to_string(lineNo) + ", field " + std::to_string(i + 1),
                              "not a number: \"" + fields[i].substr(0, 40) + "\"");
            m.values.push_back(v);
        }
        ++m.rows;
    }
    if (m.rows == 0) throw IoError(path, "", "no matrix rows");
    return m;
}

}  // namespace warplab::io
