// GPU tiles in flight on several tile streams (compute/gpu/runtime/tile_streams.h): engine matrices through the
// GPU kernels over many tiles, ragged last tiles, upper-only all-pairs, concurrent computeTile
// calls, packed series cached between tiles (and never across changed inputs), cancellation
// and out-of-memory. Compared with the CPU engine (cpu.simd, fp32; tolerance 2e-4 relative)
// and, where the same GPU kernel runs twice, bit for bit. Exit 1 on a failure, 77 without a device.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "compute/core/error.h"
#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/tile_streams.h"
#include "compute/registry/registry.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

constexpr double kTol = 2e-4;

// The GPU kernel whose name ends in ".<suffix>" (cuda.* or hip.*).
std::string gpuKernel(const std::string& suffix) {
    for (Kernel* k : KernelRegistry::instance().all())
        if ((k->backend() == Backend::Cuda || k->backend() == Backend::Hip) && k->name().size() > suffix.size() &&
            k->name().compare(k->name().size() - suffix.size() - 1, std::string::npos, "." + suffix) == 0)
            return k->name();
    return "";
}

DistanceMatrix onGpu(const std::string& kernel, const SeriesSet& rows, const SeriesSet* cols, const Params& p,
                     const CancelToken* cancel = nullptr) {
    RunOptions o;
    o.kernel = kernel;
    o.cancel = cancel;
    return Engine::distanceMatrix(rows, cols, p, o);
}

DistanceMatrix onCpu(const SeriesSet& rows, const SeriesSet* cols, const Params& p) {
    RunOptions o;
    o.backend = Backend::Cpu;
    return Engine::distanceMatrix(rows, cols, p, o);
}

// Largest relative difference; prints the first cells that differ by more than `tol`.
double compare(const DistanceMatrix& got, const DistanceMatrix& want, double tol, const std::string& what) {
    if (got.rows != want.rows || got.cols != want.cols) {
        std::printf("  %s: shape %zux%zu, expected %zux%zu\n", what.c_str(), got.rows, got.cols, want.rows, want.cols);
        return INFINITY;
    }
    double worst = 0;
    int shown = 0;
    for (std::size_t r = 0; r < got.rows; ++r)
        for (std::size_t c = 0; c < got.cols; ++c) {
            const double e = relErr(got.at(r, c), want.at(r, c));
            if (e > tol && shown < 5) {
                std::printf("  %s: cell (%zu, %zu) = %.9g, expected %.9g\n", what.c_str(), r, c, got.at(r, c), want.at(r, c));
                ++shown;
            }
            worst = std::max(worst, e);
        }
    return worst;
}

bool identical(const DistanceMatrix& a, const DistanceMatrix& b, const std::string& what) {
    if (a.values.size() != b.values.size()) return false;
    for (std::size_t i = 0; i < a.values.size(); ++i)
        if (!(a.values[i] == b.values[i]) && !(std::isinf(a.values[i]) && std::isinf(b.values[i]))) {
            std::printf("  %s: cell %zu differs: %.17g vs %.17g\n", what.c_str(), i, a.values[i], b.values[i]);
            return false;
        }
    return true;
}

SeriesSet randomSet(std::mt19937& rng, std::size_t count, std::size_t length) {
    SeriesSet s;
    for (std::size_t i = 0; i < count; ++i) s.push_back(randomSeries(rng, length));
    return s;
}

// Windows of one random channel, as the pattern workload cuts its epochs (overlapping).
SeriesSet windows(std::mt19937& rng, std::size_t count, std::size_t length, std::size_t stride) {
    const Series channel = randomSeries(rng, (count - 1) * stride + length);
    SeriesSet s;
    for (std::size_t j = 0; j < count; ++j)
        s.emplace_back(std::vector<float>(channel.values.begin() + std::ptrdiff_t(j * stride),
                                          channel.values.begin() + std::ptrdiff_t(j * stride + length)));
    return s;
}

Params dtw() {
    Params p;
    p.metric = Metric::Dtw;
    return p;
}

