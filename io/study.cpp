// io::Study: opening (folder, summary, list), ordering, gaps, channel matching, seizures, and
// lazy reads. Opening reads headers only (our EDF header parser, no samples); a file is opened
// through Recording::open when its samples or annotations are first needed.
#include "io/study.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <list>
#include <map>
#include <set>

#include "io/edf_header.h"
#include "io/io_error.h"
#include "io/recording_backends.h"
#include "io/study_summary.h"
#include "io/summary_crops.h"
#include "io/text_table.h"

namespace warplab::io {

namespace fs = std::filesystem;

std::string_view studySourceName(StudySource s) {
    switch (s) {
    case StudySource::Folder: return "folder";
    case StudySource::Summary: return "summary";
    case StudySource::List: return "list";
    }
    return "folder";
}

std::string_view recordingStatusName(RecordingStatus s) {
    switch (s) {
    case RecordingStatus::Ok: return "ok";
    case RecordingStatus::Missing: return "missing";
    case RecordingStatus::Damaged: return "damaged";
    }
    return "ok";
}

// Opened recordings, least recently used first; at most `limit` kept.
struct Study::Cache {
    std::mutex mutex;      // the list of open recordings
    // One read at a time per recording (Recording::read is not meant for concurrent callers),
    // and one open at a time per recording; different recordings are opened and read at once
    // (the device pattern path reads a study's recordings in parallel). Created on first use.
    std::map<int, std::unique_ptr<std::mutex>> readMutex, openMutex;
    std::mutex& mutexOf(std::map<int, std::unique_ptr<std::mutex>>& m, int index) {
        std::lock_guard lock(mutex);
        auto& p = m[index];
        if (!p) p = std::make_unique<std::mutex>();
        return *p;
    }
    struct Entry {
        int index;
        std::shared_ptr<const Recording> rec;
        bool annotations;  // opened with its annotations (recording()) or for samples only (read())
    };
    std::list<Entry> open;
    int limit = 8;
};

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// Days since 1970-01-01 of a civil date (proleptic Gregorian), and back.
long long daysFromCivil(int y, int m, int d) {
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = unsigned((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1);
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

void civilFromDays(long long z, int& y, int& m, int& d) {
    z += 719468;
    const long long era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = unsigned(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = int(doy - (153 * mp + 2) / 5 + 1);
    m = int(mp < 10 ? mp + 3 : mp - 9);
    y = int(yoe + era * 400 + (m <= 2));
}

// "YYYY-MM-DDTHH:MM:SS" -> seconds since 1970 (no zone); false when malformed.
bool isoSeconds(const std::string& iso, double& out) {
    int y, mo, d, h, mi, s;
    if (std::sscanf(iso.c_str(), "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &s) != 6) return false;
    out = double(daysFromCivil(y, mo, d)) * 86400.0 + h * 3600.0 + mi * 60.0 + s;
    return true;
}

std::string hms(double secondsOfDay, bool millis) {
    const long long ms = std::llround(secondsOfDay * 1000.0);
    const long long s = ms / 1000;
    char buf[48];
    if (millis)
        std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld.%03lld", s / 3600, s / 60 % 60, s % 60, ms % 1000);
    else
        std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

bool isRecordingFile(const fs::path& p) {
    const std::string ext = lower(p.extension().string());
    return ext == ".edf" || ext == ".bdf" || ext == ".rec";
}

// A recording as far as its header tells; status Damaged with the reason when it cannot be read.
struct Probe {
    StudyRecording rec;
    double absS = 0;  // seconds since 1970 when the header gives the date and time
    std::vector<std::string> warnings;
    bool plus = false;
};

Probe probe(const std::string& path) {
    Probe p;
    p.rec.path = path;
    p.rec.name = fs::path(path).filename().string();
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        p.rec.status = RecordingStatus::Missing;
        p.rec.error = "file not found";
        return p;
    }
    try {
        if (looksLikeEdf(path)) {
            const EdfHeaderParse parsed = readEdfHeader(path);
            const EdfHeader& h = parsed.header;
            p.plus = h.plus;
            p.rec.format = h.bdf ? (h.plus ? (h.discontinuous ? Format::BDFPlusD : Format::BDFPlusC) : Format::BDF)
                                 : (h.plus ? (h.discontinuous ? Format::EDFPlusD : Format::EDFPlusC) : Format::EDF);
            p.rec.durationS = double(h.records) * h.recordDurationS;
            int index = 0;
            for (const auto& s : h.signals) {
                if (s.annotation) continue;
                SignalInfo si;
                si.index = index++;
                si.label = s.label;
                si.unit = s.unit;
                si.rateHz = h.recordDurationS > 0 ? double(s.samplesPerRecord) / h.recordDurationS : 0;
                si.samples = s.samplesPerRecord * h.records;
                si.physicalMin = s.physicalMin;
                si.physicalMax = s.physicalMax;
                si.digitalMin = s.digitalMin;
                si.digitalMax = s.digitalMax;
                si.prefilter = s.prefilter;
                si.transducer = s.transducer;
                p.rec.signals.push_back(std::move(si));
            }
            assignDisplayNames(p.rec.signals);
            for (const auto& v : parsed.violations) p.warnings.push_back(p.rec.name + ": " + v);
            if (h.records <= 0) throw IoError(path, "number of data records", "the file holds no complete data record");
            p.rec.startIso = h.startIso();
            p.rec.startKnown = isoSeconds(p.rec.startIso, p.absS);
        } else {
            // A text/CSV/NPY series in an explicit list: channels but no clock.
            auto r = Recording::open(path);
            p.rec.format = r->format();
            p.rec.durationS = r->durationS();
            p.rec.signals = r->signals();
            for (const auto& w : r->warnings()) p.warnings.push_back(p.rec.name + ": " + w);
        }
        p.rec.timeSource = p.rec.startKnown ? "header" : "none";
    } catch (const std::exception& e) {
        p.rec.status = RecordingStatus::Damaged;
        p.rec.error = e.what();
        p.rec.signals.clear();
    }
    return p;
}

}  // namespace

// Builds a Study from probed recordings: order, offsets, gaps, channels, seizures.
struct StudyBuilder {
    std::unique_ptr<Study> s{new Study()};
    std::vector<Probe> probes;
    std::vector<double> summaryAbs;  // per probe, from a summary (NaN: none)
    bool isSummary = false;          // times only from the summary (its own scale: day 0 = first)
    bool summaryDate = false;        // a header dated the summary's day 0 ...
    double summaryDateSeconds = 0;   // ... at this many seconds since 1970

    static std::unique_ptr<Study> finish(StudyBuilder& b, const StudyOptions& o,
                                         const std::vector<std::vector<std::pair<double, double>>>& seizures) {
        Study& st = *b.s;
        st.cache_ = std::make_unique<Study::Cache>();
        st.cache_->limit = std::max(1, o.openRecordingLimit);
        const std::size_t n = b.probes.size();
        std::vector<double> abs(n, 0);
        std::vector<bool> known(n, false);
        for (std::size_t i = 0; i < n; ++i) {
            if (i < b.summaryAbs.size() && !std::isnan(b.summaryAbs[i])) {
                abs[i] = b.summaryAbs[i];
                known[i] = true;
            } else if (!b.isSummary && b.probes[i].rec.startKnown) {
                abs[i] = b.probes[i].absS;
                known[i] = true;
            }
        }
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t c) {
            if (known[a] != known[c]) return bool(known[a]);
            if (known[a] && abs[a] != abs[c]) return abs[a] < abs[c];
            // An explicit list keeps its order where times do not decide; else file names.
            return st.source_ == StudySource::List ? a < c : b.probes[a].rec.name < b.probes[c].rec.name;
        });
        // The clock origin: the first recording with a known start.
        double origin = 0;
        for (std::size_t k : order)
            if (known[k]) {
                origin = abs[k];
                st.originKnown_ = true;
                break;
            }
        if (st.originKnown_) {
            // Header times are seconds since 1970 (with the date); summary times are seconds
            // from the summary's first day (no date) unless a header supplied one.
            const bool fromHeader = !b.isSummary;
            st.originHasDate_ = fromHeader || b.summaryDate;
            double o0 = origin + (fromHeader ? 0.0 : b.summaryDateSeconds);
            const long long day = (long long)std::floor(o0 / 86400.0);
            st.originSecondOfDay_ = o0 - double(day) * 86400.0;
            if (st.originHasDate_) civilFromDays(day, st.originYear_, st.originMonth_, st.originDay_);
            st.originDayIndex_ = day;
        }
        std::vector<int> newIndex(n);
        double prevEnd = 0;
        bool unknownWarned = false;
        for (std::size_t k = 0; k < n; ++k) {
            Probe& p = b.probes[order[k]];
            newIndex[order[k]] = int(k);
            for (auto& w : p.warnings) st.warnings_.push_back(w);
            StudyRecording r = std::move(p.rec);
            if (known[order[k]]) {
                r.offsetS = abs[order[k]] - origin;
                r.startKnown = true;
                r.startIso = st.clockText(r.offsetS);
                r.startIso = r.startIso.substr(0, r.startIso.rfind('.'));  // whole seconds, as headers give
            } else {
                r.startKnown = false;
                r.startIso.clear();
                r.timeSource = "none";
                r.offsetS = prevEnd;
                const bool clocked = r.status != RecordingStatus::Ok || r.format == Format::EDF ||
                                     r.format == Format::EDFPlusC || r.format == Format::EDFPlusD ||
                                     r.format == Format::BDF || r.format == Format::BDFPlusC || r.format == Format::BDFPlusD;
                if (!unknownWarned && clocked) {  // series files (text, CSV, NPY) have no clock to miss
                    st.warnings_.push_back(r.name + ": no usable start date/time; placed after the previous recording "
                                                    "(no gap assumed) and ordered by file name");
                    unknownWarned = true;
                }
            }
            if (r.status == RecordingStatus::Damaged)
                st.warnings_.push_back(r.name + ": cannot be read, left out of every computation: " + r.error);
            prevEnd = std::max(prevEnd, r.offsetS + r.durationS);
            st.recordings_.push_back(std::move(r));
        }
        // Gaps and overlaps between consecutive recordings.
        for (std::size_t k = 1; k < n; ++k) {
            const auto& a = st.recordings_[k - 1];
            const auto& c = st.recordings_[k];
            StudyGap g{int(k - 1), int(k), c.offsetS - a.endOffsetS()};
            if (g.seconds < -1e-9 && a.startKnown && c.startKnown)
                st.warnings_.push_back(c.name + " starts " + formatDouble(-g.seconds) + " s before " + a.name +
                                       " ends: the recordings overlap (both kept)");
            st.gaps_.push_back(g);
        }
        // Channels by display name, in order of first appearance; one rate per channel.
        std::map<std::string, int> byName;
        for (std::size_t k = 0; k < n; ++k) {
            const auto& r = st.recordings_[k];
            if (r.status != RecordingStatus::Ok) continue;
            for (const auto& sig : r.signals) {
                auto [it, added] = byName.emplace(sig.displayName, int(st.channels_.size()));
                if (added) {
                    StudyChannel c;
                    c.name = sig.displayName;
                    c.unit = sig.unit;
                    c.rateHz = sig.rateHz;
                    c.signalOf.assign(n, -1);
                    st.channels_.push_back(std::move(c));
                }
                StudyChannel& c = st.channels_[std::size_t(it->second)];
                if (c.rateHz != sig.rateHz) {
                    int first = 0;
                    for (std::size_t q = 0; q < k; ++q)
                        if (c.signalOf[q] >= 0) { first = int(q); break; }
                    throw IoError(r.path, "channel " + c.name,
                                  "sampled at " + formatDouble(sig.rateHz) + " Hz here but at " + formatDouble(c.rateHz) +
                                      " Hz in " + st.recordings_[std::size_t(first)].name +
                                      ": one channel must have one rate across the study (resampling is not supported)");
                }
                c.signalOf[k] = sig.index;
                ++c.recordingCount;
                c.totalSamples += sig.samples;
            }
        }
        // Seizures from the source (summary), per probe index -> recording index.
        for (std::size_t i = 0; i < seizures.size() && i < n; ++i)
            for (const auto& [a, e] : seizures[i])
                st.seizures_.push_back({newIndex[i], a, e, -1, "summary"});
        if (!o.seizureSummary.empty() && st.source_ != StudySource::Summary) {
            const ChbSummary sum = parseChbSummary(o.seizureSummary);
            for (const auto& e : sum.entries) {
                const int r = st.findRecording(e.file);
                if (r >= 0) {
                    for (const auto& [a, z] : e.seizures) st.seizures_.push_back({r, a, z, -1, "summary"});
                    continue;
                }
                // Excerpts of the file ("chb01_03_Seizure.edf" of chb01_03.edf): placed by their
                // clock start within the file's (summary_crops.h).
                for (std::size_t k = 0; k < st.recordings_.size(); ++k)
                    for (const auto& [a, z] : cropSeizures(e, st.recordings_[k]))
                        st.seizures_.push_back({int(k), a, z, -1, "summary (excerpt of " + e.file + ")"});
            }
        }
        st.sortSeizures();
        if (!o.annotationPattern.empty()) st.addAnnotationSeizures(o.annotationPattern);
        return std::move(b.s);
    }
};

Study::~Study() = default;

void Study::sortSeizures() {
    std::stable_sort(seizures_.begin(), seizures_.end(), [](const StudySeizure& a, const StudySeizure& b) {
        return a.recording != b.recording ? a.recording < b.recording : a.startS < b.startS;
    });
}

std::unique_ptr<Study> Study::open(const std::string& path, const StudyOptions& options) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return openFolder(path, options);
    if (!fs::exists(path, ec)) throw IoError(path, "", "no such file or folder");
    if (looksLikeChbSummary(path)) return openSummary(path, options);
    if (looksLikeEdf(path)) return openList({path}, options);
    throw IoError(path, "", "not a study: give a folder of EDF/BDF files or a CHB-MIT summary (chbNN-summary.txt)");
}

std::unique_ptr<Study> Study::openFolder(const std::string& folder, const StudyOptions& options) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) throw IoError(folder, "", "not a folder");
    std::vector<std::string> files;
    auto consider = [&](const fs::directory_entry& e) {
        std::error_code ec2;
        if (e.is_regular_file(ec2) && isRecordingFile(e.path())) files.push_back(e.path().string());
    };
    if (options.recursive)
        for (const auto& e : fs::recursive_directory_iterator(folder, ec)) consider(e);
    else
        for (const auto& e : fs::directory_iterator(folder, ec)) consider(e);
    if (ec) throw IoError(folder, "", "cannot list the folder: " + ec.message());
    if (files.empty()) throw IoError(folder, "", "the folder holds no recording (no .edf or .bdf file)");
    std::sort(files.begin(), files.end());
    StudyBuilder b;
    b.s->source_ = StudySource::Folder;
    b.s->sourcePath_ = folder;
    for (const auto& f : files) b.probes.push_back(probe(f));
    return StudyBuilder::finish(b, options, {});
}

