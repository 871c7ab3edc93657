// A study from its probed recordings: the clock origin, the order by start time, offsets and
// gaps, channels matched by display name (one rate each), and the seizures of the source.
#include "io/study_builder.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "io/io_error.h"
#include "io/study_dates.h"
#include "io/study_summary.h"
#include "io/summary_crops.h"
#include "io/text_table.h"

namespace warplab::io {

std::unique_ptr<Study> StudyBuilder::finish(StudyBuilder& b, const StudyOptions& o,
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

}  // namespace warplab::io
