// `warplab-cli bench window`: times the z-normalised window search on a generated or real
// reference held in memory (scripts/bench/window_search.sh times `search --mode window` with the
// file read, as the UCR Suite is timed):
//   --walk N            random-walk reference of N samples (seed 1, double accumulated, float stored)
//   --eeg FILE --signal I --repeat-to N   a recording's channel (physical values) repeated to N samples
//   --noise N           band-limited noise: white Gaussian noise through a resonator at 10 Hz of 256 Hz
//   --query-length m (128), --band-fraction F (0.05), --top k (1), --backend cpu|cuda, --repeats r (3)
// The query is an independent random walk (seed 2) for --walk, else a stretch of the reference
// (from its middle) with Gaussian noise added, excluded from the results as the CLI would.
// CPU runs print the pruning statistics; GPU runs (--backend cuda) the upload and the device
// time of each stage.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "compute/core/error.h"
#include "compute/engine/engine.h"
#include "io/io_error.h"
#include "io/recording.h"
#if WARPLAB_HAVE_GPU
#include "compute/gpu/kernels/window/window_gpu.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#endif

namespace warplab::cli {

namespace {

using namespace compute;

struct WindowBenchOptions {
    std::size_t walk = 0, noise = 0, repeatTo = 0, queryLength = 128;
    std::string eeg, backend = "cpu";
    int signal = 0, top = 1, repeats = 3;
    double bandFraction = 0.05;
};

std::vector<float> walk(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> step(0, 1);
    std::vector<float> v(n);
    double x = 0;
    for (auto& s : v) s = float(x += step(rng));
    return v;
}

std::vector<float> recordingChannel(const std::string& path, int signal) {
    const std::unique_ptr<io::Recording> rec = io::Recording::open(path);
    if (signal < 0 || std::size_t(signal) >= rec->signals().size())
        throw io::IoError(path, "signal", "no signal " + std::to_string(signal) + " (the recording has " +
                                              std::to_string(rec->signals().size()) + ")");
    return rec->read(signal, 0, rec->signals()[std::size_t(signal)].samples);
}

std::vector<float> bandNoise(std::size_t n) {
    // Two-pole resonator: x_t = 2 r cos(theta) x_{t-1} - r^2 x_{t-2} + e_t, r = 0.97, theta = 2 pi 10/256.
    std::mt19937_64 rng(3);
    std::normal_distribution<double> e(0, 1);
    const double r = 0.97, th = 2 * M_PI * 10.0 / 256.0, a1 = 2 * r * std::cos(th), a2 = -r * r;
    std::vector<float> v(n);
    double x1 = 0, x2 = 0;
    for (auto& s : v) {
        const double x = a1 * x1 + a2 * x2 + e(rng);
        x2 = x1;
        x1 = x;
        s = float(x);
    }
    return v;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void runWindowBench(const WindowBenchOptions& o) {
    const std::size_t m = o.queryLength;
    if (o.backend == "cuda") requireGpu("bench window --backend cuda");
    const auto g0 = std::chrono::steady_clock::now();
    std::vector<float> y;
    std::string what;
    if (o.walk) {
        y = walk(o.walk, 1);
        what = "random walk";
    } else if (o.noise) {
        y = bandNoise(o.noise);
        what = "band-limited noise (resonator 10 Hz of 256 Hz, r 0.97)";
    } else if (!o.eeg.empty()) {
        const std::vector<float> ch = recordingChannel(o.eeg, o.signal);
        if (ch.empty()) throw io::IoError(o.eeg, "signal", "signal " + std::to_string(o.signal) + " has no samples");
        const std::size_t n = o.repeatTo ? o.repeatTo : ch.size();
        y.reserve(n);
        while (y.size() < n) y.push_back(ch[y.size() % ch.size()]);
        what = o.eeg + " signal " + std::to_string(o.signal) + " (" + std::to_string(ch.size()) + " samples) repeated";
    } else {
        throw EngineError(EngineError::Kind::BadParameter, "reference", "give --walk N, --noise N or --eeg FILE");
    }
    // The query of a real or noise reference is cut from its second half.
    const std::size_t longest = o.walk ? y.size() : y.size() - y.size() / 2;
    if (m < 2 || m > longest)
        throw EngineError(EngineError::Kind::BadParameter, "--query-length",
                          "needs 2 to " + std::to_string(longest) + " samples for this reference");
    Series q;
    SearchScope scope;
    if (o.walk) {
        q = Series(walk(m, 2));
    } else {
        const std::size_t at = y.size() / 2;
        std::mt19937 rng(4);
        std::normal_distribution<float> e(0, 0.1f);
        std::vector<float> v(y.begin() + long(at), y.begin() + long(at + m));
        float sd = 0;
        for (float x : v) sd += x * x;
        sd = std::sqrt(sd / float(m)) + 1e-6f;
        for (auto& x : v) x += sd * e(rng);
        q = Series(std::move(v));
        scope.excluded = {{at - m / 2, at + m / 2}};
    }
    const double genS = secondsSince(g0);
    const int band = int(std::floor(o.bandFraction * double(m)));
    std::printf("reference: %s, %zu samples (generated in %.2f s); query %zu, band %d (%.3g), top %d, backend %s\n",
                what.c_str(), y.size(), genS, m, band, o.bandFraction, o.top, o.backend.c_str());
    Params p;
    p.metric = Metric::Cdtw;
    p.band = band;
    p.topk = o.top;
    if (o.backend == "cpu") {
        const Series ref(std::move(y));
        for (int r = 0; r < o.repeats; ++r) {
            WindowSearchStats st;
            const auto t0 = std::chrono::steady_clock::now();
            const auto res = Engine::windowSearch(q, ref, p, RunOptions{}, scope, &st);
            const double s = secondsSince(t0);
            const double w = double(st.windows);
            std::printf("cpu run %d: %.4f s; best %.6g at %zu; windows %llu, pruned Kim %.2f %%, Keogh-Q %.2f %%, "
                        "Keogh-W %.2f %%, DTW abandoned %.3f %%, DTW completed %.4f %%\n",
                        r + 1, s, res.empty() ? NAN : res[0].cost, res.empty() ? 0 : res[0].start,
                        (unsigned long long)st.windows, 100.0 * double(st.prunedKim) / w,
                        100.0 * double(st.prunedKeoghQuery) / w, 100.0 * double(st.prunedKeoghWindow) / w,
                        100.0 * double(st.abandonedDtw) / w, 100.0 * double(st.fullDtw) / w);
            std::fflush(stdout);
        }
        return;
    }
#if WARPLAB_HAVE_GPU
    std::vector<double> qd(q.values.begin(), q.values.end()), qz(m);
    znormWindow(qd.data(), m, qz.data());
    gpu::Stream stream;
    gpu::DeviceBuffer<float> dy;
    const auto u0 = std::chrono::steady_clock::now();
    dy.upload(y.data(), y.size(), stream.get());
    stream.sync();
    const double upS = secondsSince(u0);
    std::printf("upload %.3f s (%.1f GB/s, pageable)\n", upS, double(y.size()) * 4 / upS / 1e9);
    WindowSearchParams wp;
    wp.band = band;
    wp.topk = o.top;
    wp.excludedStarts = scope.excluded;
    for (int r = 0; r < o.repeats; ++r) {
        WindowSearchStats st;
        gpu::WindowGpuTiming tm;
        const auto res = gpu::windowSearchDevice(qz.data(), m, dy.get(), y.size(), wp, &st, &tm);
        std::printf("gpu run %d: %.4f s (bounds %.1f ms, bound B %.1f ms, DTW %.1f ms); survivors %zu of %llu "
                    "(%.4f %%), DTW abandoned %llu; best %.6g at %zu, k-th %.6g\n",
                    r + 1, tm.totalMs / 1e3, tm.boundsMs, tm.selectMs, tm.dtwMs, tm.survivors,
                    (unsigned long long)st.windows, 100.0 * double(tm.survivors) / double(st.windows),
                    (unsigned long long)st.abandonedDtw, res.empty() ? NAN : res[0].cost, res.empty() ? 0 : res[0].start,
                    res.empty() ? NAN : res.back().cost);
        std::fflush(stdout);
    }
#endif
}

}  // namespace

void addBenchWindowCommand(CLI::App& bench) {
    auto o = std::make_shared<WindowBenchOptions>();
    auto* cmd = bench.add_subcommand("window", "time the window search on a generated or real reference in memory");
    cmd->add_option("--walk", o->walk, "random-walk reference of N samples");
    cmd->add_option("--noise", o->noise, "band-limited noise reference of N samples (10 Hz resonator at 256 Hz)");
    cmd->add_option("--eeg", o->eeg, "a recording (EDF, BDF, ...) whose channel --signal is the reference");
    cmd->add_option("--signal", o->signal, "--eeg: the channel's index")->capture_default_str();
    cmd->add_option("--repeat-to", o->repeatTo, "--eeg: repeat the channel to this many samples");
    cmd->add_option("--query-length", o->queryLength, "query samples")->capture_default_str();
    cmd->add_option("--band-fraction", o->bandFraction, "cdtw band as a fraction of the query length")->capture_default_str();
    cmd->add_option("--top", o->top, "matches kept")->capture_default_str();
    cmd->add_option("--backend", o->backend, "cpu, or cuda (needs a GPU)")
        ->check(CLI::IsMember({"cpu", "cuda"}))
        ->capture_default_str();
    cmd->add_option("--repeats", o->repeats, "timed runs")->capture_default_str();
    cmd->callback([o] { runWindowBench(*o); });
}

}  // namespace warplab::cli
