#include "io/edf_header.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io/io_error.h"
#include "io/printable.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace {

// Header fields are padded with spaces (and, by some writers, NUL bytes).
constexpr std::string_view kEdfPadding{" \0", 2};

// A header field as shown and quoted: padding trimmed, control bytes escaped.
std::string fieldText(std::string_view raw) { return escapeControls(trim(raw, kEdfPadding)); }

bool printable(std::string_view s) {
    for (unsigned char c : s)
        if (c < 32 || c > 126) return false;
    return true;
}

// Header numbers are left-aligned ASCII padded with spaces. A decimal comma (written by some
// European software) is accepted and reported by the caller.
bool parseNumber(std::string_view raw, double& out, bool& usedComma) {
    std::string s = fieldText(raw);
    usedComma = false;
    for (char& c : s)
        if (c == ',') { c = '.'; usedComma = true; }
    if (!s.empty() && s[0] == '+') s.erase(0, 1);
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && std::isfinite(out);
}

bool parseInteger(std::string_view raw, long long& out) {
    std::string s = fieldText(raw);
    if (!s.empty() && s[0] == '+') s.erase(0, 1);
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

bool twoDigits(std::string_view s, int& v) {
    if (s.size() != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9') return false;
    v = (s[0] - '0') * 10 + (s[1] - '0');
    return true;
}

// "dd.mm.yy" or "hh.mm.ss" into three numbers.
bool dottedTriple(std::string_view s, int& a, int& b, int& c) {
    return s.size() == 8 && s[2] == '.' && s[5] == '.' && twoDigits(s.substr(0, 2), a) &&
           twoDigits(s.substr(3, 2), b) && twoDigits(s.substr(6, 2), c);
}

}  // namespace

std::string EdfHeader::startIso() const {
    int d, mo, y, h, mi, s;
    if (!dottedTriple(startDate, d, mo, y) || !dottedTriple(startTime, h, mi, s)) return {};
    if (d < 1 || d > 31 || mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return {};
    int year = y >= 85 ? 1900 + y : 2000 + y;  // EDF's clipping years 1985..2084
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", year, mo, d, h, mi, s);
    return buf;
}

long long edfHeaderSize(std::string_view mainHeader) {
    if (mainHeader.size() < 256) return 0;
    long long ns = 0;
    if (!parseInteger(mainHeader.substr(252, 4), ns) || ns < 1 || ns > 100000) return 0;
    return 256 * (ns + 1);
}

EdfHeaderParse parseEdfHeader(const std::string& file, std::string_view bytes, long long fileSize) {
    EdfHeaderParse out;
    EdfHeader& h = out.header;
    auto& warn = out.violations;
    if (bytes.size() < 256)
        throw IoError(file, "header", "the file has " + std::to_string(bytes.size()) +
                                          " bytes, fewer than the 256-byte EDF/BDF main header");
    std::string_view version = bytes.substr(0, 8);
    if (version == std::string_view("\xff" "BIOSEMI", 8))
        h.bdf = true;
    else if (fieldText(version) != "0")
        throw IoError(file, "version", "not an EDF or BDF file (the version field is not \"0\" or \"\\xffBIOSEMI\")");

    auto text = [&](std::string_view raw, const std::string& field) {
        if (!printable(raw)) warn.push_back(field + ": contains characters outside printable ASCII");
        return fieldText(raw);
    };
    h.patient = text(bytes.substr(8, 80), "patient");
    h.recordingId = text(bytes.substr(88, 80), "recording");
    h.startDate = text(bytes.substr(168, 8), "start date");
    h.startTime = text(bytes.substr(176, 8), "start time");
    h.reserved = text(bytes.substr(192, 44), "reserved");

    long long ns = 0;
    if (!parseInteger(bytes.substr(252, 4), ns))
        throw IoError(file, "number of signals", "not a number: \"" + fieldText(bytes.substr(252, 4)) + "\"");
    if (ns < 1) throw IoError(file, "number of signals", "must be >= 1, got " + std::to_string(ns));
    if (!parseInteger(bytes.substr(184, 8), h.headerBytes))
        throw IoError(file, "number of header bytes", "not a number: \"" + fieldText(bytes.substr(184, 8)) + "\"");
    if (h.headerBytes != 256 * (ns + 1))
        throw IoError(file, "number of header bytes",
                      "the header contradicts itself: " + std::to_string(h.headerBytes) + " header bytes but " +
                          std::to_string(ns) + " signals need 256*(" + std::to_string(ns) +
                          "+1) = " + std::to_string(256 * (ns + 1)));
    if (static_cast<long long>(bytes.size()) < h.headerBytes || fileSize < h.headerBytes)
        throw IoError(file, "header", "the file ends inside the signal headers (" +
                                          std::to_string(std::min<long long>(fileSize, bytes.size())) + " of " +
                                          std::to_string(h.headerBytes) + " header bytes)");
    h.signalCount = static_cast<int>(ns);
    if (!parseInteger(bytes.substr(236, 8), h.declaredRecords))
        throw IoError(file, "number of data records", "not a number: \"" + fieldText(bytes.substr(236, 8)) + "\"");
    if (h.declaredRecords < -1)
        throw IoError(file, "number of data records", "negative: " + std::to_string(h.declaredRecords));
    bool comma = false;
    if (!parseNumber(bytes.substr(244, 8), h.recordDurationS, comma))
        throw IoError(file, "duration of a data record", "not a number: \"" + fieldText(bytes.substr(244, 8)) + "\"");
    if (comma) warn.push_back("duration of a data record: decimal comma instead of a point");
    if (h.recordDurationS < 0)
        throw IoError(file, "duration of a data record", "negative: " + fieldText(bytes.substr(244, 8)));

    const std::string plusTag = h.bdf ? "BDF+" : "EDF+";
    h.plus = h.reserved.rfind(plusTag, 0) == 0;
    h.discontinuous = h.plus && h.reserved.rfind(plusTag + "D", 0) == 0;
    if (h.plus && h.reserved.rfind(plusTag + "C", 0) != 0 && !h.discontinuous)
        warn.push_back("reserved: \"" + h.reserved + "\" is neither " + plusTag + "C nor " + plusTag + "D; read as " +
                       plusTag + "C");

    // Signal headers are stored field by field: ns labels, then ns transducers, ...
    const std::size_t n = static_cast<std::size_t>(ns);
    std::size_t pos = 256;
    auto column = [&](std::size_t width, std::size_t i) { return bytes.substr(pos + i * width, width); };
    h.signals.resize(n);
    auto name = [&](std::size_t i) {
        return "signal " + std::to_string(i) + (h.signals[i].label.empty() ? "" : " '" + h.signals[i].label + "'");
    };
    for (std::size_t i = 0; i < n; ++i) h.signals[i].label = text(column(16, i), "signal " + std::to_string(i) + " label");
    pos += 16 * n;
    for (std::size_t i = 0; i < n; ++i) h.signals[i].transducer = text(column(80, i), name(i) + " transducer type");
    pos += 80 * n;
    for (std::size_t i = 0; i < n; ++i) h.signals[i].unit = text(column(8, i), name(i) + " physical dimension");
    pos += 8 * n;
    auto numbers = [&](const char* what, auto assign) {
        for (std::size_t i = 0; i < n; ++i) {
            double v = 0;
            bool c = false;
            if (!parseNumber(column(8, i), v, c))
                throw IoError(file, name(i) + " " + what, "not a number: \"" + fieldText(column(8, i)) + "\"");
            if (c) warn.push_back(name(i) + " " + what + ": decimal comma instead of a point");
            assign(h.signals[i], v);
        }
        pos += 8 * n;
    };
    numbers("physical minimum", [](EdfSignalHeader& s, double v) { s.physicalMin = v; });
    numbers("physical maximum", [](EdfSignalHeader& s, double v) { s.physicalMax = v; });
    auto integers = [&](const char* what, auto assign) {
        for (std::size_t i = 0; i < n; ++i) {
            long long v = 0;
            if (!parseInteger(column(8, i), v)) {
                // "2047.0" and the like: tolerated when the number is whole.
                double d = 0;
                bool c = false;
                if (!parseNumber(column(8, i), d, c) || d != std::floor(d) || std::abs(d) > 1e15)
                    throw IoError(file, name(i) + " " + what, "not an integer: \"" + fieldText(column(8, i)) + "\"");
                warn.push_back(name(i) + " " + what + ": \"" + fieldText(column(8, i)) + "\" written as a decimal number");
                v = static_cast<long long>(d);
            }
            assign(h.signals[i], v);
        }
        pos += 8 * n;
    };
    integers("digital minimum", [](EdfSignalHeader& s, long long v) { s.digitalMin = v; });
    integers("digital maximum", [](EdfSignalHeader& s, long long v) { s.digitalMax = v; });
    for (std::size_t i = 0; i < n; ++i) h.signals[i].prefilter = text(column(80, i), name(i) + " prefilter");
    pos += 80 * n;
    integers("number of samples in each data record", [](EdfSignalHeader& s, long long v) { s.samplesPerRecord = v; });

    const std::string annotLabel = h.bdf ? "BDF Annotations" : "EDF Annotations";
    const long long lo = h.bdf ? -8388608 : -32768, hi = h.bdf ? 8388607 : 32767;
    bool anyData = false, anyAnnotation = false;
    h.recordBytes = 0;
    for (std::size_t i = 0; i < n; ++i) {
        EdfSignalHeader& s = h.signals[i];
        s.annotation = s.label == annotLabel || s.label == "EDF Annotations";
        if (s.annotation && !h.plus) {
            // A plain EDF with an annotation signal: EDFlib would show it as data; we read it as TALs.
            warn.push_back(name(i) + ": an annotation signal in a file whose reserved field is not " + plusTag);
        }
        if (s.annotation) {
            anyAnnotation = true;
            if (!s.unit.empty()) warn.push_back(name(i) + " physical dimension: \"" + s.unit + "\" where EDF+ requires blanks");
            if (!s.prefilter.empty()) warn.push_back(name(i) + " prefilter: \"" + s.prefilter + "\" where EDF+ requires blanks");
            if (!s.transducer.empty()) warn.push_back(name(i) + " transducer type: \"" + s.transducer + "\" where EDF+ requires blanks");
        } else {
            anyData = true;
        }
        if (s.samplesPerRecord < 1 || s.samplesPerRecord > (1LL << 31))
            throw IoError(file, name(i) + " number of samples in each data record",
                          "must be between 1 and 2^31, got " + std::to_string(s.samplesPerRecord));
        if (s.digitalMin >= s.digitalMax)
            throw IoError(file, name(i) + " digital maximum",
                          "must be greater than the digital minimum (" + std::to_string(s.digitalMin) + " >= " +
                              std::to_string(s.digitalMax) + ")");
        if (s.digitalMin < lo || s.digitalMax > hi)
            throw IoError(file, name(i) + " digital minimum",
                          "the digital range " + std::to_string(s.digitalMin) + ".." + std::to_string(s.digitalMax) +
                              " does not fit " + (h.bdf ? "24" : "16") + "-bit samples");
        if (!s.annotation && s.physicalMin == s.physicalMax)
            throw IoError(file, name(i) + " physical maximum", "equals the physical minimum; samples cannot be calibrated");
        s.offsetInRecord = h.recordBytes;
        h.recordBytes += s.samplesPerRecord * h.bytesPerSample();
    }
    if (h.plus && !anyAnnotation)
        warn.push_back("reserved: " + plusTag + " file without an annotation signal");
    if (anyData && !(h.recordDurationS > 0))
        throw IoError(file, "duration of a data record", "must be > 0 in a file with data signals");

    const long long dataBytes = fileSize - h.headerBytes;
    const long long complete = dataBytes / h.recordBytes, rest = dataBytes % h.recordBytes;
    const std::string recordSize = std::to_string(h.recordBytes) + "-byte";
    if (h.declaredRecords == -1) {
        warn.push_back("number of data records: -1 (unknown, recording not finalised); " + std::to_string(complete) +
                       " complete records found");
        h.records = complete;
        if (rest) warn.push_back("data records: the last data record is incomplete (" + std::to_string(rest) + " of " +
                                 std::to_string(h.recordBytes) + " bytes); it is left out");
    } else if (h.declaredRecords == complete && rest == 0) {
        h.records = complete;
    } else if (h.declaredRecords == complete + 1 && rest > 0) {
        warn.push_back("data records: the last data record is incomplete (" + std::to_string(rest) + " of " +
                       std::to_string(h.recordBytes) + " bytes); read " + std::to_string(complete) + " of " +
                       std::to_string(h.declaredRecords) + " records");
        h.records = complete;
    } else if (h.declaredRecords == complete && rest > 0) {
        warn.push_back("data records: " + std::to_string(rest) + " bytes after the last data record are ignored");
        h.records = complete;
    } else {
        throw IoError(file, "number of data records",
                      "the header says " + std::to_string(h.declaredRecords) + " records of " + recordSize +
                          " but the file holds " + std::to_string(dataBytes) + " data bytes (" +
                          std::to_string(complete) + " complete records" +
                          (rest ? " and " + std::to_string(rest) + " bytes more" : std::string()) + ")");
    }
    if (h.records < 1) throw IoError(file, "number of data records", "the file holds no complete data record");
    if (h.startIso().empty())
        warn.push_back("start date/time: \"" + h.startDate + " " + h.startTime + "\" is not dd.mm.yy hh.mm.ss");
    return out;
}

EdfHeaderParse readEdfHeader(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) throw IoError(path, "", "cannot open: " + ec.message());
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open for reading");
    std::string bytes(std::min<std::uintmax_t>(256, size), '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    long long need = edfHeaderSize(bytes);
    if (need > 256) {
        need = std::min<long long>(need, static_cast<long long>(size));
        bytes.resize(static_cast<std::size_t>(need));
        in.read(bytes.data() + 256, need - 256);
        if (!in) throw IoError(path, "header", "read error in the signal headers");
    }
    return parseEdfHeader(path, bytes, static_cast<long long>(size));
}

}  // namespace warplab::io