std::unique_ptr<Study> Study::openList(const std::vector<std::string>& files, const StudyOptions& options) {
    if (files.empty()) throw IoError("", "recordings", "the list of recordings is empty");
    StudyBuilder b;
    b.s->source_ = StudySource::List;
    std::set<std::string> seen;
    for (const auto& f : files) {
        if (!seen.insert(fs::absolute(f).lexically_normal().string()).second)
            throw IoError(f, "recordings", "listed twice");
        b.probes.push_back(probe(f));
    }
    return StudyBuilder::finish(b, options, {});
}

std::unique_ptr<Study> Study::openSummary(const std::string& summaryFile, const StudyOptions& options) {
    const ChbSummary sum = parseChbSummary(summaryFile);
    StudyBuilder b;
    b.s->source_ = StudySource::Summary;
    b.isSummary = true;
    b.s->sourcePath_ = summaryFile;
    const fs::path dir = fs::path(summaryFile).parent_path();
    std::vector<std::vector<std::pair<double, double>>> seizures;
    std::set<std::string> seen;
    // Clock times without a date: a start earlier than the previous one is on the next day.
    double day = 0, prevStart = -1;
    for (const auto& e : sum.entries) {
        if (!seen.insert(e.file).second)
            throw IoError(summaryFile, "line " + std::to_string(e.line), "names " + e.file + " a second time");
        Probe p = probe((dir / e.file).string());
        if (p.rec.status == RecordingStatus::Missing) p.rec.error = "named by the summary but not found in " + (dir.empty() ? std::string(".") : dir.string());
        double abs = std::nan("");
        if (e.hasTimes) {
            double start = e.startClockS + day;
            if (start < prevStart) {
                const double days = std::ceil((prevStart - start) / 86400.0);
                day += days * 86400;
                start += days * 86400;
            }
            prevStart = start;
            double end = e.endClockS + (start - e.startClockS);
            if (end < start) end += std::ceil((start - end) / 86400.0) * 86400;
            abs = start;
            if (p.rec.status == RecordingStatus::Ok) {
                if (std::fabs((end - start) - p.rec.durationS) > 2.0)
                    p.warnings.push_back(p.rec.name + ": the summary gives " + formatDouble(end - start) +
                                         " s (File Start/End Time), the header " + formatDouble(p.rec.durationS) + " s");
            } else {
                p.rec.durationS = end - start;
            }
            p.rec.timeSource = "summary";
            // The header's date (when given) dates the whole summary.
            if (p.rec.status == RecordingStatus::Ok && p.rec.startKnown && !b.summaryDate) {
                b.summaryDate = true;
                const double headerDay = std::floor(p.absS / 86400.0) * 86400.0;
                b.summaryDateSeconds = headerDay - (start - std::fmod(start, 86400.0));
            }
        }
        if (p.rec.status == RecordingStatus::Ok && !e.channels.empty()) {
            std::vector<std::string> labels;
            for (const auto& s : p.rec.signals) labels.push_back(s.label);
            if (labels != e.channels)
                p.warnings.push_back(p.rec.name + ": its header's channels (" + std::to_string(labels.size()) +
                                     ") differ from the summary's list for it (" + std::to_string(e.channels.size()) + ")");
        }
        if (sum.rateHz > 0 && p.rec.status == RecordingStatus::Ok)
            for (const auto& s : p.rec.signals)
                if (s.rateHz != sum.rateHz) {
                    p.warnings.push_back(p.rec.name + ": channel " + s.displayName + " is at " + formatDouble(s.rateHz) +
                                         " Hz, the summary says " + formatDouble(sum.rateHz) + " Hz");
                    break;
                }
        p.rec.summaryChannels = e.channels;
        b.summaryAbs.push_back(abs);
        b.probes.push_back(std::move(p));
        seizures.push_back(e.seizures);
    }
    return StudyBuilder::finish(b, options, seizures);
}

