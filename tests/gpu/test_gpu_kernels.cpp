// The GPU suite: every registered GPU kernel against the scalar reference (compute/cpu/
// reference.h, double precision) on random series of awkward lengths, unequal pairs, bands,
// real ECG200 series, NaN input, a job larger than a tile, the subsequence search and the
// device error path. A plain program (the GPU machine has no Qt): prints one line per check,
// exits 1 on any failure and 77 (CTest SKIP_RETURN_CODE) when no device exists.
//
// Tolerances: |gpu - ref| <= tol * max(1, |ref|), tol = 2e-4 for fp32 accumulation (a sum of
// up to 4097 * 2 rounded terms), 1e-9 for fp64; +inf must match +inf.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "compute/core/error.h"
#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"
#include "compute/gpu/kernels/band/band_cdtw.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/gpu/kernels/softdtw/softdtw_grad.h"
#include "compute/gpu/kernels/twed/twed_warp.h"
#include "compute/registry/registry.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

// The registry suffix after the backend prefix: "band" of cuda.band. Name tests match it
// whole, so that cuda.softdtw.banded is not taken for the band kernel.
std::string suffix(const Kernel& k) { return k.name().substr(k.name().find('.') + 1); }
bool isBandKernel(const Kernel& k) { return suffix(k) == "band" || suffix(k) == "band_dpx"; }

// What `kernel` must return for one pair: the reference of the metric, except for the banded
// soft-DTW design, which computes soft-DTW over Params::band's Sakoe-Chiba cells (its own
// suite, test_gpu_softdtw_designs.cpp, checks it further).
double expected(const Kernel& kernel, const Series& x, const Series& y, const Params& p) {
    if (p.metric == Metric::SoftDtw && suffix(kernel) == "softdtw.banded")
        return reference::softDtw(x, y, p.cost == Cost::Absolute, p.gamma, p.band);
    return reference::rawDistance(x, y, p);
}

// Runs `kernel` on one tile covering rows x cols and compares every cell with the reference.
double compareTile(Kernel& kernel, const SeriesSet& rows, const SeriesSet& cols, const Params& p) {
    Tile tile{0, rows.size(), 0, cols.size()};
    std::vector<double> out(tile.cells(), std::nan(""));
    kernel.computeTile(TileTask{rows, cols, p, tile, false, out.data(), nullptr});
    double worst = 0;
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < cols.size(); ++c)
            worst = std::max(worst, relErr(out[r * cols.size() + c], expected(kernel, rows[r], cols[c], p)));
    return worst;
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


void testAwkwardLengths(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(7);
    const std::vector<std::size_t> lengths = {1, 2, 31, 33, 127, 1000, 4097};
    SeriesSet rows, cols;
    for (std::size_t n : lengths) rows.push_back(randomSeries(rng, n));
    // Columns in another order, so most pairs are unequal in length.
    for (std::size_t n : {33, 4097, 1, 127, 2, 1000, 31}) cols.push_back(randomSeries(rng, std::size_t(n)));

    std::vector<Params> cases;
    Params p;
    p.metric = Metric::Dtw; cases.push_back(p);
    p.cost = Cost::Absolute; cases.push_back(p);
    p.cost = Cost::Squared;
    for (int band : {0, 1, 16, 5000}) { p.metric = Metric::Cdtw; p.band = band; cases.push_back(p); }
    p.band = 0;
    for (double g : {1.0, 0.1}) { p.metric = Metric::SoftDtw; p.gamma = g; cases.push_back(p); }
    p.metric = Metric::Twed; p.nu = 0.001; p.lambda = 1.0; cases.push_back(p);
    p.rate = 173.61; cases.push_back(p);
    p.rate = 0;

    for (Kernel* k : kernels) {
        const double tol = k->name().find("fp64") != std::string::npos ? 1e-9 : 2e-4;
        for (const Params& c : cases) {
            if (!k->supports(c.metric)) continue;
            double e = compareTile(*k, rows, cols, c);
            report(e <= tol, k->name() + " " + describe(c) + " lengths 1..4097 (7x7, unequal)", e);
        }
        // Euclidean needs equal lengths: two sets of 1000 and of 1.
        if (k->supports(Metric::Euclidean)) {
            for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(4097)}) {
                SeriesSet a, b;
                for (int i = 0; i < 5; ++i) { a.push_back(randomSeries(rng, n)); b.push_back(randomSeries(rng, n)); }
                Params e;
                e.metric = Metric::Euclidean;
                double err = compareTile(*k, a, b, e);
                report(err <= tol, k->name() + " euclidean length " + std::to_string(n), err);
            }
        }
    }
}

