// `warplab-cli bench study SUMMARY [--channel FP1-F7] [--files K] [--pick FIRST:STEP]
//   [--backend auto|cpu|gpu] [--kernel NAME] [--host-epochs] [--read-only] [--csv PATH] [--top N]`:
// the pattern-discovery workload from a study's files on disk, timed end to end. Exactly what
// `warplab-cli patterns --study SUMMARY --channel C` computes: io::Study::open (the summary and
// every header, no samples), io::studyPatternRequest (one segment per recording, read lazily
// through the study, that recording's seizures), compute::findPatterns. --pick keeps recordings
// FIRST, FIRST + STEP, ... (0-based, study order), --files the first K. Prints one `timing:`
// line: open, reading (samples through the study; with device epochs the recordings are read in
// parallel into one buffer), epochs (the rest of cutting epochs), matrix, ranking, and the whole
// wall time; then the best --top patterns. --read-only stops after reading the channel into one
// buffer as a GPU run does while its GPUs start (open, reading, input). A study of the published shape: warplab-make-study.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "compute/core/error.h"
#include "compute/engine/engine.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/engine/epoch_matrix.h"
#include "io/io_error.h"
#include "io/study.h"

namespace warplab::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct StudyBenchOptions {
    std::string summary, channel = "FP1-F7", csv, backend = "auto", kernel, pick;
    int files = 0, top = 5;
    bool hostEpochs = false;
    bool readOnly = false;
};

void writeRankingCsv(const std::string& path, const compute::PatternRanking& res) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw io::IoError(path, "", "cannot write");
    std::fprintf(f, "rank,pattern,quality,mean_ictal,mean_interictal,segment,start_s,clock_s,nearest,"
                    "nearest_segment,nearest_start_s,nearest_distance\n");
    for (std::size_t k = 0; k < res.ranked.size(); ++k) {
        const auto& p = res.ranked[k];
        const compute::NearEpoch n = p.nearest.empty() ? compute::NearEpoch{} : p.nearest[0];
        std::fprintf(f, "%zu,%zu,%.17g,%.17g,%.17g,%zu,%.17g,%.17g,%zu,%zu,%.17g,%.17g\n", k + 1, p.index, p.quality,
                     p.meanIctal, p.meanInterictal, p.segment, p.startS, p.clockS, n.epoch, n.segment, n.startS, n.distance);
    }
    if (std::fclose(f) != 0) throw io::IoError(path, "", "write failed (disk full?)");
}