std::vector<int> Study::missing() const {
    std::vector<int> out;
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].status == RecordingStatus::Missing) out.push_back(int(i));
    return out;
}

std::vector<int> Study::damaged() const {
    std::vector<int> out;
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].status == RecordingStatus::Damaged) out.push_back(int(i));
    return out;
}

int Study::findRecording(const std::string& nameOrPath) const {
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].name == nameOrPath || recordings_[i].path == nameOrPath) return int(i);
    const std::string base = fs::path(nameOrPath).filename().string();
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].name == base) return int(i);
    return -1;
}

int Study::findChannel(const std::string& name) const {
    for (std::size_t i = 0; i < channels_.size(); ++i)
        if (channels_[i].name == name) return int(i);
    // A label: the first channel whose display name is that label.
    const std::string l = lower(name);
    for (std::size_t i = 0; i < channels_.size(); ++i)
        if (lower(channels_[i].name) == l) return int(i);
    if (name.size() > 1 && name[0] == '#') {
        try {
            std::size_t used = 0;
            const long long k = std::stoll(name.substr(1), &used);
            if (used == name.size() - 1 && k >= 0 && k < (long long)channels_.size()) return int(k);
        } catch (...) {
        }
    }
    return -1;
}

std::vector<int> Study::skippedFor(int channel) const {
    std::vector<int> out;
    if (channel < 0 || channel >= int(channels_.size())) return out;
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].status == RecordingStatus::Ok && channels_[std::size_t(channel)].signalOf[i] < 0)
            out.push_back(int(i));
    return out;
}

