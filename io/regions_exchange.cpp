// CSV and EDF+ annotation export and import of marked regions (io/regions_exchange.h).
#include "io/regions_exchange.h"

#include <edflib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/edflib_lock.h"
#include "io/io_error.h"
#include "io/recording.h"
#include "io/temporary_files.h"
#include "io/text_table.h"
#include "io/trim_lower.h"

namespace warplab::io {
namespace {

constexpr std::size_t kEdflibTextBytes = 40;  // EDFlib's limit for written annotation text

bool parseKind(const std::string& text, RegionKind& kind) {
    const std::string k = lower(trim(text));
    if (k == "seizure") kind = RegionKind::Seizure;
    else if (k == "query") kind = RegionKind::Query;
    else if (k == "reference") kind = RegionKind::Reference;
    else return false;
    return true;
}

std::string channelList(const std::vector<std::string>& channels) {
    std::string out;
    for (std::size_t i = 0; i < channels.size() && i < 8; ++i) out += (i ? ", " : "") + channels[i];
    if (channels.size() > 8) out += ", ... (" + std::to_string(channels.size()) + " in all)";
    return out;
}

// -1 for "" and "all"; throws naming `where` when the name is unknown.
int channelIndex(const std::string& name, const std::vector<std::string>& channels, const std::string& file,
                 const std::string& where) {
    const std::string n = trim(name);
    if (n.empty() || lower(n) == "all") return -1;
    for (std::size_t i = 0; i < channels.size(); ++i)
        if (channels[i] == n) return int(i);
    throw IoError(file, where, "no channel '" + n + "' in the recording (channels: " + channelList(channels) + ")");
}

std::string channelName(const Region& r, const std::vector<std::string>& channels, const std::string& file, std::size_t index) {
    if (r.channel < 0) return {};
    if (std::size_t(r.channel) >= channels.size())
        throw IoError(file, "regions[" + std::to_string(index) + "]",
                      "channel " + std::to_string(r.channel) + " outside the recording's " + std::to_string(channels.size()) + " channels");
    return channels[std::size_t(r.channel)];
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos && trim(s) == s) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// Rows of RFC 4180 CSV with the line each starts on; throws on an unterminated quote.
std::vector<std::pair<std::size_t, std::vector<std::string>>> csvRows(const std::string& text, const std::string& file) {
    std::vector<std::pair<std::size_t, std::vector<std::string>>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, any = false;
    std::size_t line = 1, rowLine = 1, quoteLine = 0;
    auto endRow = [&] {
        row.push_back(field);
        field.clear();
        bool blank = row.size() == 1 && trim(row[0]).empty();
        if (!blank) rows.emplace_back(rowLine, std::move(row));
        row.clear();
        any = false;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                if (c == '\n') ++line;
                field += c;
            }
            continue;
        }
        if (c == '"' && trim(field).empty()) {
            field.clear();
            quoted = true;
            quoteLine = line;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
        } else if (c == '\n') {
            endRow();
            rowLine = ++line;
        } else if (c != '\r') {
            field += c;
        }
        any = true;
    }
    if (quoted) throw IoError(file, "line " + std::to_string(quoteLine), "a quoted field is not closed");
    if (any || !field.empty() || !row.empty()) endRow();
    return rows;
}

double parseSeconds(const std::string& text, const std::string& file, const std::string& where) {
    const std::string t = trim(text);
    double v = 0;
    std::size_t used = 0;
    try {
        v = std::stod(t, &used);
    } catch (...) {
        used = 0;
    }
    if (t.empty() || used != t.size() || !std::isfinite(v))
        throw IoError(file, where, "'" + t + "' is not a number of seconds");
    return v;
}

// Cuts `s` to at most `bytes` without splitting a UTF-8 character.
std::string utf8Prefix(const std::string& s, std::size_t bytes) {
    if (s.size() <= bytes) return s;
    std::size_t n = bytes;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return s.substr(0, n);
}

}  // namespace