Params cdtw(int band) {
    Params p;
    p.metric = Metric::Cdtw;
    p.band = band;
    return p;
}

// Many tiles (1100 x 2100: tiles of 1024 with ragged last ones of 76 rows and 52 columns), on
// the kernels the engine picks for dtw and cdtw, with 3 tile streams and with 1 (bit for bit equal).
void testManyTiles() {
    std::mt19937 rng(101);
    const SeriesSet rows = randomSet(rng, 1100, 64), cols = randomSet(rng, 2100, 64);
    struct Case { std::string kernel; Params p; };
    for (const Case& c : {Case{gpuKernel("shuffle"), dtw()}, Case{gpuKernel("band_dpx"), cdtw(16)},
                          Case{gpuKernel("band"), cdtw(3)}, Case{gpuKernel("antidiagonal"), cdtw(20)}}) {
        const std::string what = c.kernel + " " + std::string(metricName(c.p.metric)) + " 1100 x 2100, length 64";
        const DistanceMatrix cpu = onCpu(rows, &cols, c.p);
        gpu::setTileStreamLimit(gpu::kMaxTileStreams);
        const DistanceMatrix many = onGpu(c.kernel, rows, &cols, c.p);
        gpu::setTileStreamLimit(1);
        const DistanceMatrix one = onGpu(c.kernel, rows, &cols, c.p);
        gpu::setTileStreamLimit(gpu::kMaxTileStreams);
        const double e = compare(many, cpu, kTol, what);
        report(e <= kTol, what + " vs cpu", e);
        report(identical(many, one, what), what + ": 3 tile streams == 1 tile stream", 0);
    }
}

// Series of unequal lengths (1..300) in many tiles: offsets into the packed staging buffers.
void testUnequalLengths() {
    std::mt19937 rng(103);
    std::uniform_int_distribution<std::size_t> len(1, 300);
    SeriesSet rows, cols;
    for (int i = 0; i < 1030; ++i) rows.push_back(randomSeries(rng, len(rng)));
    for (int i = 0; i < 1500; ++i) cols.push_back(randomSeries(rng, len(rng)));
    const std::string k = gpuKernel("shuffle");
    const DistanceMatrix got = onGpu(k, rows, &cols, cdtw(8));
    const DistanceMatrix want = onCpu(rows, &cols, cdtw(8));
    const double e = compare(got, want, kTol, k);
    report(e <= kTol, k + " cdtw band 8, 1030 x 1500, lengths 1..300", e);
}

// All pairs of one set: diagonal tiles (upper-only pair list), tiles wholly above the diagonal
// (full pair list) and a ragged last row of tiles; the engine mirrors them.
void testAllPairs() {
    std::mt19937 rng(107);
    const SeriesSet set = randomSet(rng, 2100, 40);
    for (auto [kernel, p] : {std::pair{gpuKernel("shuffle"), dtw()}, std::pair{gpuKernel("band_dpx"), cdtw(16)}}) {
        const std::string what = kernel + " " + std::string(metricName(p.metric)) + " all pairs of 2100, length 40";
        const DistanceMatrix got = onGpu(kernel, set, nullptr, p);
        const DistanceMatrix want = onCpu(set, nullptr, p);
        const double e = compare(got, want, kTol, what);
        bool diagonalZero = true;
        for (std::size_t i = 0; i < got.rows; ++i) diagonalZero = diagonalZero && got.at(i, i) == 0;
        report(e <= kTol && diagonalZero, what + " vs cpu (diagonal 0)", e);
    }
    // A single series of length 1 and two of length 2: the smallest all-pairs jobs.
    for (std::size_t n : {std::size_t(1), std::size_t(2)}) {
        const SeriesSet tiny = randomSet(rng, n, n);
        const DistanceMatrix got = onGpu(gpuKernel("shuffle"), tiny, nullptr, dtw());
        const DistanceMatrix want = onCpu(tiny, nullptr, dtw());
        const double e = compare(got, want, kTol, "tiny");
        report(e <= kTol, gpuKernel("shuffle") + " all pairs of " + std::to_string(n) + " series of length " + std::to_string(n), e);
    }
}