std::string Study::clockText(double secondsFromStudyStart) const {
    if (!originKnown_) return {};
    const double t = originSecondOfDay_ + secondsFromStudyStart;
    const long long ms = std::llround(t * 1000.0);
    long long days = ms / 86400000;
    if (ms < 0 && ms % 86400000 != 0) --days;
    const double sod = double(ms - days * 86400000) / 1000.0;
    if (originHasDate_) {
        int y, m, d;
        civilFromDays(originDayIndex_ + days, y, m, d);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT", y, m, d);
        return buf + hms(sod, true);
    }
    return "+" + std::to_string(days) + "d " + hms(sod, true);
}

std::string Study::clockTime(int recording, double secondsFromRecordingStart) const {
    if (recording < 0 || recording >= int(recordings_.size())) return {};
    return clockText(recordings_[std::size_t(recording)].offsetS + secondsFromRecordingStart);
}

std::vector<compute::SecondsSpan> Study::seizureSpans(int recording, int channel) const {
    std::vector<compute::SecondsSpan> out;
    for (const auto& s : seizures_)
        if (s.recording == recording && (s.channel < 0 || s.channel == channel)) out.push_back({s.startS, s.endS});
    return out;
}

void Study::addRegions(int recording, const std::vector<Region>& regions) {
    if (recording < 0 || recording >= int(recordings_.size()))
        throw IoError("", "recording", "index " + std::to_string(recording) + " outside the study");
    const StudyRecording& r = recordings_[std::size_t(recording)];
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const Region& g = regions[i];
        if (g.kind != RegionKind::Seizure) continue;
        const std::string field = "regions[" + std::to_string(i) + "]";
        if (!std::isfinite(g.startS) || !std::isfinite(g.endS) || g.startS < 0 || !(g.endS > g.startS) ||
            (r.durationS > 0 && g.endS > r.durationS + 1e-9))
            throw IoError(r.path, field,
                          formatDouble(g.startS) + "-" + formatDouble(g.endS) + " s is empty or outside the recording (0-" +
                              formatDouble(r.durationS) + " s)");
        int channel = -1;
        if (g.channel >= 0) {
            if (g.channel >= int(r.signals.size()))
                throw IoError(r.path, field, "channel " + std::to_string(g.channel) + " outside the recording's signals");
            channel = findChannel(r.signals[std::size_t(g.channel)].displayName);
        }
        seizures_.push_back({recording, g.startS, g.endS, channel, "region: " + g.note, true});
    }
    sortSeizures();
}

