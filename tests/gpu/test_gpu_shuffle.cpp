// The wavefront full-DTW kernels (cuda.shuffle_dpx with the DPX minimum, cuda.shuffle_wave with
// fminf; compute/gpu/kernels/shuffle/shuffle_dpx.h) against the scalar reference: every group width (lengths 1
// to 1024 rows, 1025 takes the fallback), unequal and odd column counts (virtual columns),
// several rounds of pairs per group (the back-to-back pair hand-over, grids capped to one block),
// DPX bit for bit against fminf, cdtw bands through the fallbacks, and upper-only all-pairs
// matrices through the engine. Exit 1 on a failure, 77 without a device.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "compute/core/error.h"
#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/kernels/shuffle/shuffle_dpx.h"
#include "compute/registry/registry.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

constexpr double kTol = 2e-4;

std::vector<Kernel*> waveKernels() {
    std::vector<Kernel*> ks;
    for (Kernel* k : KernelRegistry::instance().all())
        if ((k->backend() == Backend::Cuda || k->backend() == Backend::Hip) &&
            (k->name().find(".shuffle_dpx") != std::string::npos || k->name().find(".shuffle_wave") != std::string::npos))
            ks.push_back(k);
    return ks;
}

std::string describe(const Params& p) {
    std::string s = std::string(metricName(p.metric));
    if (p.metric == Metric::Cdtw) s += " band=" + std::to_string(p.band);
    if (p.cost == Cost::Absolute) s += " cost=abs";
    return s;
}

// Largest relative error of `got` (rows x cols, row-major) against the reference; prints the
// first cells off by more than kTol.
double against(const std::vector<double>& got, const SeriesSet& rows, const SeriesSet& cols, const Params& p,
               const std::string& what) {
    double worst = 0;
    int shown = 0;
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const double want = reference::rawDistance(rows[r], cols[c], p);
            const double e = relErr(got[r * cols.size() + c], want);
            if (e > kTol && shown++ < 5)
                std::printf("  %s: pair (%zu, %zu) lengths %zu x %zu = %.9g, expected %.9g\n", what.c_str(), r, c,
                            rows[r].length, cols[c].length, got[r * cols.size() + c], want);
            worst = std::max(worst, e);
        }
    return worst;
}

std::vector<double> viaKernel(Kernel& k, const SeriesSet& rows, const SeriesSet& cols, const Params& p) {
    Tile tile{0, rows.size(), 0, cols.size()};
    std::vector<double> out(tile.cells(), std::nan(""));
    k.computeTile(TileTask{rows, cols, p, tile, false, out.data(), nullptr});
    return out;
}

struct Uploaded {
    gpu::PackedDevice rows, cols;
};
Uploaded upload(const SeriesSet& rows, const SeriesSet& cols) {
    Uploaded u;
    gpu::Stream st;
    u.rows.upload(gpu::packSeries(rows, 0, rows.size(), "rows"), st.get());
    u.cols.upload(gpu::packSeries(cols, 0, cols.size(), "cols"), st.get());
    st.sync();
    return u;
}

// One launch of the wave kernel itself with the grid capped at `blocks` (0: all resident).
std::vector<double> viaLaunch(const SeriesSet& rows, const SeriesSet& cols, const Params& p, bool dpx, int blocks) {
    Uploaded u = upload(rows, cols);
    gpu::Stream st;
    Tile tile{0, rows.size(), 0, cols.size()};
    gpu::PairList pl = gpu::tilePairs(tile, false);
    gpu::DeviceBuffer<int> pr, pc;
    pr.upload(pl.row.data(), pl.size(), st.get());
    pc.upload(pl.col.data(), pl.size(), st.get());
    gpu::DeviceBuffer<double> out(pl.size());
    gpu::check(gpuMemsetAsync(out.get(), 0xff, pl.size() * sizeof(double), st.get()), "clearing the output");  // NaN
    gpu::DeviceBuffer<float> scratch;
    gpu::PairsView pv{pr.get(), pc.get(), int(pl.size()), int(cols.size()), out.get()};
    gpu::launchWaveDtw(u.rows, u.cols, pv, p, scratch, st.get(), dpx, blocks);
    std::vector<double> host(pl.size());
    out.download(host.data(), host.size(), st.get());
    st.sync();
    return host;
}

