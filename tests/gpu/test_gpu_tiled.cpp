// The tiled wavefront kernel (cuda.tiled / hip.tiled, compute/gpu/kernels/tiled/tiled.h) against the scalar
// reference (compute/cpu/reference.h, double precision): dtw (both costs), cdtw (bands 0, 1,
// 16, 600 and wider than the series), softdtw (gamma 1 and 0.1) and twed (with and without
// stiffness and timestamps) on awkward lengths, lengths around the 512 x 512 tile edges,
// series shorter than one tile, unequal pairs, ECG200, a batch of long pairs in one call and a
// 100,000 x 100,000 pair (against cuda.shuffle on the device and cpu.simd through the engine,
// since the reference would need minutes); several channels take the anti-diagonal fallback.
//
// Tolerances: |gpu - ref| <= tol * max(1, |ref|) with tol = 2e-4 up to a few thousand samples
// (fp32 sums of n + m rounded terms, as the other GPU suites) and 1e-3 for the long pairs; the
// measured error is printed on every line. References run on all host cores.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/kernels/tiled/tiled.h"
#include "compute/registry/registry.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// fn(i) for i < count on all host cores.
template <typename F>
void parallelFor(std::size_t count, F fn) {
    const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned(count)));
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            for (std::size_t i; (i = next++) < count;) fn(i);
        });
    for (auto& th : pool) th.join();
}

std::string describe(const Params& p) {
    std::ostringstream s;
    s << metricName(p.metric);
    if (p.metric == Metric::Cdtw) s << " band=" << p.band;
    if (p.metric == Metric::SoftDtw) s << " gamma=" << p.gamma;
    if (p.metric == Metric::Twed) s << " nu=" << p.nu << " lambda=" << p.lambda << " rate=" << p.rate;
    if (p.cost == Cost::Absolute) s << " cost=abs";
    return s.str();
}

// Whether these sets take the tiled path (not the anti-diagonal fallback), and its launches.
std::string pathOf(const SeriesSet& rows, const SeriesSet& cols, const Params& p) {
    gpu::PackedDevice rd, cd;
    gpu::Stream st;
    gpu::PackedHost rh = gpu::packSeries(rows, 0, rows.size(), "rows"), ch = gpu::packSeries(cols, 0, cols.size(), "cols");
    rd.upload(rh, st.get());
    cd.upload(ch, st.get());
    st.sync();
    if (!gpu::tiledApplies(rd, cd, p)) return "anti-diagonal fallback";
    return "tiled, " + std::to_string(gpu::tiledDiagonals(rh.maxLength, ch.maxLength)) + " tile diagonals";
}

// Runs `kernel` on one tile of rows x cols and compares every cell with the reference.
void compareAll(Kernel& kernel, const SeriesSet& rows, const SeriesSet& cols, const Params& p, double tol,
                const std::string& what, bool expectTiled = true) {
    Tile tile{0, rows.size(), 0, cols.size()};
    std::vector<double> out(tile.cells(), std::nan(""));
    const std::string path = pathOf(rows, cols, p);
    const auto t0 = std::chrono::steady_clock::now();
    kernel.computeTile(TileTask{rows, cols, p, tile, false, out.data(), nullptr});
    const double gpuSeconds = seconds(t0);
    std::vector<double> want(out.size());
    parallelFor(out.size(), [&](std::size_t k) {
        want[k] = reference::rawDistance(rows[k / cols.size()], cols[k % cols.size()], p);
    });
    double worst = 0;
    int shown = 0;
    for (std::size_t k = 0; k < out.size(); ++k) {
        const double e = relErr(out[k], want[k]);
        worst = std::max(worst, std::isnan(e) ? INFINITY : e);
        if (!(e <= tol) && shown++ < 6)
            std::printf("  pair (%zu, %zu) %zu x %zu: gpu %.9g reference %.9g\n", k / cols.size(), k % cols.size(),
                        rows[k / cols.size()].length, cols[k % cols.size()].length, out[k], want[k]);
    }
    const bool tiledPath = path.rfind("tiled", 0) == 0;
    std::ostringstream line;
    line << kernel.name() << " " << describe(p) << " " << what << " [" << path << ", " << gpuSeconds << " s]";
    report(worst <= tol && tiledPath == expectTiled, line.str(), worst);
}