void writeRegionsCsv(const std::string& path, const std::vector<Region>& regions, const std::vector<std::string>& channels) {
    std::ostringstream out;
    out << "kind,channel,start_s,end_s,note\n";
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const Region& r = regions[i];
        out << regionKindName(r.kind) << ',' << csvField(channelName(r, channels, path, i)) << ',' << formatDouble(r.startS)
            << ',' << formatDouble(r.endS) << ',' << csvField(r.note) << '\n';
    }
    // Under a temporary name, renamed over only when complete: a full disk keeps the previous file.
    const std::string tmp = temporaryPathFor(path);
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw IoError(path, "", "cannot be written");
    f << out.str();
    f.close();
    if (!f) {
        std::remove(tmp.c_str());
        throw IoError(path, "", "write failed (disk full?); the previous file is kept");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw IoError(path, "", "cannot rename into place: " + ec.message());
    }
}

std::vector<Region> readRegionsCsv(const std::string& path, const std::vector<std::string>& channels, bool labelUnknown) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw IoError(path, "", "cannot open the file");
    std::stringstream ss;
    ss << f.rdbuf();
    const auto rows = csvRows(ss.str(), path);
    if (rows.empty()) throw IoError(path, "line 1", "empty file: expected the header kind,channel,start_s,end_s,note");
    const auto& header = rows.front().second;
    auto column = [&](const char* name) {
        for (std::size_t c = 0; c < header.size(); ++c)
            if (lower(trim(header[c])) == name) return int(c);
        return -1;
    };
    const int kind = column("kind"), chan = column("channel"), start = column("start_s"), end = column("end_s"), note = column("note");
    for (auto [col, name] : {std::pair{kind, "kind"}, {start, "start_s"}, {end, "end_s"}})
        if (col < 0)
            throw IoError(path, "line 1", std::string("no column '") + name + "' in the header (expected kind,channel,start_s,end_s,note)");
    std::vector<Region> out;
    for (std::size_t k = 1; k < rows.size(); ++k) {
        const auto& [line, row] = rows[k];
        const std::string where = "line " + std::to_string(line);
        if (row.size() != header.size())
            throw IoError(path, where, std::to_string(row.size()) + " fields where the header has " + std::to_string(header.size()));
        Region r;
        if (!parseKind(row[std::size_t(kind)], r.kind))
            throw IoError(path, where + ", column 'kind'", "'" + trim(row[std::size_t(kind)]) + "' is not seizure, query or reference");
        const std::string name = chan < 0 ? std::string() : trim(row[std::size_t(chan)]);
        if (labelUnknown && !name.empty() && lower(name) != "all" && std::find(channels.begin(), channels.end(), name) == channels.end())
            r.channelLabel = name;  // r.channel stays -1: the caller keeps it aside by this label
        else
            r.channel = chan < 0 ? -1 : channelIndex(row[std::size_t(chan)], channels, path, where + ", column 'channel'");
        r.startS = parseSeconds(row[std::size_t(start)], path, where + ", column 'start_s'");
        r.endS = parseSeconds(row[std::size_t(end)], path, where + ", column 'end_s'");
        if (!(r.endS > r.startS))
            throw IoError(path, where, "end " + formatDouble(r.endS) + " s is not after start " + formatDouble(r.startS) + " s");
        if (note >= 0) r.note = row[std::size_t(note)];
        out.push_back(std::move(r));
    }
    return out;
}

std::string regionAnnotationText(const Region& r, const std::vector<std::string>& channels) {
    std::string t = regionKindName(r.kind);
    const std::string ch = channelName(r, channels, "annotation", 0);
    if (!ch.empty()) t += " [" + ch + "]";
    if (!r.note.empty()) t += ": " + r.note;
    return t;
}

EdfAnnotationStart annotationStartFromIso(const std::string& iso) {
    EdfAnnotationStart s;
    EdfAnnotationStart parsed;
    if (std::sscanf(iso.c_str(), "%d-%d-%dT%d:%d:%d", &parsed.year, &parsed.month, &parsed.day, &parsed.hour, &parsed.minute,
                    &parsed.second) == 6)
        s = parsed;
    return s;
}