// Equal lengths: the shuffle kernel's lean steady-state path (full DTW, soft-DTW) and, with a
// band, two pairs per lane on one schedule with an odd number of pairs (the last lane pair is
// half empty); 4097 rows take several stripes.
void testEqualLengths(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(9);
    for (std::size_t n : {std::size_t(1000), std::size_t(4097)}) {
        SeriesSet rows, cols;
        for (int i = 0; i < 3; ++i) rows.push_back(randomSeries(rng, n));
        for (int i = 0; i < 5; ++i) cols.push_back(randomSeries(rng, n));
        std::vector<Params> cases;
        Params p;
        p.metric = Metric::Dtw; cases.push_back(p);
        p.cost = Cost::Absolute; cases.push_back(p);
        p.cost = Cost::Squared;
        p.metric = Metric::Cdtw;
        for (int band : {0, 1, 16, 102}) { p.band = band; cases.push_back(p); }
        p.metric = Metric::SoftDtw;
        p.gamma = 1.0;
        cases.push_back(p);
        for (Kernel* k : kernels) {
            if (k->name().find("shuffle") == std::string::npos && !isBandKernel(*k)) continue;
            for (const Params& c : cases) {
                double e = compareTile(*k, rows, cols, c);
                report(e <= 2e-4, k->name() + " " + describe(c) + " equal lengths " + std::to_string(n) + " (3x5)", e);
            }
        }
    }
}

// The narrow-band kernel (cuda.band): every band it compiles that matters at the edges (0, 1,
// 16, 31, 32) and one over its range (33: the shuffle fallback), equal lengths from 1 to 4097,
// 3 rows x 37 columns (a warp of pairs and a partial one), both costs. Each case first checks
// that the inputs really take the band path (a silent fallback would test the other kernel).
void testBandKernel(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(17);
    for (Kernel* k : kernels) {
        if (!isBandKernel(*k)) continue;
        // 16, 32, 48, 128, 1024: whole 16-row chunks only (band_cdtw_kernel.h), no tail chunk;
        // 16 is a single chunk, 32 a first and a last with nothing between.
        for (std::size_t n : {1, 2, 7, 16, 31, 32, 33, 48, 128, 1000, 1024, 4097}) {
            SeriesSet rows, cols;
            for (int i = 0; i < 3; ++i) rows.push_back(randomSeries(rng, n));
            for (int i = 0; i < 37; ++i) cols.push_back(randomSeries(rng, n));
            gpu::PackedDevice rd, cd;
            {
                gpu::Stream st;
                rd.upload(gpu::packSeries(rows, 0, rows.size(), "rows"), st.get());
                cd.upload(gpu::packSeries(cols, 0, cols.size(), "cols"), st.get());
                st.sync();
            }
            for (int band : {0, 1, 16, 31, 32, 33}) {
                for (Cost cost : {Cost::Squared, Cost::Absolute}) {
                    if (cost == Cost::Absolute && band != 16) continue;
                    Params p;
                    p.metric = Metric::Cdtw;
                    p.band = band;
                    p.cost = cost;
                    const bool fast = gpu::bandKernelApplies(rd, cd, p);
                    double e = compareTile(*k, rows, cols, p);
                    report(e <= 2e-4 && fast == (band <= 32),
                           k->name() + " " + describe(p) + " length " + std::to_string(n) + " (3x37)" +
                               (fast ? ", band path" : ", shuffle fallback"),
                           e);
                }
            }
        }
    }
}

