// Opening a study: by what the path is, a folder of recordings, a list, or a CHB-MIT summary
// (whose times and seizures place the files it names).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "io/io_error.h"
#include "io/recording_backends.h"
#include "io/study.h"
#include "io/study_builder.h"
#include "io/study_summary.h"
#include "io/text_table.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace fs = std::filesystem;

namespace {

// A folder's recordings, by extension (content is probed later).
bool hasRecordingExtension(const fs::path& p) {
    const std::string ext = lower(p.extension().string());
    return ext == ".edf" || ext == ".bdf" || ext == ".rec";
}

}  // namespace

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
        if (e.is_regular_file(ec2) && hasRecordingExtension(e.path())) files.push_back(e.path().string());
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

}  // namespace warplab::io
