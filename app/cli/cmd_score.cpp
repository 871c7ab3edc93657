// `warplab-cli score --reference REF --hypothesis HYP [--duration S | --recording PATH]`:
// SzCORE's event- and sample-based scores of detections against marked seizures
// (compute/scoring/scoring.h), with each of SzCORE's defaults an option. Both files may be a
// BIDS events table or any reference source (io/reference_events.h).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/detector_options.h"
#include "compute/core/error.h"
#include "compute/scoring/scoring.h"
#include "io/io_error.h"
#include "io/recording.h"
#include "io/reference_events.h"
#include "io/score_json.h"

namespace warplab::cli {

namespace {

struct ScoreOptions {
    std::string reference, hypothesis, recording;
    double duration = 0;
    bool json = false;
    compute::EventScoringOptions event;
    compute::SampleScoringOptions sample;
};

std::string ratio(double v) { return std::isnan(v) ? "n/a" : formatDouble(v); }

void printRow(const char* name, const compute::DetectionScores& s) {
    std::cout << name << '\t' << s.tp << '\t' << s.fp << '\t' << s.reference << '\t' << ratio(s.sensitivity) << '\t'
              << ratio(s.precision) << '\t' << ratio(s.f1) << '\t' << ratio(s.fpPerDay) << '\n';
}

void runScore(const ScoreOptions& o) {
    const io::ReferenceEvents ref = io::readReferenceEvents(o.reference, o.recording);
    const io::ReferenceEvents hyp = io::readReferenceEvents(o.hypothesis, o.recording);
    // The recording's length: given, else the recording's, else what the files say.
    std::optional<double> duration;
    if (o.duration > 0) {
        duration = o.duration;
    } else if (!o.recording.empty() && std::filesystem::is_regular_file(o.recording)) {
        io::OpenOptions open;
        open.readAnnotations = false;
        duration = io::Recording::open(o.recording, open)->durationS();
    } else {
        duration = ref.durationS ? ref.durationS : hyp.durationS;
    }
    if (!duration && !o.recording.empty() && !std::filesystem::exists(o.recording) && ref.source != "CHB-MIT summary")
        throw io::IoError(o.recording, "", "no such file");
    if (!duration)
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "duration",
                                   "neither file says how long the recording is: give --duration SECONDS or --recording PATH");
    const auto ev = compute::scoreEvents(ref.events, hyp.events, *duration, o.event);
    const auto sa = compute::scoreSamples(ref.events, hyp.events, *duration, o.sample);
    if (o.json) {
        nlohmann::ordered_json j;
        j["event"] = io::scoresJson(ev.scores);
        j["sample"] = io::scoresJson(sa);
        j["duration_s"] = *duration;
        j["seizures"] = io::seizureOutcomesJson(ev.seizures);
        std::cout << j.dump(2) << '\n';
    } else {
        std::cout << "scoring\ttp\tfp\treference_events\tsensitivity\tprecision\tf1\tfp_per_day\n";
        printRow("event", ev.scores);
        printRow("sample", sa);
        std::cout << "\nseizure_onset_s\tduration_s\tdetected\tlatency_s\n";
        for (const auto& s : ev.seizures)
            std::cout << formatDouble(s.seizure.startS) << '\t' << formatDouble(s.seizure.endS - s.seizure.startS) << '\t'
                      << (s.detected ? "yes" : "no") << '\t' << (s.detected ? formatDouble(s.latencyS) : "n/a") << '\n';
    }
    flushStdout();
}

}  // namespace

void addScoreCommand(CLI::App& app) {
    auto o = std::make_shared<ScoreOptions>();
    auto* cmd = app.add_subcommand(
        "score", "SzCORE event- and sample-based scores of detections (HYP) against marked seizures (REF)");
    const char* sources =
        "a BIDS events table (*_events.tsv: onset, duration[, eventType]), a CHB-MIT summary, an EDF+ "
        "file whose annotations name seizures, or a regions file (.csv, *_regions.edf)";
    cmd->add_option("--reference", o->reference, std::string("the marked seizures: ") + sources)
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--hypothesis", o->hypothesis, "the detections, in any of the same forms")
        ->required()
        ->check(CLI::ExistingFile);
    auto* dur = cmd->add_option("--duration", o->duration,
                                "length of the recording in seconds (default: from --recording, else from the "
                                "files: an events table's recordingDuration, a summary's times, an EDF+ file)")
                    ->check(CLI::PositiveNumber);
    cmd->add_option("--recording", o->recording,
                    "the recording scored: its length, its channel names for a regions file; with a CHB-MIT "
                    "summary its file name alone picks the entry (chb01_03.edf)")
        ->excludes(dur);
    addScoringOptions(*cmd, o->event, o->sample);
    cmd->add_flag("--json", o->json,
                  "print JSON: {\"event\": {tp, fp, reference_events, sensitivity, precision, f1, fp_per_day}, "
                  "\"sample\": {the same}, duration_s, seizures: [{onset_s, duration_s, detected, latency_s}]}");
    cmd->callback([o] { runScore(*o); });
}

}  // namespace warplab::cli