// The register-tiled TWED kernels (cuda.twed, cuda.twed_fp64): rows of one length from 1 to
// 1024 (every lane width: 1 to 32 lanes of 16 rows, 32 lanes of 32 rows), columns of the same
// or another length, with and without stiffness and timestamps; 1025 rows take the anti-
// diagonal fallback. Each case checks which path the inputs take.
void testTwedKernel(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(19);
    const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
        {1, 1}, {2, 2}, {31, 31}, {33, 33}, {127, 127}, {128, 128}, {100, 130}, {513, 513}, {1000, 1000},
        {1024, 700}, {1024, 1024}, {1025, 1025}};
    for (Kernel* k : kernels) {
        if (k->name().find(".twed") == std::string::npos) continue;
        const double tol = k->name().find("fp64") != std::string::npos ? 1e-9 : 2e-4;
        for (auto [n, m] : shapes) {
            SeriesSet rows, cols;
            const int nc = n <= 128 ? 37 : 5;
            for (int i = 0; i < 3; ++i) rows.push_back(randomSeries(rng, n));
            for (int i = 0; i < nc; ++i) cols.push_back(randomSeries(rng, m));
            gpu::PackedDevice rd, cd;
            {
                gpu::Stream st;
                rd.upload(gpu::packSeries(rows, 0, rows.size(), "rows"), st.get());
                cd.upload(gpu::packSeries(cols, 0, cols.size(), "cols"), st.get());
                st.sync();
            }
            Params p;
            p.metric = Metric::Twed;
            for (auto [nu, lambda, rate] : {std::tuple{0.001, 1.0, 0.0}, std::tuple{0.0, 1.0, 0.0},
                                            std::tuple{0.5, 0.3, 173.61}}) {
                p.nu = nu;
                p.lambda = lambda;
                p.rate = rate;
                const bool fast = gpu::twedWarpApplies(rd, cd, p);
                double e = compareTile(*k, rows, cols, p);
                report(e <= tol && fast == (n <= 1024),
                       k->name() + " " + describe(p) + " " + std::to_string(n) + "x" + std::to_string(m) + " (3x" +
                           std::to_string(nc) + ")" + (fast ? ", warp path" : ", anti-diagonal fallback"),
                       e);
            }
        }
    }
}

void testEcg200(const std::vector<Kernel*>& kernels, const std::string& dataDir) {
    SeriesSet ecg = readUcr(dataDir + "/ucr/ECG200/ECG200_TRAIN.txt");
    if (ecg.size() != 100) {
        report(false, "ECG200_TRAIN.txt readable under " + dataDir + " (100 series)", 0);
        return;
    }
    for (auto& s : ecg) znormalizeInPlace(s);
    for (Kernel* k : kernels) {
        const double tol = k->name().find("fp64") != std::string::npos ? 1e-9 : 2e-4;
        for (Metric m : {Metric::Dtw, Metric::Cdtw, Metric::SoftDtw, Metric::Twed, Metric::Euclidean}) {
            if (!k->supports(m)) continue;
            Params p;
            p.metric = m;
            p.band = 5;
            double e = compareTile(*k, ecg, ecg, p);
            report(e <= tol, k->name() + " " + describe(p) + " ECG200 train 100x100 (z-normalised)", e);
        }
        // The band kernel's range on real series (length 96): band 0, 16 and 32 (wider than a third).
        if (isBandKernel(*k)) {
            for (int band : {0, 16, 32}) {
                Params p;
                p.metric = Metric::Cdtw;
                p.band = band;
                double e = compareTile(*k, ecg, ecg, p);
                report(e <= tol, k->name() + " " + describe(p) + " ECG200 train 100x100 (z-normalised)", e);
            }
        }
    }
}