int writeRegionsEdf(const std::string& path, const std::vector<Region>& regions, const std::vector<std::string>& channels,
                    const EdfAnnotationStart& start) {
    std::vector<std::string> texts;
    int shortened = 0;
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const Region& r = regions[i];
        if (!std::isfinite(r.startS) || r.startS < 0 || !(r.endS > r.startS))
            throw IoError(path, "regions[" + std::to_string(i) + "]", "start must be >= 0 and end after start");
        channelName(r, channels, path, i);  // names an impossible channel
        std::string t = regionAnnotationText(r, channels);
        const std::string head = regionAnnotationText(Region{r.kind, r.channel, 0, 0, {}}, channels);
        if (head.size() > kEdflibTextBytes)
            throw IoError(path, "regions[" + std::to_string(i) + "]",
                          "\"" + head + "\" is longer than the " + std::to_string(kEdflibTextBytes) +
                              " bytes EDFlib writes: the channel name would be cut (export as CSV instead)");
        if (t.size() > kEdflibTextBytes) {
            t = utf8Prefix(t, kEdflibTextBytes);
            ++shortened;
        }
        texts.push_back(std::move(t));
    }
    // Under a temporary name, renamed over only when complete and read back whole: EDFlib does
    // not report every failed write, and a full disk must keep the previous file.
    const std::string tmp = temporaryPathFor(path);
    {
        std::lock_guard lock(edflibMutex());
        // No data signals: EDFlib (1.23 and later) writes an annotation-only EDF+ file.
        const int h = edfopen_file_writeonly(tmp.c_str(), EDFLIB_FILETYPE_EDFPLUS, 0);
        if (h < 0) {
            std::remove(tmp.c_str());
            throw IoError(path, "", "EDFlib cannot create the file (error " + std::to_string(h) + ")");
        }
        // A start outside EDFlib's years (1985-2084) keeps EDFlib's default; onsets stay relative.
        edf_set_startdatetime(h, start.year, start.month, start.day, start.hour, start.minute, start.second);
        for (std::size_t i = 0; i < regions.size(); ++i) {
            const long long onset = std::llround(regions[i].startS * 10000.0);
            const long long duration = std::llround((regions[i].endS - regions[i].startS) * 10000.0);
            if (edfwrite_annotation_utf8(h, onset, duration, texts[i].c_str()) != 0) {
                edfclose_file(h);
                std::remove(tmp.c_str());
                throw IoError(path, "regions[" + std::to_string(i) + "]", "EDFlib refused the annotation \"" + texts[i] + "\"");
            }
        }
        if (edfclose_file(h) != 0) {
            std::remove(tmp.c_str());
            throw IoError(path, "", "EDFlib could not finalise the file (disk full?); the previous file is kept");
        }
    }
    std::size_t readBack = 0;
    try {
        readBack = readRegionsEdf(tmp, channels).regions.size();
    } catch (const std::exception&) {
        readBack = std::size_t(-1);
    }
    if (readBack != regions.size()) {
        std::remove(tmp.c_str());
        throw IoError(path, "", "write failed (disk full?): the file did not read back whole; the previous file is kept");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw IoError(path, "", "cannot rename into place: " + ec.message());
    }
    return shortened;
}