void Study::setRegions(int recording, const std::vector<Region>& regions) {
    std::vector<StudySeizure> kept = seizures_;
    seizures_.erase(std::remove_if(seizures_.begin(), seizures_.end(),
                                   [&](const StudySeizure& s) { return s.user && s.recording == recording; }),
                    seizures_.end());
    try {
        addRegions(recording, regions);
    } catch (...) {
        seizures_ = std::move(kept);  // all or nothing
        throw;
    }
}

std::vector<Region> Study::regionsOf(int recording) const {
    std::vector<Region> out;
    if (recording < 0 || recording >= int(recordings_.size())) return out;
    for (const auto& s : seizures_) {
        if (!s.user || s.recording != recording) continue;
        const int sig = s.channel < 0 ? -1 : channels_[std::size_t(s.channel)].signalOf[std::size_t(recording)];
        out.push_back({RegionKind::Seizure, sig, s.startS, s.endS,
                       s.source.rfind("region: ", 0) == 0 ? s.source.substr(8) : s.source});
    }
    return out;
}

int Study::addAnnotationSeizures(const std::string& pattern) {
    int added = 0;
    for (std::size_t i = 0; i < recordings_.size(); ++i) {
        const auto& r = recordings_[i];
        if (r.status != RecordingStatus::Ok) continue;
        if (r.format != Format::EDFPlusC && r.format != Format::EDFPlusD && r.format != Format::BDFPlusC &&
            r.format != Format::BDFPlusD)
            continue;
        std::shared_ptr<const Recording> rec;
        try {
            rec = recording(int(i));
        } catch (const std::exception& e) {
            warnings_.push_back(r.name + ": annotations not read: " + e.what());
            continue;
        }
        for (const auto& g : seizuresFromAnnotations(*rec, pattern)) {
            if (!(g.endS > g.startS)) {
                warnings_.push_back(r.name + ": annotation \"" + g.note.substr(12) + "\" at " + formatDouble(g.startS) +
                                    " s has no duration: not a seizure region");
                continue;
            }
            seizures_.push_back({int(i), g.startS, std::min(g.endS, r.durationS), -1, g.note});
            ++added;
        }
    }
    sortSeizures();
    return added;
}