// All pairs of 1100 series through the engine: more than one 1024 x 1024 tile, symmetric
// (upper triangle computed, mirrored by the engine), compared on a sample of cells.
// equalLengths (length 40, band 16): the band kernel's own path through the engine's tiles.
void testLargerThanTile(Kernel& k, bool equalLengths = false) {
    std::mt19937 rng(11);
    SeriesSet set;
    for (int i = 0; i < 1100; ++i) set.push_back(randomSeries(rng, equalLengths ? 40 : 24 + i % 9));
    Params p;
    p.metric = Metric::Cdtw;
    p.band = equalLengths ? 16 : 3;
    RunOptions o;
    o.backend = k.backend();
    o.kernel = k.name();
    DistanceMatrix dm = Engine::distanceMatrix(set, nullptr, p, o);
    double worst = 0;
    std::uniform_int_distribution<std::size_t> pick(0, set.size() - 1);
    for (int s = 0; s < 3000; ++s) {
        std::size_t r = pick(rng), c = pick(rng);
        if (s < 100) { r = 1023 + s % 3; c = 1000 + s; c %= set.size(); }  // across the tile edge
        worst = std::max(worst, relErr(dm.at(r, c), reference::rawDistance(set[r], set[c], p)));
    }
    report(dm.rows == 1100 && worst <= 2e-4,
           k.name() + " engine all-pairs 1100 series (tiles of 1024), 3000 cells" +
               (equalLengths ? ", length 40, band 16" : ""),
           worst);
}

void testNaN(Kernel& k) {
    std::mt19937 rng(3);
    SeriesSet rows{randomSeries(rng, 50), randomSeries(rng, 50)};
    rows[1].values[17] = std::nanf("");
    SeriesSet cols{randomSeries(rng, 50)};
    Params p;
    p.metric = Metric::Dtw;
    std::vector<double> out(2);
    bool ok = false;
    std::string msg;
    try {
        k.computeTile(TileTask{rows, cols, p, Tile{0, 2, 0, 1}, false, out.data(), nullptr});
    } catch (const EngineError& e) {
        msg = e.what();
        ok = e.kind() == EngineError::Kind::BadInput && msg.find("NaN") != std::string::npos &&
             msg.find("rows[1]") != std::string::npos && msg.find("17") != std::string::npos;
    }
    report(ok, k.name() + " NaN input -> BadInput error (\"" + msg + "\")", 0);
}

// Soft-DTW value and gradient (fp64 on the device) against the reference's backward pass.
void testSoftDtwGradient() {
    std::mt19937 rng(13);
    const std::vector<std::pair<std::size_t, std::size_t>> shapes = {{1, 1}, {2, 31}, {33, 127}, {100, 90}, {257, 64}};
    for (double gamma : {1.0, 0.1}) {
        for (Cost cost : {Cost::Squared, Cost::Absolute}) {
            SeriesSet xs, ys;
            for (auto [n, m] : shapes) { xs.push_back(randomSeries(rng, n)); ys.push_back(randomSeries(rng, m)); }
            Params p;
            p.metric = Metric::SoftDtw;
            p.gamma = gamma;
            p.cost = cost;
            gpu::SoftDtwGradients got = gpu::softDtwGradientBatch(xs, ys, p);
            double worst = 0;
            for (std::size_t i = 0; i < xs.size(); ++i) {
                worst = std::max(worst, relErr(got.values[i], reference::softDtw(xs[i], ys[i], cost == Cost::Absolute, gamma)));
                std::vector<double> want = reference::softDtwGradient(xs[i], ys[i], cost == Cost::Absolute, gamma);
                double scale = 1;
                for (double v : want) scale = std::max(scale, std::fabs(v));
                for (std::size_t k = 0; k < want.size(); ++k)
                    worst = std::max(worst, std::fabs(got.gradients[i][k] - want[k]) / scale);
            }
            std::ostringstream what;
            what << "softdtw gradient fp64 gamma=" << gamma << (cost == Cost::Absolute ? " cost=abs" : "")
                 << " 5 pairs (1x1 .. 257x64): value and d/dx";
            report(worst <= 1e-9, what.str(), worst);
        }
    }
    // Two channels: the chain rule per channel.
    SeriesSet xs, ys;
    for (std::size_t n : {7, 40}) {
        Series a = randomSeries(rng, 2 * n), b = randomSeries(rng, 2 * n + 6);
        xs.emplace_back(a.values, 2);
        ys.emplace_back(b.values, 2);
    }
    Params p;
    p.metric = Metric::SoftDtw;
    gpu::SoftDtwGradients got = gpu::softDtwGradientBatch(xs, ys, p);
    double worst = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        std::vector<double> want = reference::softDtwGradient(xs[i], ys[i], false, 1.0);
        for (std::size_t k = 0; k < want.size(); ++k)
            worst = std::max(worst, std::fabs(got.gradients[i][k] - want[k]) / std::max(1.0, std::fabs(want[k])));
    }
    report(worst <= 1e-9, "softdtw gradient fp64, 2 channels", worst);
}

