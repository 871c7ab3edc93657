// `warplab-cli detect`: builds a seizure detector from a study's pattern ranking
// (compute/detect/detector.h) and saves it, and/or applies a detector to a recording, writing
// its detections as a BIDS events table (io/events_tsv.h) that `score` and SzCORE's tools read.
//   detect --study FOLDER|SUMMARY [--channel CH]... [--top N] [--operating-point youden|fpr:X]
//          [--votes K] [--min-epochs M] [--event-gap S] --save D.json
//   detect --detector D.json --apply RECORDING [--events-out FILE.tsv]
// Both in one run: build, save (when --save) and apply.
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/detector_options.h"
#include "app/cli/gpu_start_up.h"
#include "app/cli/study_cli.h"
#include "compute/core/error.h"
#include "compute/detect/detector.h"
#include "io/detector_file.h"
#include "io/events_tsv.h"
#include "io/recording.h"

namespace warplab::cli {

namespace {

using compute::EngineError;

struct DetectOptions {
    std::string study, detector, save, apply, eventsOut;
    DetectorBuildFlags build;
    StudyFlags studyFlags;
    RunFlags run;
};

compute::Detector build(const DetectOptions& o, const compute::RunOptions& ro) {
    const compute::BuildOptions b = toBuildOptions(o.build);
    auto study = openStudyForCli(o.study, o.studyFlags, "study");
    auto requests = detectorRequests(*study, o.build);
    return compute::buildDetector(requests, compute::findPatterns(requests, ro), b, ro);
}

void runDetect(const DetectOptions& o) {
    if (o.study.empty() == o.detector.empty())
        throw EngineError(EngineError::Kind::BadParameter, "detector",
                          "give --study (build a detector) or --detector FILE (load one), not both");
    if (o.save.empty() && o.apply.empty())
        throw EngineError(EngineError::Kind::BadParameter, "apply", "nothing to do: give --save FILE and/or --apply RECORDING");
    // Building ranks the study's patterns, on the GPUs where there are: they start while the
    // study is opened (gpu_start_up.h).
    std::optional<GpuStartUp> gpu;
    if (!o.study.empty()) gpu.emplace(o.run);
    compute::RunOptions ro = toRunOptions(o.run, "detect");
    compute::Detector d = o.detector.empty() ? build(o, ro) : io::loadDetector(o.detector);
    finishProgress();
    if (!o.save.empty()) {
        io::saveDetector(o.save, d);
        std::fprintf(stderr, "detector: %zu patterns on %zu channel(s), %s, saved to %s\n", d.patterns.size(),
                     d.channels().size(), compute::operatingPointName(d.operatingPoint).c_str(), o.save.c_str());
    }
    if (o.apply.empty()) return;
    io::OpenOptions open;
    open.readAnnotations = false;
    const auto rec = io::Recording::open(o.apply, open);
    const compute::Detection det = io::detectInRecording(d, *rec, ro);
    finishProgress();
    io::EventTable table;
    table.recordingDurationS = rec->durationS();
    std::string channels;
    for (const auto& c : d.channels()) channels += (channels.empty() ? "" : ",") + c;
    for (const auto& e : det.events) table.rows.push_back({e.startS, e.endS - e.startS, "sz", channels, e.confidence, ""});
    if (o.eventsOut.empty()) {
        std::cout << io::formatEventsTsv(table);
        flushStdout();
    } else {
        io::writeEventsTsv(o.eventsOut, table);
        std::fprintf(stderr, "%zu events written to %s\n", det.events.size(), o.eventsOut.c_str());
    }
}

}  // namespace

void addDetectCommand(CLI::App& app) {
    auto o = std::make_shared<DetectOptions>();
    auto* cmd = app.add_subcommand("detect", "build a seizure detector from a study's patterns, save it, apply it to a "
                                             "recording (detections as a BIDS events table)");
    cmd->add_option("--study", o->study, "build from this study (folder or CHB-MIT summary) and its marked seizures");
    addDetectorBuildOptions(*cmd, o->build);
    cmd->add_option("--detector", o->detector, "load a detector file instead of building one")->check(CLI::ExistingFile);
    cmd->add_option("--save", o->save, "write the detector (JSON) to FILE");
    cmd->add_option("--apply", o->apply, "sweep this recording with the detector")->check(CLI::ExistingFile);
    cmd->add_option("--events-out", o->eventsOut, "write the detections to FILE (BIDS events .tsv; default: stdout)");
    addRunOptions(*cmd, o->run);
    addStudyFlags(*cmd, o->studyFlags, true);
    cmd->callback([o] { runDetect(*o); });
}

}  // namespace warplab::cli