ImportedRegions readRegionsEdf(const std::string& path, const std::vector<std::string>& channels) {
    std::vector<Annotation> annotations;
    {
        std::lock_guard lock(edflibMutex());
        edf_hdr_struct hdr{};
        if (edfopen_file_readonly(path.c_str(), &hdr, EDFLIB_READ_ALL_ANNOTATIONS) != 0 &&
            hdr.filetype == EDFLIB_FILE_CONTAINS_FORMAT_ERRORS) {
            // Files EDFlib refuses for small header violations (eegmmidb's, for one) open with
            // WarpLab's lenient reader, which decodes their annotations too.
            std::unique_ptr<Recording> rec;
            try {
                rec = Recording::open(path);
            } catch (const std::exception&) {
                throw IoError(path, "", "EDFlib finds format errors and the lenient reader cannot open it either");
            }
            return regionsFromAnnotations(rec->annotations(), channels, path);
        }
        if (hdr.handle < 0 || hdr.filetype < 0)
            throw IoError(path, "", hdr.filetype == EDFLIB_FILE_ALREADY_OPENED
                                        ? "already open as the recording: use its annotations (regionsFromAnnotations)"
                                        : "EDFlib cannot read it as EDF+/BDF+ (error " + std::to_string(hdr.filetype) + ")");
        if (hdr.filetype != EDFLIB_FILETYPE_EDFPLUS && hdr.filetype != EDFLIB_FILETYPE_BDFPLUS) {
            edfclose_file(hdr.handle);
            throw IoError(path, "header", "plain EDF/BDF has no annotations (EDF+ or BDF+ needed)");
        }
        for (long long n = 0; n < hdr.annotations_in_file; ++n) {
            edf_annotation_struct a{};
            if (edf_get_annotation(hdr.handle, int(n), &a) != 0) continue;
            Annotation out;
            out.onsetS = double(a.onset) / EDFLIB_TIME_DIMENSION;
            out.durationS = a.duration[0] ? std::atof(a.duration) : 0.0;
            out.text = a.annotation;
            annotations.push_back(std::move(out));
        }
        edfclose_file(hdr.handle);
    }
    return regionsFromAnnotations(annotations, channels, path);
}

ImportedRegions regionsFromAnnotations(const std::vector<Annotation>& annotations, const std::vector<std::string>& channels,
                                       const std::string& path) {
    ImportedRegions result;
    for (std::size_t i = 0; i < annotations.size(); ++i) {
        const Annotation& a = annotations[i];
        const std::string text = trim(a.text);
        auto skip = [&](const std::string& why) { result.skipped.push_back(formatDouble(a.onsetS) + " s: " + text + " (" + why + ")"); };
        // "<kind>", then optionally " [<channel>]", then optionally ": <note>".
        std::size_t k = 0;
        while (k < text.size() && std::isalpha(static_cast<unsigned char>(text[k]))) ++k;
        Region r;
        if (!parseKind(text.substr(0, k), r.kind)) {
            skip("not a seizure, query or reference region");
            continue;
        }
        std::string rest = text.substr(k);
        const std::size_t open = rest.find_first_not_of(' ');
        if (open != std::string::npos && rest[open] == '[') {
            const std::size_t close = rest.find(']', open);
            const std::string where = "annotation " + std::to_string(i + 1) + " at " + formatDouble(a.onsetS) + " s";
            if (close == std::string::npos) {
                // EDFlib's 40 bytes may have cut the channel name: not a channel we can trust.
                throw IoError(path, where, "channel name not closed with ']' in \"" + text + "\"");
            }
            r.channel = channelIndex(rest.substr(open + 1, close - open - 1), channels, path, where);
            rest = rest.substr(close + 1);
        }
        rest = trim(rest);
        if (!rest.empty() && rest[0] == ':') r.note = trim(rest.substr(1));
        else if (!rest.empty()) {
            skip("text after the kind is not \": note\"");
            continue;
        }
        if (!(a.durationS > 0)) {
            skip("no duration: a moment, not a region");
            continue;
        }
        r.startS = a.onsetS;
        r.endS = a.onsetS + a.durationS;
        result.regions.push_back(std::move(r));
    }
    return result;
}

std::string regionsCsvPathFor(const std::string& recordingPath) {
    const std::filesystem::path p(recordingPath);
    return (p.parent_path() / (p.stem().string() + "_regions.csv")).string();
}

std::string regionsEdfPathFor(const std::string& recordingPath) {
    const std::filesystem::path p(recordingPath);
    return (p.parent_path() / (p.stem().string() + "_regions.edf")).string();
}

}  // namespace warplab::io