void testOutOfMemory() {
    bool ok = false;
    std::string msg;
    try {
        gpu::DeviceBuffer<float> huge(std::size_t(1) << 42);  // 16 TiB
    } catch (const EngineError& e) {
        msg = e.what();
        ok = e.kind() == EngineError::Kind::Device && msg.find("out of device memory") != std::string::npos;
    }
    report(ok, "device out of memory -> Device error (\"" + msg + "\")", 0);
}

void testSdtw() {
    std::mt19937 rng(5);
    const Series reference = randomSeries(rng, 20000);
    SeriesSet queries;
    for (std::size_t n : {1, 2, 31, 33, 127, 1000, 2000, 4097}) queries.push_back(randomSeries(rng, n));
    for (bool znorm : {false, true}) {
        Params p;
        p.metric = Metric::Sdtw;
        p.topk = 3;
        p.znorm = znorm;
        auto got = gpu::sdtwSearchBatch(queries, reference, p);
        double worst = 0;
        bool positions = true;
        const Series ref = znorm ? znormalized(reference) : reference;
        for (std::size_t q = 0; q < queries.size(); ++q) {
            const Series qs = znorm ? znormalized(queries[q]) : queries[q];
            auto want = reference::sdtwTopK(qs, ref, false, p.topk);
            if (want.size() != got[q].size()) { positions = false; continue; }
            for (std::size_t i = 0; i < want.size(); ++i) {
                worst = std::max(worst, relErr(got[q][i].cost, want[i].cost));
                if (got[q][i].start != want[i].start || got[q][i].end != want[i].end) {
                    positions = false;
                    std::printf("  query %zu match %zu: gpu [%zu,%zu] cost %.6g, reference [%zu,%zu] cost %.6g\n", q, i,
                                got[q][i].start, got[q][i].end, got[q][i].cost, want[i].start, want[i].end, want[i].cost);
                }
            }
        }
        report(positions && worst <= 2e-4,
               std::string("sdtw top-3, 8 queries (1..4097) in 20000") + (znorm ? ", device z-norm" : "") +
                   ": costs, starts and ends",
               worst);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (!gpu::available()) {
        std::printf("SKIP: GPU suite not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::string dataDir = WARPLAB_TEST_DATA;
    if (argc > 1) dataDir = argv[1];
    std::printf("GPU suite on %s (%d multiprocessors)\n", gpu::deviceName().c_str(), gpu::multiprocessorCount());
    std::vector<Kernel*> kernels;
    for (Kernel* k : KernelRegistry::instance().all())
        if (k->backend() == Backend::Cuda || k->backend() == Backend::Hip) kernels.push_back(k);
    std::printf("kernels:");
    for (Kernel* k : kernels) std::printf(" %s", k->name().c_str());
    std::printf("\n");
    try {
        testAwkwardLengths(kernels);
        testEqualLengths(kernels);
        testBandKernel(kernels);
        testTwedKernel(kernels);
        testEcg200(kernels, dataDir);
        for (Kernel* k : kernels) testNaN(*k);
        for (Kernel* k : kernels)
            if (k->supports(Metric::Cdtw)) {
                testLargerThanTile(*k);
                if (isBandKernel(*k)) testLargerThanTile(*k, true);
            }
        testSdtw();
        testSoftDtwGradient();
        testOutOfMemory();
    } catch (const std::exception& e) {
        report(false, std::string("unexpected exception: ") + e.what(), 0);
    }
    return finish();
}
