// `warplab-cli bench crossval --study FOLDER|SUMMARY`: the cross-validation of the detector
// (compute/detect/crossval.h) both ways on the same study in one process: each fold discovering
// its patterns anew (crossValidatePerFold, one pattern matrix per fold) and every fold read from
// one matrix of the whole study (crossValidateCached, what `crossval` runs). Prints both wall
// times, their ratio and whether the two gave the same detectors, distances and scores.
#include <chrono>
#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/detector_options.h"
#include "app/cli/study_cli.h"
#include "compute/detect/crossval.h"
#include "io/score_json.h"

namespace warplab::cli {

namespace {

struct CrossvalBenchFlags {
    std::string study;
    DetectorBuildFlags build;
    StudyFlags studyFlags;
    RunFlags run;
    std::string folds = "seizure";
    bool skipPerFold = false;
};

// Whether two caches hold the same folds, detectors, training ROCs, held-out distances and scores.
bool same(const compute::CrossvalCache& a, const compute::CrossvalCache& b) {
    if (a.folds.size() != b.folds.size()) return false;
    for (std::size_t k = 0; k < a.folds.size(); ++k) {
        const auto &x = a.folds[k], &y = b.folds[k];
        if (x.recording != y.recording || x.training != y.training || x.detector.patterns.size() != y.detector.patterns.size() ||
            x.rocs.size() != y.rocs.size() || x.detection.distances != y.detection.distances)
            return false;
        for (std::size_t p = 0; p < x.detector.patterns.size(); ++p)
            if (x.detector.patterns[p].samples != y.detector.patterns[p].samples ||
                x.detector.patterns[p].threshold != y.detector.patterns[p].threshold ||
                x.rocs[p].distances != y.rocs[p].distances)
                return false;
    }
    nlohmann::ordered_json ja, jb;
    io::appendCrossvalJson(ja, compute::rescore(a));
    io::appendCrossvalJson(jb, compute::rescore(b));
    return ja == jb;
}

void runBench(const CrossvalBenchFlags& o) {
    compute::CrossvalOptions co;
    co.build = toBuildOptions(o.build);
    co.folds = o.folds == "recording" ? compute::CrossvalFolds::Recording : compute::CrossvalFolds::Seizure;
    auto study = openStudyForCli(o.study, o.studyFlags, "study");
    const auto requests = detectorRequests(*study, o.build);
    const compute::RunOptions run = toRunOptions(o.run, "crossval");
    auto timed = [&](auto&& f) {
        const auto t0 = std::chrono::steady_clock::now();
        compute::CrossvalCache c = f();
        finishProgress();
        return std::pair{std::move(c), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
    };
    // The one matrix first: the recordings' pages are then cold for it and warm for the folds.
    const auto [one, oneS] = timed([&] { return compute::crossValidateCached(requests, co, run); });
    std::printf("cross-validation, %zu channel(s), %zu folds (leave-one-%s-out), %.0f s of recording:\n", requests.size(),
                one.folds.size(), o.folds.c_str(), one.totalS);
    std::printf("one matrix of the whole study: %.2f s (the matrix %.2f s, the folds from it %.2f s)\n", oneS,
                one.matrixSeconds, one.foldSeconds);
    if (o.skipPerFold) return;
    const auto [per, perS] = timed([&] { return compute::crossValidatePerFold(requests, co, run); });
    std::printf("one discovery per fold:        %.2f s (the folds' matrices %.2f s, their sweeps %.2f s)\n", perS,
                per.matrixSeconds, per.foldSeconds);
    std::printf("per fold / one matrix: %.2fx; results %s\n", perS / oneS,
                same(one, per) ? "identical (detectors, training and held-out distances, scores)" : "DIFFER");
}

}  // namespace

void addBenchCrossvalCommand(CLI::App& bench) {
    auto o = std::make_shared<CrossvalBenchFlags>();
    auto* cmd = bench.add_subcommand("crossval", "cross-validation of the detector on a study both ways in one process: "
                                                 "one discovery per fold, and every fold from one matrix of the study");
    cmd->add_option("--study", o->study, "the study (folder or CHB-MIT summary) and its marked seizures")->required();
    addDetectorBuildOptions(*cmd, o->build);
    cmd->add_option("--folds", o->folds, "seizure (each recording with a seizure held out) or recording (every recording)")
        ->check(CLI::IsMember({"seizure", "recording"}))
        ->capture_default_str();
    cmd->add_flag("--skip-per-fold", o->skipPerFold, "time the one-matrix way only");
    addRunOptions(*cmd, o->run);
    addStudyFlags(*cmd, o->studyFlags, true);
    cmd->callback([o] { runBench(*o); });
}

}  // namespace warplab::cli