void runStudyBench(const StudyBenchOptions& o) {
    int pickFirst = 0, pickStep = 0;
    if (!o.pick.empty()) {
        if (std::sscanf(o.pick.c_str(), "%d:%d", &pickFirst, &pickStep) != 2 || pickFirst < 0 || pickStep < 1)
            throw compute::EngineError(compute::EngineError::Kind::BadParameter, "--pick",
                                       "'" + o.pick + "' is not FIRST:STEP with FIRST >= 0 and STEP >= 1");
    }
    const auto t0 = Clock::now();
    // The GPU runtime starts (driver, context) while the study opens, as it would in an
    // application that has been open for a while; its time is inside "end to end" either way.
    std::thread warm([] {
        compute::Params p;
        p.metric = compute::Metric::Cdtw;
        p.band = 16;
        (void)compute::gpuEpochMatrixUnavailable("cuda.band_dpx", p);
    });
    struct Join {
        std::thread& t;
        ~Join() {
            if (t.joinable()) t.join();
        }
    } join{warm};
    const std::unique_ptr<io::Study> study = io::Study::open(o.summary);
    const int c = study->findChannel(o.channel);
    if (c < 0) throw io::IoError(o.summary, "channel", "the study has no channel " + o.channel);
    compute::PatternRequest r = io::studyPatternRequest(*study, c);
    if (pickStep > 0 || o.files > 0) {  // a subset of the recordings, in study order
        std::vector<compute::PatternSegment> kept;
        for (std::size_t k = 0; k < r.segments.size(); ++k)
            if (pickStep == 0 || (int(k) >= pickFirst && (int(k) - pickFirst) % pickStep == 0)) kept.push_back(r.segments[k]);
        if (o.files > 0 && std::size_t(o.files) < kept.size()) kept.resize(std::size_t(o.files));
        r.segments = kept;
    }
    warm.join();
    const double openS = std::chrono::duration<double>(Clock::now() - t0).count();
    if (o.readOnly) {  // the input phase alone: what a GPU run reads while the GPUs start
        const auto tRead = Clock::now();
        const compute::LoadedSamples loaded = compute::loadSegments(r);
        const double readS = std::chrono::duration<double>(Clock::now() - tRead).count();
        std::printf("timing: %zu files, channel %s, %lld samples: open %.3f s, reading %.3f s; input %.3f s\n",
                    r.segments.size(), o.channel.c_str(), loaded.count, openS, readS,
                    std::chrono::duration<double>(Clock::now() - t0).count());
        std::fflush(stdout);
        return;
    }
    r.deviceEpochs = !o.hostEpochs;
    r.keepMatrixUpToBytes = 0;
    compute::RunOptions ro;
    ro.backend = o.backend == "cpu"   ? compute::Backend::Cpu
                 : o.backend == "gpu" ? compute::Backend::Cuda
                                      : compute::Backend::Auto;
    ro.kernel = o.kernel;
    const compute::PatternRanking res = compute::findPatterns(r, ro);
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("timing: %zu files, channel %s, %zu patterns x %zu epochs = %.0f distances, kernel %s%s: "
                "open %.3f s, reading %.3f s, epochs %.3f s, matrix %.3f s, ranking %.3f s; end to end %.3f s "
                "(%.0f distances/ms)\n",
                res.segments.size(), o.channel.c_str(), res.patternCount, res.epochCount,
                double(res.patternCount) * double(res.epochCount), res.kernel.c_str(),
                res.deviceEpochs ? " (device epochs)" : "", openS, res.readSeconds, res.epochSeconds - res.readSeconds,
                res.engineSeconds, res.rankSeconds, wall, double(res.patternCount) * double(res.epochCount) / (wall * 1e3));
    for (int k = 0; k < o.top && std::size_t(k) < res.ranked.size(); ++k) {
        const auto& p = res.ranked[std::size_t(k)];
        std::printf("rank %d: pattern %zu, quality %.6f, %s at %.1f s\n", k + 1, p.index, p.quality,
                    res.segments[p.segment].recording.c_str(), p.startS);
    }
    std::fflush(stdout);
    if (!o.csv.empty()) writeRankingCsv(o.csv, res);
}

}  // namespace

void addBenchStudyCommand(CLI::App& bench) {
    auto o = std::make_shared<StudyBenchOptions>();
    auto* cmd = bench.add_subcommand("study", "time pattern discovery over a study's files on disk, end to end");
    cmd->add_option("SUMMARY", o->summary, "the study's summary file (CHB-MIT style, e.g. chb99-summary.txt)")
        ->required();
    cmd->add_option("--channel", o->channel, "the channel patterns are cut from")->capture_default_str();
    cmd->add_option("--files", o->files, "only the first K recordings (after --pick)");
    cmd->add_option("--pick", o->pick, "only recordings FIRST, FIRST + STEP, ... (0-based, study order)")
        ->option_text("FIRST:STEP");
    cmd->add_option("--backend", o->backend, "auto, cpu or gpu")
        ->check(CLI::IsMember({"auto", "cpu", "gpu"}))
        ->capture_default_str();
    cmd->add_option("--kernel", o->kernel, "a registry kernel instead of the chosen one");
    cmd->add_flag("--host-epochs", o->hostEpochs, "cut and pack epochs on the host (the older path) instead of the device");
    cmd->add_flag("--read-only", o->readOnly,
                  "stop after reading the channel (compute::loadSegments, recordings in parallel): the input phase");
    cmd->add_option("--csv", o->csv, "write the whole ranking here");
    cmd->add_option("--top", o->top, "patterns printed")->capture_default_str();
    cmd->callback([o] { runStudyBench(*o); });
}

}  // namespace warplab::cli
