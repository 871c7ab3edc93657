#include "io/reference_events.h"

#include <filesystem>

#include "io/events_tsv.h"
#include "io/io_error.h"
#include "io/recording.h"
#include "io/regions_exchange.h"
#include "io/seizure_annotations.h"
#include "io/study_summary.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace {

std::vector<compute::TimedEvent> seizureSpans(const std::vector<Region>& regions) {
    std::vector<compute::TimedEvent> out;
    for (const auto& r : regions)
        if (r.kind == RegionKind::Seizure) out.push_back({r.startS, r.endS});
    return out;
}

ReferenceEvents fromSummary(const std::string& path, const std::string& recordingPath) {
    const ChbSummary summary = parseChbSummary(path);
    const SummaryEntry* entry = nullptr;
    if (recordingPath.empty()) {
        if (summary.entries.size() != 1)
            throw IoError(path, "", "lists " + std::to_string(summary.entries.size()) +
                                        " recordings: name the one to score (--recording)");
        entry = &summary.entries.front();
    } else {
        const std::filesystem::path want(recordingPath);
        for (const auto& e : summary.entries)
            if (e.file == want.filename().string() || std::filesystem::path(e.file).stem() == want.stem()) entry = &e;
        if (!entry) throw IoError(path, "", "has no entry for " + want.filename().string());
    }
    ReferenceEvents out;
    out.source = "CHB-MIT summary";
    for (const auto& [start, end] : entry->seizures) out.events.push_back({start, end});
    if (entry->hasTimes) {
        double d = entry->endClockS - entry->startClockS;
        if (d <= 0) d += 24 * 3600;  // the recording ran past midnight
        out.durationS = d;
    }
    return out;
}

}  // namespace

ReferenceEvents readReferenceEvents(const std::string& path, const std::string& recordingPath) {
    if (!std::filesystem::is_regular_file(path)) throw IoError(path, "", "no such file");
    const std::string ext = lower(std::filesystem::path(path).extension().string());
    if (ext == ".tsv") {
        const EventTable t = readEventsTsv(path);
        return {seizureEvents(t), t.recordingDurationS, "events table"};
    }
    const bool regionsEdf = ext == ".edf" && lower(std::filesystem::path(path).stem().string()).ends_with("_regions");
    if (ext == ".csv" || regionsEdf) {
        std::vector<std::string> channels;
        std::optional<double> duration;
        if (!recordingPath.empty()) {
            OpenOptions o;
            o.readAnnotations = false;
            const auto rec = Recording::open(recordingPath, o);
            for (const auto& s : rec->signals()) channels.push_back(s.displayName);
            duration = rec->durationS();
        }
        const auto regions = regionsEdf ? readRegionsEdf(path, channels).regions : readRegionsCsv(path, channels);
        return {seizureSpans(regions), duration, "regions file"};
    }
    if (ext == ".edf" || ext == ".bdf" || ext == ".rec") {
        const auto rec = Recording::open(path);
        return {seizureSpans(namedSeizureRegions(*rec)), rec->durationS(), "EDF+ annotations"};
    }
    if (looksLikeChbSummary(path)) return fromSummary(path, recordingPath);
    throw IoError(path, "", "not a reference the scorer reads: an events table (.tsv), a CHB-MIT summary, "
                            "an EDF+ file with seizure annotations, or a regions file (.csv)");
}

}  // namespace warplab::io