SeriesSet randomSet(std::mt19937& rng, std::size_t count, std::size_t n) {
    SeriesSet s;
    for (std::size_t i = 0; i < count; ++i) s.push_back(randomSeries(rng, n));
    return s;
}

// Every group width (G = 1..32 lanes of 32 rows), rows longer or shorter than the columns, odd
// column counts (a virtual first column), through the registered kernels.
void testShapes(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(23);
    const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
        {1, 1},     {2, 2},       {1, 5},       {5, 1},      {2, 3},      {31, 31},     {32, 32},
        {33, 33},   {64, 7},      {127, 127},   {128, 128},  {129, 129},  {100, 130},   {130, 100},
        {257, 300}, {513, 513},   {1000, 1000}, {1024, 1},   {1, 1024},   {1024, 1024}, {1023, 1025},
        {1025, 1025}};
    for (auto [n, m] : shapes) {
        const std::size_t nc = n <= 128 ? 37 : 5;
        SeriesSet rows = randomSet(rng, 3, n), cols = randomSet(rng, nc, m);
        Uploaded u = upload(rows, cols);
        for (Kernel* k : kernels) {
            for (Cost cost : {Cost::Squared, Cost::Absolute}) {
                for (Metric metric : {Metric::Dtw, Metric::Cdtw}) {
                    if (metric == Metric::Cdtw && cost == Cost::Absolute) continue;
                    Params p;
                    p.metric = metric;
                    p.cost = cost;
                    p.band = int(std::max(n, m));  // covers the matrix: full DTW
                    const bool fast = gpu::waveKernelApplies(u.rows, u.cols, p);
                    const std::string what = k->name() + " " + describe(p) + " " + std::to_string(n) + " x " +
                                             std::to_string(m) + " (3x" + std::to_string(nc) + ")" +
                                             (fast ? ", wave path" : ", fallback");
                    const double e = against(viaKernel(*k, rows, cols, p), rows, cols, p, what);
                    report(e <= kTol && fast == (n <= 1024), what, e);
                }
            }
        }
    }
}

// Grids of one to three blocks: each group runs tens of pairs back to back, the warp's groups a
// different number of real pairs in the last round. DPX and fminf must agree bit for bit.
void testRounds() {
    std::mt19937 rng(29);
    const std::vector<std::tuple<std::size_t, std::size_t, std::size_t, std::size_t>> cases = {
        // n, m, rows, cols
        {128, 128, 41, 37}, {127, 129, 41, 37}, {33, 20, 45, 29}, {1, 3, 40, 41}, {1024, 1024, 5, 7},
        {700, 333, 6, 7},   {31, 1, 33, 35}};
    for (auto [n, m, nr, nc] : cases) {
        SeriesSet rows = randomSet(rng, nr, n), cols = randomSet(rng, nc, m);
        for (int blocks : {1, 3, 0}) {
            for (Cost cost : {Cost::Squared, Cost::Absolute}) {
                Params p;
                p.metric = Metric::Dtw;
                p.cost = cost;
                const std::string shape = std::to_string(nr) + "x" + std::to_string(nc) + " pairs of " +
                                          std::to_string(n) + " x " + std::to_string(m) + ", " +
                                          (blocks ? std::to_string(blocks) + " block(s)" : std::string("full grid"));
                std::vector<double> dpx = viaLaunch(rows, cols, p, true, blocks);
                std::vector<double> fmin = viaLaunch(rows, cols, p, false, blocks);
                const double e = against(dpx, rows, cols, p, "dpx " + describe(p) + " " + shape);
                report(e <= kTol, "launchWaveDtw dpx " + describe(p) + " " + shape, e);
                std::size_t differ = 0, first = 0;
                for (std::size_t i = 0; i < dpx.size(); ++i)
                    if (!(dpx[i] == fmin[i])) { if (!differ++) first = i; }
                if (differ)
                    std::printf("  %zu results differ, first %zu: dpx %.17g fminf %.17g\n", differ, first, dpx[first],
                                fmin[first]);
                report(differ == 0, "launchWaveDtw dpx == fminf bit for bit " + describe(p) + " " + shape, 0);
            }
        }
    }
}