// The pattern shape: a few hundred rows in every tile (cached on each tile stream), epochs cut from
// one channel with overlap, cdtw band 16 on the engine's default cdtw kernel.
void testPatternShape() {
    std::mt19937 rng(109);
    const SeriesSet patterns = windows(rng, 415, 1024, 256);
    const SeriesSet epochs = windows(rng, 3000, 1024, 256);
    RunOptions o;
    o.backend = Backend::Auto;
    const std::string k = Engine::resolveKernel(Metric::Cdtw, o).name();
    const DistanceMatrix got = onGpu(k, patterns, &epochs, cdtw(16));
    const DistanceMatrix want = onCpu(patterns, &epochs, cdtw(16));
    const double e = compare(got, want, kTol, k);
    report(e <= kTol, k + " cdtw band 16, 415 patterns x 3000 epochs of 1024 (stride 256)", e);
}

// Inputs changed in place between calls (same SeriesSet objects, same sizes): a cache keyed
// on the set's address and range alone would return the old distances.
void testChangedInputs() {
    std::mt19937 rng(113);
    SeriesSet rows = randomSet(rng, 300, 128), cols = randomSet(rng, 2500, 128);
    const std::string k = gpuKernel("band_dpx");
    for (bool znorm : {false, true}) {
        Params p = cdtw(16);
        p.znorm = znorm;
        const std::string tag = znorm ? " (znorm)" : "";
        const DistanceMatrix first = onGpu(k, rows, &cols, p);
        const double e1 = compare(first, onCpu(rows, &cols, p), kTol, k);
        report(e1 <= kTol, k + " 300 x 2500 before the change" + tag, e1);
        // New values: the rows scaled and shifted (znorm would hide that: also reverse them),
        // then one column changed in a single sample.
        for (Series& s : rows) {
            std::reverse(s.values.begin(), s.values.end());
            for (float& v : s.values) v = 2.f * v + 1.f;
        }
        cols[1500].values[64] += 3.f;
        const DistanceMatrix second = onGpu(k, rows, &cols, p);
        const DistanceMatrix want = onCpu(rows, &cols, p);
        const double e = compare(second, want, kTol, k + " after change");
        report(e <= kTol, k + " same sets, values changed in place, second call" + tag, e);
        // Only the columns changed: the rows are the same, the changed column must be new.
        cols[7].values[3] -= 5.f;
        const DistanceMatrix third = onGpu(k, rows, &cols, p);
        const double e3 = compare(third, onCpu(rows, &cols, p), kTol, k + " column change");
        report(e3 <= kTol && third.at(0, 7) != second.at(0, 7), k + " one column sample changed, third call" + tag, e3);
    }
    // Direct computeTile without an id (0): nothing may be reused, even on one tile stream.
    Kernel* kernel = KernelRegistry::instance().find(k);
    gpu::setTileStreamLimit(1);
    const Params p = cdtw(16);
    Tile tile{0, 20, 0, 30};
    std::vector<double> a(tile.cells()), b(tile.cells());
    kernel->computeTile(TileTask{rows, cols, p, tile, false, a.data(), nullptr});
    for (float& v : rows[5].values) v += 1.f;
    kernel->computeTile(TileTask{rows, cols, p, tile, false, b.data(), nullptr});
    gpu::setTileStreamLimit(gpu::kMaxTileStreams);
    double worst = 0;
    for (std::size_t c = 0; c < 30; ++c)
        worst = std::max(worst, relErr(b[5 * 30 + c], reference::rawDistance(rows[5], cols[c], p)));
    report(worst <= kTol && a[5 * 30] != b[5 * 30], k + " computeTile without inputsId sees changed rows", worst);
}