std::shared_ptr<const Recording> Study::recording(int index) const { return openRecording(index, true); }

std::shared_ptr<const Recording> Study::openRecording(int index, bool annotations) const {
    if (index < 0 || index >= int(recordings_.size()))
        throw IoError("", "recording", "index " + std::to_string(index) + " outside the study");
    const StudyRecording& r = recordings_[std::size_t(index)];
    if (r.status != RecordingStatus::Ok)
        throw IoError(r.path, "", std::string(recordingStatusName(r.status)) + ": " + r.error);
    // One open of this recording at a time; other recordings open at the same time (an EDF+
    // open scans every record's annotations: not under the cache's mutex).
    std::lock_guard openLock(cache_->mutexOf(cache_->openMutex, index));
    {
        std::lock_guard lock(cache_->mutex);
        auto& open = cache_->open;
        for (auto it = open.begin(); it != open.end(); ++it)
            if (it->index == index && (it->annotations || !annotations)) {
                open.splice(open.end(), open, it);  // most recently used last
                return open.back().rec;
            }
        // Samples only: EDFlib then skips the annotations, which it would read from every record.
        // A samples-only copy is closed first (EDFlib refuses a file it has open already).
        open.remove_if([&](const Cache::Entry& e) { return e.index == index; });
    }
    OpenOptions options;
    options.readAnnotations = annotations;
    // Samples only: the lenient raw reader (pread on its own descriptor, the same values as
    // EDFlib: io.test_edf_reading lenientReaderEqualsEdflib), so that different recordings are
    // read in parallel; every EDFlib call holds one global mutex (edflib_lock.h).
    options.forceLenient = !annotations;
    std::shared_ptr<const Recording> rec(Recording::open(r.path, options).release());
    std::lock_guard lock(cache_->mutex);
    cache_->open.push_back({index, rec, annotations});
    while (int(cache_->open.size()) > cache_->limit) cache_->open.pop_front();
    return rec;
}