// cdtw bands through the registered kernels: narrow bands go to the band kernels, wider ones to
// the shuffle kernel, a band as wide as the series to the wave kernel; lengths down to the
// band's own width.
void testBands(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(31);
    for (std::size_t n : {std::size_t(16), std::size_t(32), std::size_t(128), std::size_t(1000)}) {
        SeriesSet rows = randomSet(rng, 3, n), cols = randomSet(rng, n <= 128 ? 37 : 5, n);
        for (Kernel* k : kernels)
            for (int band : {0, 1, 7, 8, 9, 16, 31, 32, 33, int(n) - 1, int(n)})
                for (Cost cost : {Cost::Squared, Cost::Absolute}) {
                    Params p;
                    p.metric = Metric::Cdtw;
                    p.band = band;
                    p.cost = cost;
                    const std::string what = k->name() + " " + describe(p) + " length " + std::to_string(n);
                    const double e = against(viaKernel(*k, rows, cols, p), rows, cols, p, what);
                    report(e <= kTol, what, e);
                }
    }
}

// Upper-only all-pairs matrices through the engine (tiles crossing the diagonal list only their
// upper pairs; 1100 series make ragged tiles), against the CPU engine.
void testAllPairs(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(37);
    for (auto [count, n] : {std::pair<std::size_t, std::size_t>{150, 128}, {1100, 16}, {40, 1000}}) {
        SeriesSet set = randomSet(rng, count, n);
        Params p;
        p.metric = Metric::Dtw;
        RunOptions cpu;
        cpu.backend = Backend::Cpu;
        const DistanceMatrix want = Engine::distanceMatrix(set, nullptr, p, cpu);
        for (Kernel* k : kernels) {
            RunOptions o;
            o.kernel = k->name();
            const DistanceMatrix got = Engine::distanceMatrix(set, nullptr, p, o);
            double worst = got.values.size() == want.values.size() ? 0 : INFINITY;
            int shown = 0;
            for (std::size_t i = 0; i < got.values.size() && i < want.values.size(); ++i) {
                const double e = relErr(got.values[i], want.values[i]);
                if (e > kTol && shown++ < 5)
                    std::printf("  cell %zu: %.9g, expected %.9g\n", i, got.values[i], want.values[i]);
                worst = std::max(worst, e);
            }
            report(worst <= kTol, k->name() + " all pairs of " + std::to_string(count) + " series of " +
                                      std::to_string(n) + " (upper-only tiles)", worst);
        }
    }
}

}  // namespace

int main() {
    if (!gpu::available()) {
        std::printf("SKIP: no GPU device (%s)\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::printf("device: %s\n", gpu::deviceName().c_str());
    const std::vector<Kernel*> kernels = waveKernels();
    // The DPX variant exists on CUDA only (on AMD it would be shuffle_wave under another name).
#if WL_GPU_HIP
    constexpr std::size_t expected = 1;
#else
    constexpr std::size_t expected = 2;
#endif
    report(kernels.size() == expected, "shuffle_dpx (CUDA) and shuffle_wave are registered", 0);
    try {
        testShapes(kernels);
        testRounds();
        testBands(kernels);
        testAllPairs(kernels);
    } catch (const EngineError& e) {
        report(false, std::string("unexpected error: ") + e.what(), 0);
    }
    return finish();
}
