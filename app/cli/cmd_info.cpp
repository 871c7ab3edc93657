// `warplab-cli info FILE [--json]`: header facts of a recording or series file. The JSON form
// has exactly the fields of docs/CLI.md; the plain form is tab-separated text for shell use.
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "io/signal_json.h"
#include "app/cli/study_cli.h"
#include "io/recording.h"

namespace warplab::cli {

namespace {

struct InfoOptions {
    std::string file;
    bool json = false;
    RunFlags run;  // accepted on every command; info computes nothing
    StudyFlags study;  // a folder or CHB-MIT summary is a study (study_cli.cpp)
};

nlohmann::ordered_json toJson(const io::Recording& rec, const std::string& file) {
    nlohmann::ordered_json j;
    j["file"] = file;
    j["format"] = std::string(io::formatName(rec.format()));
    std::string start = rec.startIso();
    j["start"] = start.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(start);
    j["duration_s"] = rec.durationS();
    auto signals = nlohmann::ordered_json::array();
    for (const auto& s : rec.signals()) signals.push_back(io::signalJson(s, true));
    j["signals"] = std::move(signals);
    auto annotations = nlohmann::ordered_json::array();
    for (const auto& a : rec.annotations()) {
        nlohmann::ordered_json aj;
        aj["onset_s"] = a.onsetS;
        aj["duration_s"] = a.durationS;
        aj["text"] = a.text;
        annotations.push_back(std::move(aj));
    }
    j["annotations"] = std::move(annotations);
    return j;
}

void printText(const io::Recording& rec, const std::string& file) {
    std::cout << "file\t" << file << '\n'
              << "format\t" << io::formatName(rec.format()) << '\n'
              << "start\t" << rec.startIso() << '\n'
              << "duration_s\t" << formatDouble(rec.durationS()) << '\n'
              << "signals\t" << rec.signals().size() << '\n'
              << "index\tlabel\tunit\trate_hz\tsamples\tphysical_min\tphysical_max\n";
    for (const auto& s : rec.signals())
        std::cout << s.index << '\t' << s.displayName << '\t' << s.unit << '\t' << formatDouble(s.rateHz) << '\t'
                  << s.samples << '\t' << formatDouble(s.physicalMin) << '\t' << formatDouble(s.physicalMax)
                  << '\n';
    std::cout << "annotations\t" << rec.annotations().size() << '\n';
    if (!rec.annotations().empty()) {
        std::cout << "onset_s\tduration_s\ttext\n";
        for (const auto& a : rec.annotations())
            std::cout << formatDouble(a.onsetS) << '\t' << formatDouble(a.durationS) << '\t' << a.text << '\n';
    }
}

void runInfo(const InfoOptions& o) {
    if (isStudyPath(o.file)) return runStudyInfo(o.file, o.json, o.study);
    auto rec = io::Recording::open(o.file);
    for (const auto& w : rec->warnings()) std::fprintf(stderr, "warning: %s: %s\n", o.file.c_str(), w.c_str());
    if (o.json)
        std::cout << toJson(*rec, o.file).dump(2) << '\n';
    else
        printText(*rec, o.file);
    flushStdout();
}

}  // namespace

void addInfoCommand(CLI::App& app) {
    auto o = std::make_shared<InfoOptions>();
    auto* cmd = app.add_subcommand("info", "header facts of a recording (EDF, EDF+, BDF) or series file");
    cmd->add_option("FILE", o->file, "recording or series file; a folder or CHB-MIT summary: a study (recordings, gaps, channels, seizures)")
        ->required()
        ->check(CLI::ExistingPath);
    cmd->add_flag("--json", o->json, "print JSON (file, format, start, duration_s, signals, annotations)");
    addRunOptions(*cmd, o->run);
    addStudyFlags(*cmd, o->study, true);
    cmd->callback([o] { runInfo(*o); });
}

}  // namespace warplab::cli