std::vector<Params> metricCases() {
    std::vector<Params> cases;
    Params p;
    p.metric = Metric::Dtw;
    cases.push_back(p);
    p.cost = Cost::Absolute;
    cases.push_back(p);
    p.cost = Cost::Squared;
    p.metric = Metric::Cdtw;
    for (int band : {0, 1, 16, 600, 5000}) {  // 5000: wider than every series here
        p.band = band;
        cases.push_back(p);
    }
    p.band = 0;
    p.metric = Metric::SoftDtw;
    for (double g : {1.0, 0.1}) {
        p.gamma = g;
        cases.push_back(p);
    }
    p.cost = Cost::Absolute;
    cases.push_back(p);
    p.cost = Cost::Squared;
    p.gamma = 1;
    p.metric = Metric::Twed;
    for (auto [nu, lambda, rate] : {std::tuple{0.001, 1.0, 0.0}, std::tuple{0.0, 1.0, 0.0},
                                    std::tuple{0.5, 0.3, 173.61}}) {
        p.nu = nu;
        p.lambda = lambda;
        p.rate = rate;
        cases.push_back(p);
    }
    return cases;
}

// Lengths 1 .. 4097 (7 x 7, mostly unequal pairs, series shorter than one tile and a tile edge
// inside the series), then lengths around the tile edges 511 / 512 / 513 / 1024 / 1025.
void testShapes(Kernel& k) {
    std::mt19937 rng(23);
    SeriesSet rows, cols;
    for (std::size_t n : {1, 2, 31, 33, 127, 1000, 4097}) rows.push_back(randomSeries(rng, n));
    for (std::size_t n : {33, 4097, 1, 127, 2, 1000, 31}) cols.push_back(randomSeries(rng, n));
    for (const Params& p : metricCases()) compareAll(k, rows, cols, p, 2e-4, "lengths 1..4097 (7x7)");

    SeriesSet er, ec;
    for (std::size_t n : {511, 512, 513, 1024, 1025, 1537}) er.push_back(randomSeries(rng, n));
    for (std::size_t n : {1, 511, 512, 513, 1100, 2049}) ec.push_back(randomSeries(rng, n));
    for (const Params& p : metricCases()) compareAll(k, er, ec, p, 2e-4, "tile edges 511..1537 x 1..2049 (6x6)");
}

void testEcg200(Kernel& k, const std::string& dataDir) {
    SeriesSet ecg = readUcr(dataDir + "/ucr/ECG200/ECG200_TRAIN.txt");
    if (ecg.size() != 100) {
        report(false, "ECG200_TRAIN.txt readable under " + dataDir + " (100 series)", 0);
        return;
    }
    for (auto& s : ecg) znormalizeInPlace(s);
    for (Params p : metricCases()) {
        if (p.metric == Metric::Cdtw && p.band == 600) p.band = 5;
        compareAll(k, ecg, ecg, p, 2e-4, "ECG200 train 100x100 (z-normalised)");
    }
}

// Several long pairs in one call: a 2 x 2 batch (30000 and 9000 rows, 20000 and 4097
// columns: up to 59 x 40 tiles), a narrow band across 30000 x 29000 (most tiles skipped),
// soft-DTW and TWED on shorter long pairs (their reference is slower).
void testLongBatch(Kernel& k) {
    std::mt19937 rng(29);
    SeriesSet rows{randomSeries(rng, 30000), randomSeries(rng, 9000)};
    SeriesSet cols{randomSeries(rng, 20000), randomSeries(rng, 4097)};
    Params p;
    p.metric = Metric::Dtw;
    compareAll(k, rows, cols, p, 1e-3, "batch 30000,9000 x 20000,4097");

    SeriesSet br{randomSeries(rng, 30000)}, bc{randomSeries(rng, 29000), randomSeries(rng, 30000)};
    p.metric = Metric::Cdtw;
    for (int band : {0, 64}) {
        p.band = band;
        compareAll(k, br, bc, p, 1e-3, "30000 x 29000,30000");
    }

    SeriesSet sr{randomSeries(rng, 6000)}, sc{randomSeries(rng, 5000), randomSeries(rng, 4500)};
    p = Params{};
    p.metric = Metric::SoftDtw;
    compareAll(k, sr, sc, p, 1e-3, "6000 x 5000,4500");
    p.metric = Metric::Twed;
    p.nu = 0.001;
    p.lambda = 1.0;
    compareAll(k, sr, sc, p, 1e-3, "6000 x 5000,4500");
    p.rate = 256;
    compareAll(k, sr, sc, p, 1e-3, "6000 x 5000,4500");
}