// More threads than tile streams call computeTile at once, each on its own sets and engine-like ids,
// several tiles each: every result equals the same tile computed alone.
void testConcurrentCalls() {
    const std::string k = gpuKernel("shuffle");
    Kernel* kernel = KernelRegistry::instance().find(k);
    constexpr int kThreads = 7;
    std::vector<SeriesSet> rows(kThreads), cols(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        std::mt19937 rng(200 + t);
        rows[t] = randomSet(rng, 150 + 10 * t, 33 + t);
        cols[t] = randomSet(rng, 500 + 37 * t, 31 + 2 * t);
    }
    const Params p = dtw();
    auto tileOf = [&](int t, int i) {
        const std::size_t c0 = std::size_t(i) * 128;
        return Tile{0, rows[t].size(), c0, std::min(cols[t].size(), c0 + 128)};
    };
    // Expected: each tile alone, one tile stream, no id.
    gpu::setTileStreamLimit(1);
    std::vector<std::vector<std::vector<double>>> want(kThreads);
    for (int t = 0; t < kThreads; ++t)
        for (int i = 0; i * 128 < int(cols[t].size()); ++i) {
            const Tile tile = tileOf(t, i);
            want[t].emplace_back(tile.cells());
            kernel->computeTile(TileTask{rows[t], cols[t], p, tile, false, want[t].back().data(), nullptr});
        }
    gpu::setTileStreamLimit(gpu::kMaxTileStreams);
    std::atomic<int> mismatches{0};
    std::mutex errMutex;
    std::string error;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            try {
                for (int round = 0; round < 3; ++round)
                    for (std::size_t i = 0; i < want[t].size(); ++i) {
                        const Tile tile = tileOf(t, int(i));
                        std::vector<double> out(tile.cells(), -1.0);
                        TileTask task{rows[t], cols[t], p, tile, false, out.data(), nullptr};
                        task.inputsId = 1000000 + std::uint64_t(t);  // sets of this thread never change
                        kernel->computeTile(task);
                        if (out != want[t][i]) ++mismatches;
                    }
            } catch (const std::exception& e) {
                std::lock_guard lock(errMutex);
                error = e.what();
            }
        });
    for (auto& th : threads) th.join();
    if (!error.empty()) std::printf("  exception: %s\n", error.c_str());
    report(mismatches == 0 && error.empty(),
           k + " 7 threads x 3 rounds of computeTile on 3 tile streams == alone (" + std::to_string(mismatches.load()) +
               " tiles differ)", 0);
}

// Cancel after a few tiles arrived: Cancelled, fewer tiles than the job has, and every tile
// that reached the sink is complete and right. Then the same job runs through.
void testCancel() {
    std::mt19937 rng(127);
    const SeriesSet rows = randomSet(rng, 2048, 256), cols = randomSet(rng, 8192, 256);
    const Params p = cdtw(16);
    const std::string k = gpuKernel("band_dpx");
    CancelToken token;
    RunOptions o;
    o.kernel = k;
    o.cancel = &token;
    std::vector<std::pair<Tile, std::vector<double>>> got;
    bool cancelled = false;
    try {
        Engine::distanceMatrixStreamed(rows, &cols, p, o, [&](const Tile& t, const double* v) {
            got.emplace_back(t, std::vector<double>(v, v + t.cells()));
            if (got.size() == 3) token.cancel();
        });
    } catch (const EngineError& e) {
        cancelled = e.kind() == EngineError::Kind::Cancelled;
    }
    double worst = 0;
    for (const auto& [t, v] : got) {
        SeriesSet r(rows.begin() + std::ptrdiff_t(t.rowBegin), rows.begin() + std::ptrdiff_t(t.rowEnd));
        SeriesSet c(cols.begin() + std::ptrdiff_t(t.colBegin), cols.begin() + std::ptrdiff_t(t.colEnd));
        DistanceMatrix want = onCpu(r, &c, p);
        DistanceMatrix g;
        g.rows = t.rows();
        g.cols = t.cols();
        g.values = v;
        worst = std::max(worst, compare(g, want, kTol, k + " sunk tile"));
    }
    report(cancelled && got.size() >= 3 && got.size() < 16 && worst <= kTol,
           k + " cancelled after 3 of 16 tiles: Cancelled, " + std::to_string(got.size()) + " tiles sunk, all right",
           worst);

    // Cancelled from another thread at an arbitrary moment, then the job again to the end.
    CancelToken late;
    o.cancel = &late;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        late.cancel();
    });
    bool lateOk = true;
    try {
        Engine::distanceMatrixStreamed(rows, &cols, p, o, [&](const Tile&, const double*) {});
    } catch (const EngineError& e) {
        lateOk = e.kind() == EngineError::Kind::Cancelled;
    }
    canceller.join();
    SeriesSet r(rows.begin(), rows.begin() + 100);
    const DistanceMatrix after = onGpu(k, r, &cols, p);
    const double e = compare(after, onCpu(r, &cols, p), kTol, k + " after cancel");
    report(lateOk && e <= kTol, k + " cancelled from another thread; the next job is right", e);
}