long long Study::sampleCount(int recording, int channel) const {
    if (recording < 0 || recording >= int(recordings_.size()) || channel < 0 || channel >= int(channels_.size()))
        return 0;
    const auto& r = recordings_[std::size_t(recording)];
    const int sig = channels_[std::size_t(channel)].signalOf[std::size_t(recording)];
    if (r.status != RecordingStatus::Ok || sig < 0) return 0;
    return r.signals[std::size_t(sig)].samples;
}

void Study::read(int recording, int channel, long long start, long long count, float* out) const {
    if (channel < 0 || channel >= int(channels_.size()))
        throw IoError(sourcePath_, "channel", "index " + std::to_string(channel) + " outside the study's channels");
    auto rec = openRecording(recording, false);
    const StudyRecording& r = recordings_[std::size_t(recording)];
    const StudyChannel& c = channels_[std::size_t(channel)];
    int sig = c.signalOf[std::size_t(recording)];
    if (sig < 0) throw IoError(r.path, "channel", "the recording has no channel " + c.name);
    // The header parse and the opened recording agree on indices; check by name all the same.
    if (sig >= int(rec->signals().size()) || rec->signals()[std::size_t(sig)].displayName != c.name) {
        sig = rec->findSignal(c.name);
        if (sig < 0) throw IoError(r.path, "channel", "the opened recording has no channel " + c.name);
    }
    std::lock_guard readLock(cache_->mutexOf(cache_->readMutex, recording));
    const std::vector<float> v = rec->read(sig, start, count);
    std::copy(v.begin(), v.end(), out);
}

