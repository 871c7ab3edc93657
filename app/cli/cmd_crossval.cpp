// `warplab-cli crossval --study FOLDER|SUMMARY`: leave-one-out cross-validation of the
// detector over a study (compute/detect/crossval.h): per held-out recording, a detector built
// from the others only, applied to it and scored with SzCORE's rules; per-fold table and pooled
// scores, or JSON. `--folds seizure` holds out each recording with a seizure, `--folds
// recording` every recording, seizure-free ones too.
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/detector_options.h"
#include "app/cli/gpu_start_up.h"
#include "app/cli/study_cli.h"
#include "compute/detect/crossval.h"
#include "io/score_json.h"

namespace warplab::cli {

namespace {

struct CrossvalFlags {
    std::string study;
    DetectorBuildFlags build;
    compute::EventScoringOptions event;
    compute::SampleScoringOptions sample;
    StudyFlags studyFlags;
    RunFlags run;
    bool json = false;
    std::string folds = "seizure";
};

std::string ratio(double v) { return std::isnan(v) ? "n/a" : formatDouble(v); }

void runCrossval(const CrossvalFlags& o) {
    compute::CrossvalOptions co;
    co.build = toBuildOptions(o.build);
    co.event = o.event;
    co.sample = o.sample;
    co.folds = o.folds == "recording" ? compute::CrossvalFolds::Recording : compute::CrossvalFolds::Seizure;
    GpuStartUp gpu(o.run);  // the GPUs start while the study is opened (gpu_start_up.h)
    auto study = openStudyForCli(o.study, o.studyFlags, "study");
    auto requests = detectorRequests(*study, o.build);
    const compute::CrossvalResult res = compute::crossValidate(requests, co, toRunOptions(o.run, "crossval"));
    finishProgress();
    if (o.json) {
        nlohmann::ordered_json j;
        j["fold_kind"] = o.folds;
        io::appendCrossvalJson(j, res);
        std::cout << j.dump(2) << '\n';
    } else {
        std::cout << "recording\tduration_s\tseizures\tdetected\ttp\tfp\tsensitivity\tprecision\tf1\tfp_per_day\t"
                     "sample_sensitivity\tsample_precision\tlatency_s\n";
        auto row = [](const std::string& name, double dur, std::size_t seizures, std::size_t detected,
                      const compute::DetectionScores& e, const compute::DetectionScores& s, const std::string& latency) {
            std::cout << name << '\t' << formatDouble(dur) << '\t' << seizures << '\t' << detected << '\t' << e.tp << '\t'
                      << e.fp << '\t' << ratio(e.sensitivity) << '\t' << ratio(e.precision) << '\t' << ratio(e.f1) << '\t'
                      << ratio(e.fpPerDay) << '\t' << ratio(s.sensitivity) << '\t' << ratio(s.precision) << '\t'
                      << latency << '\n';
        };
        std::size_t allSz = 0, allDet = 0;
        for (const auto& f : res.folds) {
            std::size_t det = 0;
            std::string lat;
            for (const auto& s : f.outcomes) {
                det += s.detected ? 1 : 0;
                lat += (lat.empty() ? "" : ",") + (s.detected ? formatDouble(s.latencyS) : std::string("n/a"));
            }
            allSz += f.outcomes.size();
            allDet += det;
            row(f.recording, f.durationS, f.outcomes.size(), det, f.event, f.sample, lat.empty() ? "n/a" : lat);
        }
        row("pooled", res.testedS, allSz, allDet, res.event, res.sample, "");
        std::fprintf(stderr, "%zu folds scored %s of the study's %s s of recording\n", res.folds.size(),
                     formatDouble(res.testedS).c_str(), formatDouble(res.totalS).c_str());
    }
    flushStdout();
}

}  // namespace

void addCrossvalCommand(CLI::App& app) {
    auto o = std::make_shared<CrossvalFlags>();
    auto* cmd = app.add_subcommand("crossval", "leave-one-out cross-validation of the seizure detector over a study "
                                               "(each recording with a seizure held out, trained on the others)");
    cmd->add_option("--study", o->study, "the study (folder or CHB-MIT summary) and its marked seizures")->required();
    addDetectorBuildOptions(*cmd, o->build);
    cmd->add_option("--folds", o->folds,
                    "seizure: each recording with a seizure held out in turn; recording: every recording, seizure-free "
                    "ones too (they can only add false alarms)")
        ->check(CLI::IsMember({"seizure", "recording"}))
        ->capture_default_str();
    addScoringOptions(*cmd, o->event, o->sample);
    cmd->add_flag("--json", o->json,
                  "print JSON: folds [{recording, duration_s, training, event, sample, seizures}], pooled event and "
                  "sample scores, tested_s, study_s");
    addRunOptions(*cmd, o->run);
    addStudyFlags(*cmd, o->studyFlags, true);
    cmd->callback([o] { runCrossval(*o); });
}

}  // namespace warplab::cli
