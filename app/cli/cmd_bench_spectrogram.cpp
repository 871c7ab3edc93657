// `warplab-cli bench spectrogram`: the spectrogram under the traces, per redraw, as the view
// asks for it (compute::spectral::SpectrogramCache::window for every channel of the visible
// window). A long recording is scrolled: `--step-s` seconds per redraw (cached frames reused), and
// paged: the window jumps by its own width each redraw (every frame computed anew). The samples
// come from memory: a recording's channels (--recording, each repeated to --hours) or a
// generated EEG-like signal, so the figure is the spectrogram's, not the disk's.
// With --backend, the full-recording spectrogram instead: every channel whole, on the CPU
// (FFTW) or the GPU (cuFFT, spectrogram_device.h), each channel's samples in host memory before
// its clock starts, its frames back in host memory before it stops.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <time.h>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "compute/core/error.h"
#include "compute/spectral/spectrogram.h"
#include "compute/spectral/spectrogram_device.h"
#include "io/recording.h"

namespace warplab::cli {

namespace {

namespace sp = compute::spectral;

struct SpectrogramBenchOptions {
    std::string recording;
    double hours = 24, rate = 256, windowS = 60, stepS = 1;
    int channels = 23, redraws = 300;
    std::size_t nperseg = 256, hop = 128;
    std::string backend;  // set: the full-recording spectrogram on it
};

// Alpha and theta rhythms with drifting amplitude plus a deterministic noise: EEG-like.
float generated(int channel, long long i, double rate) {
    const double t = double(i) / rate;
    std::uint64_t h = std::uint64_t(i) * 0x9E3779B97F4A7C15ull ^ std::uint64_t(channel + 1) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
    const double noise = double(h >> 11) / double(1ull << 53) - 0.5;
    return float(30 * std::sin(2 * M_PI * 10 * t + channel) * (1 + 0.5 * std::sin(t / 7)) + 20 * std::sin(2 * M_PI * 5.5 * t) +
                 40 * noise);
}

struct Stats {
    double median = 0, p95 = 0, worst = 0;
};

Stats stats(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 95 / 100)], v.back()};
}

// The whole recording's spectrogram, channel after channel, on `backend`; for a GPU run the
// first channel is also computed by FFTW and the largest difference printed.
void runFullBench(const SpectrogramBenchOptions& o, const std::vector<std::vector<float>>& real, int channels, double rate) {
    const compute::Backend backend = o.backend == "cpu"    ? compute::Backend::Cpu
                                     : o.backend == "cuda" ? compute::Backend::Cuda
                                     : o.backend == "hip"  ? compute::Backend::Hip
                                                           : compute::Backend::Auto;
    const bool gpu = backend != compute::Backend::Cpu && sp::gpuSpectrogramUnavailable().empty();
    if (backend != compute::Backend::Cpu && backend != compute::Backend::Auto && !gpu)
        throw compute::EngineError(compute::EngineError::Kind::Device, "backend",
                                   "the GPU spectrogram cannot run here: " + sp::gpuSpectrogramUnavailable());
    const long long total = (long long)std::llround(o.hours * 3600 * rate);
    const sp::SpectrogramOptions so{o.nperseg, o.hop, sp::Detrend::Constant, sp::Scaling::Density};
    std::vector<float> x(static_cast<std::size_t>(total));
    std::vector<double> perChannel;
    std::size_t frames = 0, bins = 0;
    double worst = -1;
    for (int c = 0; c < channels; ++c) {
        for (long long i = 0; i < total; ++i)
            x[std::size_t(i)] = real.empty() ? generated(c, i, rate) : real[std::size_t(c)][std::size_t(i % (long long)real[std::size_t(c)].size())];
        if (gpu && c == 0) (void)sp::spectrogramOn(backend, std::span<const float>(x).first(std::min<std::size_t>(x.size(), 4096)), rate, so);  // the context starts outside the clock
        const auto t0 = std::chrono::steady_clock::now();
        const sp::Spectrogram s = sp::spectrogramOn(backend, x, rate, so);
        perChannel.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        frames += s.frames;
        bins = s.bins;
        if (gpu && c == 0) {  // the FFTW reference of the first channel
            const sp::Spectrogram ref = sp::spectrogram(x, rate, so);
            worst = 0;
            for (std::size_t f = 0; f < ref.frames; ++f) {
                double top = 0;
                for (std::size_t b = 0; b < ref.bins; ++b) top = std::max(top, double(ref.at(f, b)));
                for (std::size_t b = 0; b < ref.bins; ++b)
                    if (ref.at(f, b) > 1e-10 * top)
                        worst = std::max(worst, std::fabs(double(s.at(f, b)) - ref.at(f, b)) / double(ref.at(f, b)));
            }
        }
    }
    double sum = 0;
    for (double t : perChannel) sum += t;
    const Stats st = stats(perChannel);
    std::printf("full-recording spectrogram on %s: %d channels x %.3g h at %.6g Hz (%s), nperseg %zu, hop %zu: %zu frames x %zu bins\n",
                gpu ? "the GPU (cuFFT, double)" : "the CPU (FFTW, double, one thread)", channels, o.hours, rate,
                real.empty() ? "generated signal" : o.recording.c_str(), o.nperseg, o.hop, frames, bins);
    std::printf("total %.3f s (samples to host frames, per channel: median %.3f s, max %.3f s); %.3g frames/s\n", sum, st.median,
                st.worst, double(frames) / sum);
    if (worst >= 0) std::printf("channel 0 against FFTW: largest relative difference per bin %.3g\n", worst);
}

