// warplab-window-bench: times the z-normalised window search (issue 11) on generated or real
// references, without file parsing (scripts/bench/window_search.sh times the CLI with the text
// file read). A benchmark, not a test: docs/PERFORMANCE.md quotes its output.
//   --walk N            random-walk reference of N samples (seed 1, double accumulated, float stored)
//   --eeg FILE --signal I --repeat-to N   an EDF channel (physical values) repeated to N samples
//   --noise N           band-limited noise: white Gaussian noise through a resonator at 10 Hz of 256 Hz
//   --query-length m (128), --band-fraction F (0.05), --top k (1), --backend cpu|cuda, --repeats r (3)
// The query is an independent random walk (seed 2) for --walk, else a stretch of the reference
// (from its middle) with Gaussian noise added, excluded from the results as the CLI would.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <edflib.h>

#include "compute/core/error.h"
#include "compute/engine/engine.h"
#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/kernels/window/window_gpu.h"
#endif

using namespace warplab::compute;

namespace {

std::vector<float> walk(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> step(0, 1);
    std::vector<float> v(n);
    double x = 0;
    for (auto& s : v) s = float(x += step(rng));
    return v;
}

std::vector<float> edfChannel(const std::string& path, int signal) {
    edf_hdr_struct hdr{};
    if (edfopen_file_readonly(path.c_str(), &hdr, EDFLIB_DO_NOT_READ_ANNOTATIONS) != 0) {
        std::fprintf(stderr, "%s: cannot open as EDF\n", path.c_str());
        std::exit(2);
    }
    if (signal < 0 || signal >= hdr.edfsignals) {
        std::fprintf(stderr, "%s: signal: no signal %d\n", path.c_str(), signal);
        std::exit(2);
    }
    std::vector<double> buf(std::size_t(hdr.signalparam[signal].smp_in_file));
    edfread_physical_samples(hdr.handle, signal, int(buf.size()), buf.data());
    edfclose_file(hdr.handle);
    return std::vector<float>(buf.begin(), buf.end());
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

}  // namespace

int main(int argc, char** argv) {
    std::size_t walkN = 0, noiseN = 0, repeatTo = 0, m = 128;
    std::string eeg, backend = "cpu";
    int signal = 0, top = 1, repeats = 3;
    double fraction = 0.05;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", a.c_str()); std::exit(2); }
            return argv[++i];
        };
        if (a == "--walk") walkN = std::stoull(next());
        else if (a == "--noise") noiseN = std::stoull(next());
        else if (a == "--eeg") eeg = next();
        else if (a == "--signal") signal = std::stoi(next());
        else if (a == "--repeat-to") repeatTo = std::stoull(next());
        else if (a == "--query-length") m = std::stoull(next());
        else if (a == "--band-fraction") fraction = std::stod(next());
        else if (a == "--top") top = std::stoi(next());
        else if (a == "--backend") backend = next();
        else if (a == "--repeats") repeats = std::stoi(next());
        else { std::fprintf(stderr, "unknown option %s\n", a.c_str()); return 2; }
    }
    const auto g0 = std::chrono::steady_clock::now();
    std::vector<float> y;
    std::string what;
    if (walkN) { y = walk(walkN, 1); what = "random walk"; }
    else if (noiseN) { y = bandNoise(noiseN); what = "band-limited noise (resonator 10 Hz of 256 Hz, r 0.97)"; }
    else if (!eeg.empty()) {
        const auto ch = edfChannel(eeg, signal);
        y.reserve(repeatTo ? repeatTo : ch.size());
        while (y.size() < (repeatTo ? repeatTo : ch.size())) y.push_back(ch[y.size() % ch.size()]);
        what = eeg + " signal " + std::to_string(signal) + " (" + std::to_string(ch.size()) + " samples) repeated";
    } else { std::fprintf(stderr, "give --walk N, --noise N or --eeg FILE\n"); return 2; }
    Series q;
    SearchScope scope;
    if (walkN) {
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
    const double genS = std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
    const int band = int(std::floor(fraction * double(m)));
    std::printf("reference: %s, %zu samples (generated in %.2f s); query %zu, band %d (%.3g), top %d, backend %s\n",
                what.c_str(), y.size(), genS, m, band, fraction, top, backend.c_str());
    Params p;
    p.metric = Metric::Cdtw;
    p.band = band;
    p.topk = top;
    try {
        if (backend == "cpu") {
            Series ref(std::move(y));
            for (int r = 0; r < repeats; ++r) {
                WindowSearchStats st;
                const auto t0 = std::chrono::steady_clock::now();
                auto res = Engine::windowSearch(q, ref, p, RunOptions{}, scope, &st);
                const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                std::printf("cpu run %d: %.4f s; best %.6g at %zu; windows %llu, pruned Kim %.2f %%, Keogh-Q %.2f %%, "
                            "Keogh-W %.2f %%, DTW abandoned %.3f %%, DTW completed %.4f %%\n",
                            r + 1, s, res.empty() ? NAN : res[0].cost, res.empty() ? 0 : res[0].start,
                            (unsigned long long)st.windows, 100.0 * double(st.prunedKim) / double(st.windows),
                            100.0 * double(st.prunedKeoghQuery) / double(st.windows),
                            100.0 * double(st.prunedKeoghWindow) / double(st.windows),
                            100.0 * double(st.abandonedDtw) / double(st.windows),
                            100.0 * double(st.fullDtw) / double(st.windows));
            }
            return 0;
        }
#if WARPLAB_HAVE_GPU
        std::vector<double> qd(q.values.begin(), q.values.end()), qz(m);
        znormWindow(qd.data(), m, qz.data());
        gpu::Stream stream;
        gpu::DeviceBuffer<float> dy;
        const auto u0 = std::chrono::steady_clock::now();
        dy.upload(y.data(), y.size(), stream.get());
        stream.sync();
        const double upS = std::chrono::duration<double>(std::chrono::steady_clock::now() - u0).count();
        std::printf("upload %.3f s (%.1f GB/s, pageable)\n", upS, double(y.size()) * 4 / upS / 1e9);
        WindowSearchParams wp;
        wp.band = band;
        wp.topk = top;
        wp.excludedStarts = scope.excluded;
        for (int r = 0; r < repeats; ++r) {
            WindowSearchStats st;
            gpu::WindowGpuTiming tm;
            auto res = gpu::windowSearchDevice(qz.data(), m, dy.get(), y.size(), wp, &st, &tm);
            std::printf("gpu run %d: %.4f s (bounds %.1f ms, bound B %.1f ms, DTW %.1f ms); survivors %zu of %llu "
                        "(%.4f %%), DTW abandoned %llu; best %.6g at %zu, k-th %.6g\n",
                        r + 1, tm.totalMs / 1e3, tm.boundsMs, tm.selectMs, tm.dtwMs, tm.survivors,
                        (unsigned long long)st.windows, 100.0 * double(tm.survivors) / double(st.windows),
                        (unsigned long long)st.abandonedDtw, res.empty() ? NAN : res[0].cost,
                        res.empty() ? 0 : res[0].start, res.empty() ? NAN : res.back().cost);
        }
        return 0;
#else
        std::fprintf(stderr, "this build has no GPU\n");
        return 2;
#endif
    } catch (const EngineError& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
