// `warplab-cli bench rescore`: what the Detection view costs when the user moves the operating
// point or the votes: compute::rescore over a cross-validation kept with its distances
// (compute/detect/crossval.h), for a study of the published shape (42 files, 7 seizures in 7
// of them, 589,823 epochs of 1024 at stride 256, 415 of them ictal). The cache is generated
// (no DTW is run: ictal epochs lie nearer to the patterns than interictal ones, by drawing),
// so the figure is the host's re-deciding and SzCORE scoring alone, as in the view.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "compute/detect/crossval.h"

namespace warplab::cli {

namespace {

struct RescoreBenchOptions {
    int files = 42, seizures = 7;
    long long epochs = 589823, ictal = 415;
    int top = 5, repeats = 50;
    std::string folds = "seizure";
};

compute::CrossvalCache syntheticCache(const RescoreBenchOptions& o) {
    const double rate = 256;
    const int epoch = 1024, stride = 256;
    const long long perFile = o.epochs / o.files;
    const long long ictalPerSeizure = o.ictal / o.seizures;
    std::mt19937_64 rng(7);
    std::normal_distribution<double> ictal(1.0, 0.35), background(2.5, 0.6);
    // Per file: its ictal epochs (a run in the middle of the first `seizures` files).
    struct File { long long epochs, ictalBegin, ictalEnd; };
    std::vector<File> files;
    for (int f = 0; f < o.files; ++f) {
        const long long n = perFile + (f < o.epochs % o.files ? 1 : 0);
        const long long b = f < o.seizures ? n / 2 : 0, e = f < o.seizures ? b + ictalPerSeizure + (f < o.ictal % o.seizures) : 0;
        files.push_back({n, b, e});
    }
    // One set of distances per pattern for the whole study (folds see all but their own file).
    const std::size_t total = std::size_t(o.epochs);
    std::vector<std::vector<double>> dist(std::size_t(o.top), std::vector<double>(total));
    std::vector<unsigned char> isIctal(total, 0);
    std::vector<std::size_t> first(files.size());
    std::size_t at = 0;
    for (std::size_t f = 0; f < files.size(); ++f) {
        first[f] = at;
        for (long long j = files[f].ictalBegin; j < files[f].ictalEnd; ++j) isIctal[at + std::size_t(j)] = 1;
        at += std::size_t(files[f].epochs);
    }
    for (auto& d : dist)
        for (std::size_t j = 0; j < total; ++j) d[j] = std::max(0.0, isIctal[j] ? ictal(rng) : background(rng));
    compute::CrossvalCache cache;
    cache.options.build.top = std::size_t(o.top);
    cache.options.folds = o.folds == "recording" ? compute::CrossvalFolds::Recording : compute::CrossvalFolds::Seizure;
    cache.totalS = double(o.epochs) * stride / rate;
    for (std::size_t f = 0; f < files.size(); ++f) {
        if (cache.options.folds == compute::CrossvalFolds::Seizure && files[f].ictalEnd == 0) continue;
        compute::CachedFold fold;
        fold.recordingIndex = int(f);
        fold.recording = "file" + std::to_string(f) + ".edf";
        fold.durationS = double(files[f].epochs * stride + epoch - stride) / rate;
        if (files[f].ictalEnd > 0)
            fold.seizures.push_back({double(files[f].ictalBegin * stride) / rate, double(files[f].ictalEnd * stride) / rate});
        fold.detector.rateHz = rate;
        fold.detector.epoch = epoch;
        fold.detector.stride = stride;
        const std::size_t b = first[f], e = b + std::size_t(files[f].epochs);
        std::vector<unsigned char> trainIctal;
        trainIctal.reserve(total - (e - b));
        trainIctal.insert(trainIctal.end(), isIctal.begin(), isIctal.begin() + std::ptrdiff_t(b));
        trainIctal.insert(trainIctal.end(), isIctal.begin() + std::ptrdiff_t(e), isIctal.end());
        for (int p = 0; p < o.top; ++p) {
            compute::DetectorPattern dp;
            dp.channel = "FP1-F7";
            dp.samples.assign(std::size_t(epoch), 0.0f);
            fold.detector.patterns.push_back(std::move(dp));
            const auto& d = dist[std::size_t(p)];
            std::vector<double> train;
            train.reserve(trainIctal.size());
            train.insert(train.end(), d.begin(), d.begin() + std::ptrdiff_t(b));
            train.insert(train.end(), d.begin() + std::ptrdiff_t(e), d.end());
            fold.rocs.push_back(compute::trainingRoc(train, trainIctal));
            fold.detection.distances.emplace_back(d.begin() + std::ptrdiff_t(b), d.begin() + std::ptrdiff_t(e));
        }
        cache.folds.push_back(std::move(fold));
    }
    return cache;
}

void runBench(const RescoreBenchOptions& o) {
    const auto b0 = std::chrono::steady_clock::now();
    const compute::CrossvalCache cache = syntheticCache(o);
    const double buildS = std::chrono::duration<double>(std::chrono::steady_clock::now() - b0).count();
    // The settings a user steps through: target rates along the slider, the Youden point, votes.
    std::vector<std::pair<compute::OperatingPoint, int>> settings;
    for (double fpr : {0.0001, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1})
        settings.push_back({{compute::OperatingPoint::Kind::FalsePositiveRate, fpr}, 1});
    settings.push_back({{}, 1});
    for (int v = 2; v <= o.top; ++v) settings.push_back({{}, v});
    std::vector<double> ms;
    long long tp = 0, fp = 0;
    for (int r = 0; r < o.repeats; ++r) {
        const auto& [op, votes] = settings[std::size_t(r) % settings.size()];
        compute::DetectorRule rule;
        rule.votes = votes;
        const auto t0 = std::chrono::steady_clock::now();
        const compute::CrossvalResult res = compute::rescore(cache, op, rule, {}, {});
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        tp += res.event.tp;
        fp += res.event.fp;
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2], p95 = ms[std::min(ms.size() - 1, ms.size() * 95 / 100)], worst = ms.back();
    std::size_t trainEpochs = 0, testEpochs = 0;
    for (const auto& f : cache.folds) {
        trainEpochs += f.rocs.empty() ? 0 : f.rocs.front().distances.size();
        testEpochs += f.detection.distances.empty() ? 0 : f.detection.distances.front().size();
    }
    std::printf("re-scoring a kept cross-validation: %d files, %d seizures, %lld epochs (%lld ictal), %d patterns per fold, "
                "%zu folds (leave-one-%s-out): %zu training and %zu held-out epochs per pattern in all (cache built in %.1f s)\n",
                o.files, o.seizures, o.epochs, o.ictal, o.top, cache.folds.size(), o.folds.c_str(), trainEpochs, testEpochs,
                buildS);
    std::printf("rescore per change (%zu changes over %zu settings): median %.2f ms, p95 %.2f ms, max %.2f ms "
                "(checksum tp %lld fp %lld)\n",
                ms.size(), settings.size(), median, p95, worst, tp, fp);
}

}  // namespace

void addBenchRescoreCommand(CLI::App& bench) {
    auto o = std::make_shared<RescoreBenchOptions>();
    auto* cmd = bench.add_subcommand("rescore", "the Detection view's re-scoring after a change of operating point or votes, "
                                                "on a generated cross-validation of the published shape");
    cmd->add_option("--files", o->files, "recordings of the study")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--seizures", o->seizures, "recordings with one seizure each")->check(CLI::NonNegativeNumber)->capture_default_str();
    cmd->add_option("--epochs", o->epochs, "epochs of the whole study")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--ictal", o->ictal, "ictal epochs, spread over the seizures")->check(CLI::NonNegativeNumber)->capture_default_str();
    cmd->add_option("--top", o->top, "patterns per fold's detector")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--repeats", o->repeats, "changes timed")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--folds", o->folds, "seizure (each recording with a seizure held out) or recording (every recording)")
        ->check(CLI::IsMember({"seizure", "recording"}))
        ->capture_default_str();
    cmd->callback([o] {
        if (o->seizures > o->files || o->seizures < 2 || o->ictal < o->seizures)
            throw CLI::ValidationError("--seizures", "needs 2 <= seizures <= files and at least one ictal epoch per seizure");
        runBench(*o);
    });
}

}  // namespace warplab::cli