std::vector<float> Study::read(int recording, int channel, long long start, long long count) const {
    std::vector<float> v(std::size_t(std::max(0LL, count)));
    read(recording, channel, start, count, v.data());
    return v;
}

compute::PatternRequest studyPatternRequest(const Study& study, int channel, std::vector<std::string>* skipped) {
    if (channel < 0 || channel >= int(study.channels().size()))
        throw IoError(study.sourcePath(), "channel", "index " + std::to_string(channel) + " outside the study's channels");
    const StudyChannel& c = study.channels()[std::size_t(channel)];
    compute::PatternRequest req;
    req.channel = c.name;
    req.rateHz = c.rateHz;
    for (std::size_t i = 0; i < study.recordings().size(); ++i) {
        const auto& r = study.recordings()[i];
        if (r.status != RecordingStatus::Ok) continue;
        if (c.signalOf[i] < 0) {
            if (skipped) skipped->push_back(r.name + ": no channel " + c.name);
            continue;
        }
        compute::PatternSegment seg;
        seg.sampleCount = study.sampleCount(int(i), channel);
        const int ri = int(i);
        seg.reader = [&study, ri, channel](long long start, long long count, float* out) {
            study.read(ri, channel, start, count, out);
        };
        seg.seizures = study.seizureSpans(ri, channel);
        seg.recording = r.name;
        seg.recordingIndex = ri;
        seg.clockStartS = r.offsetS;
        req.segments.push_back(std::move(seg));
    }
    if (req.segments.empty())
        throw IoError(study.sourcePath(), "channel", "no readable recording of the study has channel " + c.name);
    return req;
}

std::vector<compute::SearchSource> studySearchSources(const Study& study, const std::vector<int>& channels,
                                                      std::vector<std::string>* skipped) {
    std::vector<compute::SearchSource> out;
    for (std::size_t i = 0; i < study.recordings().size(); ++i) {
        const auto& r = study.recordings()[i];
        if (r.status != RecordingStatus::Ok) continue;
        for (int ch : channels) {
            if (ch < 0 || ch >= int(study.channels().size()))
                throw IoError(study.sourcePath(), "channel", "index " + std::to_string(ch) + " outside the study's channels");
            const StudyChannel& c = study.channels()[std::size_t(ch)];
            if (c.signalOf[i] < 0) {
                if (skipped) skipped->push_back(r.name + ": no channel " + c.name);
                continue;
            }
            compute::SearchSource s;
            s.recording = r.name;
            s.channel = c.name;
            s.recordingIndex = int(i);
            s.channelIndex = ch;
            s.rateHz = c.rateHz;
            s.clockStartS = r.offsetS;
            const int ri = int(i);
            s.load = [&study, ri, ch]() {
                const long long n = study.sampleCount(ri, ch);
                return compute::Series(study.read(ri, ch, 0, n), 1,
                                       study.recordings()[std::size_t(ri)].name + " " + study.channels()[std::size_t(ch)].name);
            };
            out.push_back(std::move(s));
        }
    }
    return out;
}

}  // namespace warplab::io
