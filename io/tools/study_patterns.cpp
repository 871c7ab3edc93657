// The published pattern-discovery workload from files on disk (issue 10), timed end to end:
//   warplab-study-patterns SUMMARY [--channel FP1-F7] [--files K] [--backend auto|cpu|gpu]
//                          [--kernel NAME] [--host-epochs] [--pick FIRST:STEP] [--csv PATH] [--top N]
// Exactly what `warplab-cli patterns --study SUMMARY --channel C` computes: io::Study::open
// (the summary and every header, no samples), io::studyPatternRequest (one segment per
// recording, read lazily through the study, that recording's seizures), compute::findPatterns.
// --pick keeps recordings FIRST, FIRST + STEP, ... (0-based, study order), --files the first K.
// Prints one `timing:` line: open, reading (samples through the study; with device epochs the
// recordings are read in parallel into one buffer), epochs (the rest of cutting epochs),
// matrix, ranking, and the whole wall time.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "compute/core/error.h"
#include "compute/engine/engine.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/engine/epoch_matrix.h"
#include "io/io_error.h"
#include "io/study.h"

using namespace warplab;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: warplab-study-patterns SUMMARY [--channel C] [--files K] [--backend auto|cpu|gpu] "
                             "[--kernel K] [--host-epochs] [--csv PATH] [--top N]\n");
        return 2;
    }
    std::string summary = argv[1], channel = "FP1-F7", csv, backend = "auto", kernel;
    int files = 0, top = 5, pickFirst = 0, pickStep = 0;
    bool hostEpochs = false;
    for (int i = 2; i < argc; ++i) {
        const std::string k = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", k.c_str()); std::exit(2); }
            return argv[++i];
        };
        if (k == "--channel") channel = val();
        else if (k == "--files") files = std::atoi(val().c_str());
        else if (k == "--pick") {
            const std::string v = val();
            pickFirst = std::atoi(v.c_str());
            pickStep = v.find(':') == std::string::npos ? 0 : std::atoi(v.c_str() + v.find(':') + 1);
            if (pickStep < 1) { std::fprintf(stderr, "--pick FIRST:STEP, STEP >= 1\n"); return 2; }
        }
        else if (k == "--backend") backend = val();
        else if (k == "--kernel") kernel = val();
        else if (k == "--csv") csv = val();
        else if (k == "--top") top = std::atoi(val().c_str());
        else if (k == "--host-epochs") hostEpochs = true;
        else { std::fprintf(stderr, "warplab-study-patterns: unknown option %s\n", k.c_str()); return 2; }
    }
    try {
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
            ~Join() { if (t.joinable()) t.join(); }
        } join{warm};
        const std::unique_ptr<io::Study> study = io::Study::open(summary);
        const int c = study->findChannel(channel);
        if (c < 0) throw io::IoError(summary, "channel", "the study has no channel " + channel);
        compute::PatternRequest r = io::studyPatternRequest(*study, c);
        if (pickStep > 0 || files > 0) {  // a subset of the recordings, in study order
            std::vector<compute::PatternSegment> kept;
            for (std::size_t k = 0; k < r.segments.size(); ++k)
                if (pickStep == 0 || (int(k) >= pickFirst && (int(k) - pickFirst) % pickStep == 0)) kept.push_back(r.segments[k]);
            if (files > 0 && std::size_t(files) < kept.size()) kept.resize(std::size_t(files));
            r.segments = kept;
        }
        warm.join();
        const double openS = std::chrono::duration<double>(Clock::now() - t0).count();
        r.deviceEpochs = !hostEpochs;
        r.keepMatrixUpToBytes = 0;
        compute::RunOptions o;
        o.backend = backend == "cpu" ? compute::Backend::Cpu : backend == "gpu" ? compute::Backend::Cuda : compute::Backend::Auto;
        o.kernel = kernel;
        const compute::PatternRanking res = compute::findPatterns(r, o);
        const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
        std::printf("timing: %zu files, channel %s, %zu patterns x %zu epochs = %.0f distances, kernel %s%s: "
                    "open %.3f s, reading %.3f s, epochs %.3f s, matrix %.3f s, ranking %.3f s; end to end %.3f s "
                    "(%.0f distances/ms)\n",
                    res.segments.size(), channel.c_str(), res.patternCount, res.epochCount,
                    double(res.patternCount) * double(res.epochCount), res.kernel.c_str(),
                    res.deviceEpochs ? " (device epochs)" : "", openS, res.readSeconds,
                    res.epochSeconds - res.readSeconds, res.engineSeconds, res.rankSeconds, wall,
                    double(res.patternCount) * double(res.epochCount) / (wall * 1e3));
        for (int k = 0; k < top && std::size_t(k) < res.ranked.size(); ++k) {
            const auto& p = res.ranked[std::size_t(k)];
            std::printf("rank %d: pattern %zu, quality %.6f, %s at %.1f s\n", k + 1, p.index, p.quality,
                        res.segments[p.segment].recording.c_str(), p.startS);
        }
        if (!csv.empty()) {
            std::FILE* f = std::fopen(csv.c_str(), "w");
            if (!f) throw io::IoError(csv, "", "cannot write");
            std::fprintf(f, "rank,pattern,quality,mean_ictal,mean_interictal,segment,start_s,clock_s,nearest,"
                            "nearest_segment,nearest_start_s,nearest_distance\n");
            for (std::size_t k = 0; k < res.ranked.size(); ++k) {
                const auto& p = res.ranked[k];
                const compute::NearEpoch n = p.nearest.empty() ? compute::NearEpoch{} : p.nearest[0];
                std::fprintf(f, "%zu,%zu,%.17g,%.17g,%.17g,%zu,%.17g,%.17g,%zu,%zu,%.17g,%.17g\n", k + 1, p.index,
                             p.quality, p.meanIctal, p.meanInterictal, p.segment, p.startS, p.clockS, n.epoch, n.segment,
                             n.startS, n.distance);
            }
            std::fclose(f);
        }
    } catch (const compute::EngineError& e) {  // io::IoError too (kind BadInput)
        std::fprintf(stderr, "warplab-study-patterns: %s\n", e.what());
        return e.kind() == compute::EngineError::Kind::BadInput || e.kind() == compute::EngineError::Kind::BadParameter ? 2 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "warplab-study-patterns: %s\n", e.what());
        return 1;
    }
    return 0;
}