void runBench(const SpectrogramBenchOptions& o) {
    std::vector<std::vector<float>> real;
    int channels = o.channels;
    double rate = o.rate;
    if (!o.recording.empty()) {
        auto rec = io::Recording::open(o.recording);
        const auto& sigs = rec->signals();
        channels = std::min<int>(o.channels, int(sigs.size()));
        rate = sigs.front().rateHz;
        for (int c = 0; c < channels; ++c) real.push_back(rec->read(c, 0, sigs[std::size_t(c)].samples));
    }
    if (!o.backend.empty()) return runFullBench(o, real, channels, rate);
    const long long total = (long long)std::llround(o.hours * 3600 * rate);
    const long long window = (long long)std::llround(o.windowS * rate), step = (long long)std::llround(o.stepS * rate);
    if (window <= 0 || step <= 0 || total < window)
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "window-s", "the window must fit the recording");
    const sp::SpectrogramOptions so{o.nperseg, o.hop, sp::Detrend::Constant, sp::Scaling::Density};
    auto readerFor = [&](int c) {
        return [&, c](long long start, long long count) {
            std::vector<float> x(static_cast<std::size_t>(count));
            if (real.empty()) {
                for (long long i = 0; i < count; ++i) x[std::size_t(i)] = generated(c, start + i, rate);
            } else {
                const auto& src = real[std::size_t(c)];
                for (long long i = 0; i < count; ++i) x[std::size_t(i)] = src[std::size_t((start + i) % (long long)src.size())];
            }
            return x;
        };
    };
    // Wall time, and this thread's CPU time: on a shared machine the second shows the work
    // without the time spent waiting for a core.
    auto cpuMs = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
    };
    std::vector<double> scrollCpu, pageCpu;
    std::vector<double>* cpuOut = nullptr;
    auto redraw = [&](sp::SpectrogramCache& cache, long long start) {
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = cpuMs();
        std::size_t frames = 0;
        for (int c = 0; c < channels; ++c)
            frames += cache.window("channel " + std::to_string(c), rate, so, start, start + window, total, readerFor(c)).frames;
        if (frames == 0) throw compute::EngineError(compute::EngineError::Kind::Internal, "bench", "no frame computed");
        if (cpuOut) cpuOut->push_back(cpuMs() - c0);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    std::vector<double> scroll, page;
    {
        sp::SpectrogramCache cache;
        long long start = total / 3;
        redraw(cache, start);  // the first window, as when the recording opens
        cpuOut = &scrollCpu;
        for (int r = 0; r < o.redraws && start + step + window <= total; ++r) scroll.push_back(redraw(cache, start += step));
    }
    {
        sp::SpectrogramCache cache;
        long long start = 0;
        cpuOut = &pageCpu;
        for (int r = 0; r < o.redraws && start + window <= total; ++r, start += window) page.push_back(redraw(cache, start));
    }
    const Stats s = stats(scroll), p = stats(page), sc = stats(scrollCpu), pc = stats(pageCpu);
    std::printf("spectrogram per redraw: %d channels x %.0f s window at %.6g Hz (%s, %.3g h), nperseg %zu, hop %zu\n", channels,
                o.windowS, rate, real.empty() ? "generated signal" : o.recording.c_str(), o.hours, o.nperseg, o.hop);
    std::printf("scroll %.3g s per redraw (%zu redraws, cached frames reused): wall median %.3f ms, p95 %.3f ms, max %.3f ms; "
                "CPU median %.3f ms, p95 %.3f ms\n",
                o.stepS, scroll.size(), s.median, s.p95, s.worst, sc.median, sc.p95);
    std::printf("page %.3g s per redraw (%zu redraws, every frame new): wall median %.3f ms, p95 %.3f ms, max %.3f ms; "
                "CPU median %.3f ms, p95 %.3f ms\n",
                o.windowS, page.size(), p.median, p.p95, p.worst, pc.median, pc.p95);
}

}  // namespace

void addBenchSpectrogramCommand(CLI::App& bench) {
    auto o = std::make_shared<SpectrogramBenchOptions>();
    auto* cmd = bench.add_subcommand("spectrogram", "the view's spectrogram of the visible window per redraw, scrolling and paging");
    cmd->add_option("--recording", o->recording, "EDF/BDF whose channels are repeated to --hours (default: a generated signal)")
        ->check(CLI::ExistingFile);
    cmd->add_option("--hours", o->hours, "length of the recording scrolled")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--channels", o->channels, "channels drawn")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--rate", o->rate, "sampling rate of the generated signal, Hz")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--window-s", o->windowS, "visible window, seconds")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--step-s", o->stepS, "scroll per redraw, seconds")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--redraws", o->redraws, "redraws timed in each mode")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--nperseg", o->nperseg, "samples per frame")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--hop", o->hop, "samples between frames")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--backend", o->backend,
                    "time the full-recording spectrogram (every channel whole) instead, on cpu (FFTW), cuda (cuFFT), "
                    "hip or auto")
        ->check(CLI::IsMember({"auto", "cpu", "cuda", "hip"}));
    cmd->callback([o] { runBench(*o); });
}

}  // namespace warplab::cli
