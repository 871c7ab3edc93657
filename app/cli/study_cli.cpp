#include "app/cli/study_cli.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/mpi_job.h"
#include "io/signal_json.h"
#include "compute/core/error.h"
#include "io/study_summary.h"

namespace warplab::cli {

using compute::EngineError;

void addStudyFlags(CLI::App& cmd, StudyFlags& o, bool withSeizureSources, const std::string& summaryName,
                   const std::string& annotationName) {
    cmd.add_flag("--skip-missing", o.skipMissing,
                 "go on without the study's missing or unreadable files (each named on stderr); without it they "
                 "are refused (exit 2)");
    if (!withSeizureSources) return;
    cmd.add_option(summaryName, o.summary, "study: seizures from a CHB-MIT chbNN-summary.txt (folder or list studies)")
        ->check(CLI::ExistingFile);
    cmd.add_option(annotationName, o.annotation, "study: EDF+ annotations containing TEXT mark the seizures")
        ->option_text("TEXT");
}

bool isStudyPath(const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_directory(path, ec) || io::looksLikeChbSummary(path);
}

std::string csvText(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

namespace {

io::StudyOptions toOptions(const StudyFlags& f) {
    io::StudyOptions o;
    o.seizureSummary = f.summary;
    o.annotationPattern = f.annotation;
    return o;
}

std::unique_ptr<io::Study> checked(std::unique_ptr<io::Study> st, const StudyFlags& flags, const std::string& role,
                                   bool refuseMissing) {
    const bool speaks = mpi::rank() == 0;  // under mpirun every rank opens the study; one says so
    if (speaks)
        for (const auto& w : st->warnings()) std::fprintf(stderr, "warning: %s\n", w.c_str());
    std::vector<int> bad = st->missing();
    const auto damaged = st->damaged();
    bad.insert(bad.end(), damaged.begin(), damaged.end());
    if (refuseMissing && !bad.empty()) {
        if (!flags.skipMissing) {
            std::string list;
            for (std::size_t k = 0; k < bad.size() && k < 10; ++k)
                list += (k ? ", " : "") + st->recordings()[std::size_t(bad[k])].name + " (" +
                        std::string(io::recordingStatusName(st->recordings()[std::size_t(bad[k])].status)) + ")";
            if (bad.size() > 10) list += ", ... (" + std::to_string(bad.size()) + " in all)";
            throw EngineError(EngineError::Kind::BadInput, role,
                              st->sourcePath() + ": " + std::to_string(bad.size()) + " of " +
                                  std::to_string(st->recordings().size()) + " recordings cannot be read: " + list +
                                  "; --skip-missing goes on without them");
        }
        for (int r : bad) {
            if (!speaks) break;
            const auto& rec = st->recordings()[std::size_t(r)];
            std::fprintf(stderr, "warning: skipping %s (%s): %s\n", rec.name.c_str(),
                         std::string(io::recordingStatusName(rec.status)).c_str(), rec.error.c_str());
        }
    }
    if (refuseMissing && bad.size() == st->recordings().size())
        throw EngineError(EngineError::Kind::BadInput, role, st->sourcePath() + ": no readable recording in the study");
    return st;
}

}  // namespace

std::unique_ptr<io::Study> openStudyForCli(const std::string& path, const StudyFlags& flags, const std::string& role,
                                           bool refuseMissing) {
    return checked(io::Study::open(path, toOptions(flags)), flags, role, refuseMissing);
}

std::unique_ptr<io::Study> openListForCli(const std::vector<std::string>& files, const StudyFlags& flags,
                                          const std::string& role) {
    return checked(io::Study::openList(files, toOptions(flags)), flags, role, true);
}

namespace {

nlohmann::ordered_json nullable(const std::string& s) {
    return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
}

nlohmann::ordered_json studyJson(const io::Study& st) {
    using J = nlohmann::ordered_json;
    J j;
    j["study"] = st.sourcePath();
    j["source"] = std::string(io::studySourceName(st.source()));
    j["start"] = st.recordings().empty() || !st.recordings().front().startKnown ? J(nullptr)
                                                                               : J(st.recordings().front().startIso);
    const auto& rs = st.recordings();
    double span = 0;
    for (const auto& r : rs) span = std::max(span, r.endOffsetS());
    j["span_s"] = span;
    J recs = J::array();
    for (std::size_t i = 0; i < rs.size(); ++i) {
        const auto& r = rs[i];
        J rj;
        // The fields of a recording's `info --json`, then the study's own.
        rj["file"] = r.path;
        rj["format"] = r.status == io::RecordingStatus::Ok ? J(std::string(io::formatName(r.format))) : J(nullptr);
        rj["start"] = r.startKnown ? J(r.startIso) : J(nullptr);
        rj["duration_s"] = r.durationS;
        J sig = J::array();
        for (const auto& s : r.signals) sig.push_back(io::signalJson(s, false));
        rj["signals"] = std::move(sig);
        rj["name"] = r.name;
        rj["status"] = std::string(io::recordingStatusName(r.status));
        rj["error"] = nullable(r.error);
        rj["offset_s"] = r.offsetS;
        rj["time_source"] = r.timeSource;
        rj["gap_before_s"] = i == 0 ? J(nullptr) : J(st.gaps()[i - 1].seconds);
        recs.push_back(std::move(rj));
    }
    j["recordings"] = std::move(recs);
    J chans = J::array();
    for (const auto& c : st.channels()) {
        J cj;
        cj["name"] = c.name;
        cj["unit"] = c.unit;
        cj["rate_hz"] = c.rateHz;
        cj["recordings"] = c.recordingCount;
        J absent = J::array();
        for (std::size_t i = 0; i < rs.size(); ++i)
            if (rs[i].status == io::RecordingStatus::Ok && c.signalOf[i] < 0) absent.push_back(rs[i].name);
        cj["absent_from"] = std::move(absent);
        chans.push_back(std::move(cj));
    }
    j["channels"] = std::move(chans);
    J sz = J::array();
    for (const auto& s : st.seizures()) {
        J sj;
        sj["recording"] = rs[std::size_t(s.recording)].name;
        sj["start_s"] = s.startS;
        sj["end_s"] = s.endS;
        sj["clock_start"] = st.clockTime(s.recording, s.startS);
        sj["channel"] = s.channel < 0 ? J(nullptr) : J(st.channels()[std::size_t(s.channel)].name);
        sj["source"] = s.source;
        sz.push_back(std::move(sj));
    }
    j["seizures"] = std::move(sz);
    j["warnings"] = st.warnings();
    return j;
}

void printStudyText(const io::Study& st) {
    const auto& rs = st.recordings();
    std::cout << "study\t" << st.sourcePath() << '\n'
              << "source\t" << io::studySourceName(st.source()) << '\n'
              << "recordings\t" << rs.size() << '\n'
              << "index\tname\tstatus\tstart\tduration_s\toffset_s\tgap_before_s\tsignals\tseizures\n";
    for (std::size_t i = 0; i < rs.size(); ++i) {
        const auto& r = rs[i];
        std::size_t n = 0;
        for (const auto& s : st.seizures()) n += s.recording == int(i);
        std::cout << i << '\t' << r.name << '\t' << io::recordingStatusName(r.status) << '\t'
                  << (r.startKnown ? r.startIso : "?") << '\t' << formatDouble(r.durationS) << '\t'
                  << formatDouble(r.offsetS) << '\t' << (i == 0 ? std::string("-") : formatDouble(st.gaps()[i - 1].seconds))
                  << '\t' << r.signals.size() << '\t' << n << '\n';
    }
    std::cout << "channels\t" << st.channels().size() << '\n' << "name\trate_hz\tunit\trecordings\tabsent_from\n";
    for (const auto& c : st.channels()) {
        std::string absent;
        for (std::size_t i = 0; i < rs.size(); ++i)
            if (rs[i].status == io::RecordingStatus::Ok && c.signalOf[i] < 0) absent += (absent.empty() ? "" : " ") + rs[i].name;
        std::cout << c.name << '\t' << formatDouble(c.rateHz) << '\t' << c.unit << '\t' << c.recordingCount << '\t'
                  << (absent.empty() ? "-" : absent) << '\n';
    }
    std::cout << "seizures\t" << st.seizures().size() << '\n';
    if (!st.seizures().empty()) {
        std::cout << "recording\tstart_s\tend_s\tclock_start\tchannel\tsource\n";
        for (const auto& s : st.seizures())
            std::cout << rs[std::size_t(s.recording)].name << '\t' << formatDouble(s.startS) << '\t' << formatDouble(s.endS)
                      << '\t' << st.clockTime(s.recording, s.startS) << '\t'
                      << (s.channel < 0 ? std::string("all") : st.channels()[std::size_t(s.channel)].name) << '\t'
                      << s.source << '\n';
    }
}

}  // namespace

void runStudyInfo(const std::string& path, bool json, const StudyFlags& flags) {
    // info lists missing and damaged files (status column) instead of refusing them.
    auto st = openStudyForCli(path, flags, "study", false);
    if (json)
        std::cout << studyJson(*st).dump(2) << '\n';
    else
        printStudyText(*st);
    flushStdout();
}

}  // namespace warplab::cli