// Several channels: the anti-diagonal kernel inside cuda.tiled.
void testMultichannel(Kernel& k) {
    std::mt19937 rng(31);
    SeriesSet rows, cols;
    for (std::size_t n : {7, 600}) rows.emplace_back(randomSeries(rng, 2 * n).values, 2);
    for (std::size_t n : {513, 40}) cols.emplace_back(randomSeries(rng, 2 * n).values, 2);
    for (Metric m : {Metric::Dtw, Metric::Twed}) {
        Params p;
        p.metric = m;
        compareAll(k, rows, cols, p, 2e-4, "2 channels (2x2)", false);
    }
}

// 100,000 x 100,000 (1e10 cells, 196 x 196 tiles): against cuda.shuffle on the device (the same
// fp32 recurrence through a different schedule) and cpu.simd through the engine, which runs
// in the background from the start of the program.
struct LongCpu {
    Series x, y;
    std::future<std::pair<double, double>> value;  // distance, seconds
};

LongCpu startLongCpu() {
    std::mt19937 rng(37);
    LongCpu l{randomSeries(rng, 100000), randomSeries(rng, 100000), {}};
    // The task gets its own copies: `l` is moved on return.
    l.value = std::async(std::launch::async, [x = l.x, y = l.y] {
        const auto t0 = std::chrono::steady_clock::now();
        SeriesSet a{x}, b{y};
        Params p;
        p.metric = Metric::Dtw;
        RunOptions o;
        o.backend = Backend::Cpu;
        o.kernel = "cpu.simd";
        DistanceMatrix dm = Engine::distanceMatrix(a, &b, p, o);
        return std::pair<double, double>{dm.at(0, 0), seconds(t0)};
    });
    return l;
}

void testHundredThousand(Kernel& k, LongCpu& cpu) {
    SeriesSet a{cpu.x}, b{cpu.y};
    Params p;
    p.metric = Metric::Dtw;
    double got = 0, shuffled = 0;
    Tile one{0, 1, 0, 1};
    auto t0 = std::chrono::steady_clock::now();
    k.computeTile(TileTask{a, b, p, one, false, &got, nullptr});
    const double tiledSeconds = seconds(t0);
    std::string shuffleName = k.name().substr(0, k.name().find('.')) + ".shuffle";
    Kernel* sh = KernelRegistry::instance().find(shuffleName);
    double shuffleSeconds = 0;
    if (sh) {
        t0 = std::chrono::steady_clock::now();
        sh->computeTile(TileTask{a, b, p, one, false, &shuffled, nullptr});
        shuffleSeconds = seconds(t0);
        const double e = relErr(got, shuffled);
        std::ostringstream line;
        line << k.name() << " dtw 100000 x 100000 [" << pathOf(a, b, p) << ", " << tiledSeconds << " s] = "
             << got << " vs " << shuffleName << " " << shuffled << " [" << shuffleSeconds << " s]";
        report(e <= 1e-5, line.str(), e);
    }
    auto [want, cpuSeconds] = cpu.value.get();
    const double e = relErr(got, want);
    std::ostringstream line;
    line << k.name() << " dtw 100000 x 100000 = " << got << " vs cpu.simd (engine) " << want << " [" << cpuSeconds
         << " s]";
    report(e <= 1e-3, line.str(), e);
}

}  // namespace

int main(int argc, char** argv) {
    if (!gpu::available()) {
        std::printf("SKIP: tiled GPU suite not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::string dataDir = WARPLAB_TEST_DATA;
    if (argc > 1) dataDir = argv[1];
    std::printf("tiled GPU suite on %s (%d multiprocessors), tiles %d x %d\n", gpu::deviceName().c_str(),
                gpu::multiprocessorCount(), gpu::kTiledRows, gpu::kTiledCols);
    Kernel* k = KernelRegistry::instance().find(std::string(WL_GPU_RUNTIME_NAME) == "HIP" ? "hip.tiled" : "cuda.tiled");
    if (!k) {
        report(false, "kernel cuda.tiled / hip.tiled registered", 0);
        return finish();
    }
    const auto t0 = std::chrono::steady_clock::now();
    LongCpu cpu = startLongCpu();
    try {
        testShapes(*k);
        testEcg200(*k, dataDir);
        testMultichannel(*k);
        testLongBatch(*k);
        testHundredThousand(*k, cpu);
    } catch (const std::exception& e) {
        report(false, std::string("unexpected exception: ") + e.what(), 0);
        if (cpu.value.valid()) cpu.value.wait();
    }
    std::printf("tiled suite: %.1f s\n", seconds(t0));
    return finish();
}