// Out of device memory: almost all memory taken, then a tile that needs more than is left.
// The kernel must fail with a Device error (directly and through the engine) and work again
// once the memory is back.
void testOutOfMemory() {
    const std::string k = gpuKernel("shuffle");
    Kernel* kernel = KernelRegistry::instance().find(k);
    std::mt19937 rng(131);
    const SeriesSet rows = randomSet(rng, 1024, 512), cols = randomSet(rng, 1024, 512);
    const Params p = dtw();
    std::vector<gpu::DeviceBuffer<unsigned char>> hog;
    for (std::size_t chunk = std::size_t(1) << 30; chunk >= (std::size_t(1) << 20); chunk /= 4)
        for (;;) {
            try {
                hog.emplace_back(chunk);
            } catch (const EngineError&) {
                break;
            }
        }
    const std::size_t left = gpu::memInfo().first;
    std::printf("  device memory held by the test: %zu buffers, %.1f MiB left free\n", hog.size(), double(left) / (1 << 20));
    auto fails = [&](auto&& fn, const std::string& what) {
        std::string msg;
        bool ok = false;
        try {
            fn();
        } catch (const EngineError& e) {
            msg = e.what();
            ok = e.kind() == EngineError::Kind::Device;
        }
        report(ok, what + " -> Device error (\"" + msg + "\")", 0);
    };
    std::vector<double> out(rows.size() * cols.size());
    fails([&] { kernel->computeTile(TileTask{rows, cols, p, Tile{0, 1024, 0, 1024}, false, out.data(), nullptr}); },
          k + " computeTile 1024 x 1024 with the device full");
    fails([&] { onGpu(k, rows, &cols, p); }, k + " engine 1024 x 1024 with the device full");
    hog.clear();
    SeriesSet r(rows.begin(), rows.begin() + 64);
    const DistanceMatrix got = onGpu(k, r, &cols, p);
    const double e = compare(got, onCpu(r, &cols, p), kTol, k + " after out of memory");
    report(e <= kTol, k + " works again once memory is free (64 x 1024)", e);
}

}  // namespace

int main(int argc, char** argv) {
    (void)argc;
    (void)argv;
    if (!gpu::available()) {
        std::printf("SKIP: GPU streams suite not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::printf("GPU streams suite on %s, %d tile streams\n", gpu::deviceName().c_str(), gpu::tileStreamLimit());
    for (const char* s : {"shuffle", "band", "band_dpx", "antidiagonal"})
        if (gpuKernel(s).empty()) report(false, std::string("no GPU kernel named *.") + s, 0);
    if (failures) return finish();
    auto timed = [](const char* name, auto&& fn) {
        const auto t0 = std::chrono::steady_clock::now();
        try {
            fn();
        } catch (const std::exception& e) {
            report(false, std::string(name) + ": unexpected exception: " + e.what(), 0);
        }
        std::printf("  (%s: %.2f s)\n", name,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    };
    // First, while the tile streams hold little memory, so that the device can be filled around them.
    timed("out of memory", testOutOfMemory);
    timed("many tiles", testManyTiles);
    timed("unequal lengths", testUnequalLengths);
    timed("all pairs", testAllPairs);
    timed("pattern shape", testPatternShape);
    timed("changed inputs", testChangedInputs);
    timed("concurrent calls", testConcurrentCalls);
    timed("cancel", testCancel);
    return finish();
}
