// Soft-DTW on the GPU against the scalar reference (double): the forward value of cuda.shuffle
// (base-2 soft-min, 3 MUFU per cell) and the fp32 value + gradient batch
// (softDtwGradientBatch(..., Fp32)), for gamma 1, 0.1, 0.01, both costs, shapes from 1x1 to
// 1024x1024 (one to three stripes, 4/8/16 rows per lane), every kernel shape (rows per lane x
// warps per pair, bit for bit against one warp), a batch of mixed shapes, ECG200 series
// and large-magnitude inputs (exp(-R/gamma) underflows in double: the stable form must not care).
//
// Tolerances: values |gpu - ref| <= 1e-5 * max(1, |ref|); gradients max_i |g_i - ref_i| <=
// 1e-3 * max_i |ref_i|. An fp32 emulation of the same arithmetic on the CPU measured at most
// 9e-7 (values) and 2e-4 (gradients, gamma 0.01, abs cost, 1024x1024).
// On failure each line names the worst pair, its shape and the worst entry.
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/error.h"
#include "compute/cpu/reference.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/kernels/softdtw/softdtw_grad.h"
#include "compute/registry/registry.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

constexpr double kValueTol = 1e-5, kGradTol = 1e-3;

using Shapes = std::vector<std::pair<std::size_t, std::size_t>>;

std::string describe(double gamma, Cost cost) {
    std::ostringstream s;
    s << "gamma=" << gamma << (cost == Cost::Absolute ? " abs" : " sq");
    return s.str();
}

Params softParams(double gamma, Cost cost) {
    Params p;
    p.metric = Metric::SoftDtw;
    p.gamma = gamma;
    p.cost = cost;
    return p;
}

// One fp32 gradient batch against the reference; prints the worst pair on failure.
void checkGradients(const SeriesSet& xs, const SeriesSet& ys, double gamma, Cost cost, const std::string& what,
                    gpu::GradientShape shape = {}) {
    const Params p = softParams(gamma, cost);
    const bool abs = cost == Cost::Absolute;
    gpu::SoftDtwGradients got = gpu::softDtwGradientBatch(xs, ys, p, gpu::GradientPrecision::Fp32, shape);
    double worstValue = 0, worstGrad = 0;
    std::string detail;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const double want = reference::softDtw(xs[i], ys[i], abs, gamma);
        const double ev = relErr(got.values[i], want);
        if (ev > worstValue) {
            worstValue = ev;
            if (ev > kValueTol) {
                std::ostringstream d;
                d << "  value pair " << i << " (" << xs[i].length << "x" << ys[i].length << "): gpu " << got.values[i]
                  << " reference " << want << "\n";
                detail += d.str();
            }
        }
        const std::vector<double> wantG = reference::softDtwGradient(xs[i], ys[i], abs, gamma);
        double scale = 0;
        for (double v : wantG) scale = std::max(scale, std::fabs(v));
        scale = std::max(scale, 1e-30);
        std::size_t worstRow = 0;
        double e = 0;
        for (std::size_t k = 0; k < wantG.size(); ++k) {
            const double ek = std::isfinite(got.gradients[i][k]) ? std::fabs(got.gradients[i][k] - wantG[k]) / scale : INFINITY;
            if (ek > e) { e = ek; worstRow = k; }
        }
        if (e > kGradTol) {
            std::ostringstream d;
            d << "  gradient pair " << i << " (" << xs[i].length << "x" << ys[i].length << "): row " << worstRow
              << " gpu " << got.gradients[i][worstRow] << " reference " << wantG[worstRow] << " (max |ref| " << scale
              << "), rows 0..2 gpu";
            for (std::size_t k = 0; k < std::min<std::size_t>(3, wantG.size()); ++k) d << " " << got.gradients[i][k];
            d << " ref";
            for (std::size_t k = 0; k < std::min<std::size_t>(3, wantG.size()); ++k) d << " " << wantG[k];
            d << "\n";
            detail += d.str();
        }
        worstGrad = std::max(worstGrad, e);
    }
    const bool ok = worstValue <= kValueTol && worstGrad <= kGradTol;
    report(ok, "fp32 gradient " + what + " " + describe(gamma, cost) + " value", worstValue);
    std::printf("     %-70s max_grad_err/max|g|=%.3g\n", "", worstGrad);
    if (!ok) std::printf("%s", detail.c_str());
}

// cuda.shuffle's forward value, one tile of all rows x all cols (unequal pairs) or pairwise.
void checkForward(Kernel& k, const SeriesSet& rows, const SeriesSet& cols, double gamma, Cost cost,
                  const std::string& what) {
    const Params p = softParams(gamma, cost);
    Tile tile{0, rows.size(), 0, cols.size()};
    std::vector<double> out(tile.cells(), std::nan(""));
    k.computeTile(TileTask{rows, cols, p, tile, false, out.data(), nullptr});
    double worst = 0;
    std::string detail;
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const double want = reference::softDtw(rows[r], cols[c], cost == Cost::Absolute, gamma);
            const double e = relErr(out[r * cols.size() + c], want);
            if (e > kValueTol && e > worst) {
                std::ostringstream d;
                d << "  pair (" << r << "," << c << ") " << rows[r].length << "x" << cols[c].length << ": gpu "
                  << out[r * cols.size() + c] << " reference " << want << "\n";
                detail = d.str();
            }
            worst = std::max(worst, e);
        }
    report(worst <= kValueTol, k.name() + " softdtw " + what + " " + describe(gamma, cost), worst);
    if (worst > kValueTol) std::printf("%s", detail.c_str());
}

std::string shapeName(gpu::GradientShape s) {
    return std::to_string(s.rowsPerLane) + " rows x " + std::to_string(s.warpsPerPair) + " warps";
}

// Every shape (rows per lane x warps per pair) against the reference, and the warps of a pair
// against one warp bit for bit: more warps only change when a stripe runs, never what a cell
// computes. (Rows per lane move the lane boundaries, where the compiler may contract a product
// into the next sum differently, so those are held to the reference only.) Shapes with more
// warps than stripes, and several rounds of stripes per warp, are in.
void checkShapes(const SeriesSet& xs, const SeriesSet& ys, double gamma, Cost cost, const std::string& what) {
    const Params p = softParams(gamma, cost);
    for (int rows : {4, 8, 16}) {
        const gpu::GradientShape base{rows, 1};
        const gpu::SoftDtwGradients want = gpu::softDtwGradientBatch(xs, ys, p, gpu::GradientPrecision::Fp32, base);
        checkGradients(xs, ys, gamma, cost, what + " at " + shapeName(base), base);
        for (int warps : {2, 3, 8}) {
            const gpu::GradientShape s{rows, warps};
            const gpu::SoftDtwGradients got = gpu::softDtwGradientBatch(xs, ys, p, gpu::GradientPrecision::Fp32, s);
            std::size_t differ = 0, entries = 0;
            for (std::size_t i = 0; i < xs.size(); ++i) {
                ++entries;
                if (got.values[i] != want.values[i]) ++differ;
                for (std::size_t k = 0; k < want.gradients[i].size(); ++k, ++entries)
                    if (got.gradients[i][k] != want.gradients[i][k]) ++differ;
            }
            report(differ == 0, "fp32 gradient " + what + " " + describe(gamma, cost) + ": " + shapeName(s) + " = " +
                                    shapeName(base) + " bit for bit (" + std::to_string(differ) + " of " +
                                    std::to_string(entries) + " differ)", 0);
        }
    }
}

SeriesSet scaled(const SeriesSet& s, float f) {
    SeriesSet out;
    for (const Series& x : s) {
        std::vector<float> v = x.values;
        for (float& a : v) a *= f;
        out.emplace_back(std::move(v));
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (!gpu::available()) {
        std::printf("SKIP: soft-DTW GPU tests not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::string dataDir = WARPLAB_TEST_DATA;
    if (argc > 1) dataDir = argv[1];
    std::printf("soft-DTW GPU tests on %s\n", gpu::deviceName().c_str());
    try {
        Kernel* shuffle = nullptr;
        for (Kernel* k : KernelRegistry::instance().all())
            if ((k->backend() == Backend::Cuda || k->backend() == Backend::Hip) &&
                k->name().find(".shuffle") != std::string::npos && k->supports(Metric::SoftDtw))
                shuffle = k;
        std::mt19937 rng(23);
        const Shapes shapes = {{1, 1}, {2, 31}, {33, 127}, {100, 90}, {257, 64}, {1000, 1000}, {1024, 1024}};
        SeriesSet xs, ys;
        for (auto [n, m] : shapes) { xs.push_back(randomSeries(rng, n)); ys.push_back(randomSeries(rng, m)); }
        // Extra shapes for the other rows-per-lane choices and three stripes.
        SeriesSet xe, ye;
        for (auto [n, m] : Shapes{{129, 200}, {256, 33}, {1500, 700}}) {
            xe.push_back(randomSeries(rng, n));
            ye.push_back(randomSeries(rng, m));
        }
        for (double gamma : {1.0, 0.1, 0.01}) {
            for (Cost cost : {Cost::Squared, Cost::Absolute}) {
                // Each shape alone (its own rows per lane), then all in one mixed batch.
                for (std::size_t i = 0; i < xs.size(); ++i) {
                    std::ostringstream w;
                    w << shapes[i].first << "x" << shapes[i].second;
                    checkGradients({xs[i]}, {ys[i]}, gamma, cost, w.str());
                    if (shuffle) checkForward(*shuffle, {xs[i]}, {ys[i]}, gamma, cost, w.str());
                }
                checkGradients(xs, ys, gamma, cost, "mixed batch of 7 (1x1 .. 1024x1024)");
                checkGradients(xe, ye, gamma, cost, "129x200, 256x33, 1500x700");
                if (shuffle) {
                    // Small shapes as one tile: every x against every y, mostly unequal lengths.
                    SeriesSet small(xs.begin(), xs.begin() + 5), smallY(ys.begin(), ys.begin() + 5);
                    checkForward(*shuffle, small, smallY, gamma, cost, "5x5 tile 1..257 (unequal)");
                }
            }
        }
        // The fp32 kernels' shapes: 1 to 12 stripes per pair, 1 to 8 warps per pair.
        for (double gamma : {0.1, 0.01}) {
            checkShapes(xe, ye, gamma, Cost::Squared, "129x200, 256x33, 1500x700");
            checkShapes({xs[6]}, {ys[6]}, gamma, Cost::Absolute, "1024x1024");
        }
        for (gpu::GradientShape bad : {gpu::GradientShape{5, 1}, gpu::GradientShape{8, 9}, gpu::GradientShape{8, -1}}) {
            bool refusedShape = false;
            try {
                gpu::softDtwGradientBatch({xs[2]}, {ys[2]}, softParams(1.0, Cost::Squared), gpu::GradientPrecision::Fp32, bad);
            } catch (const EngineError& e) {
                refusedShape = e.isBadInput();
            }
            report(refusedShape, "fp32 gradient refuses " + shapeName(bad) + " with a BadInput error", 0);
        }
        // Large magnitudes: values ~ 1e3, R ~ 1e9, R / gamma ~ 1e11: only the stable form works.
        SeriesSet bx = scaled(SeriesSet(xs.begin() + 2, xs.begin() + 6), 1000.f);
        SeriesSet by = scaled(SeriesSet(ys.begin() + 2, ys.begin() + 6), 1000.f);
        for (double gamma : {1.0, 0.01}) {
            checkGradients(bx, by, gamma, Cost::Squared, "x1000 magnitudes");
            if (shuffle) checkForward(*shuffle, bx, by, gamma, Cost::Squared, "x1000 magnitudes 4x4");
        }
        // ECG200: real heartbeats (length 96), consecutive train series as pairs.
        const SeriesSet ecg = readUcr(dataDir + "/ucr/ECG200/ECG200_TRAIN.txt");
        if (ecg.size() >= 16) {
            SeriesSet ex(ecg.begin(), ecg.begin() + 8), ey(ecg.begin() + 8, ecg.begin() + 16);
            for (double gamma : {1.0, 0.1, 0.01}) {
                checkGradients(ex, ey, gamma, Cost::Squared, "ECG200 8 pairs");
                if (shuffle) checkForward(*shuffle, ex, ey, gamma, Cost::Squared, "ECG200 8x8");
            }
        } else {
            report(false, "ECG200 not found under " + dataDir, 0);
        }
        // Several channels are the fp64 kernel's: the fp32 path says so.
        bool refused = false;
        try {
            SeriesSet mx{Series(std::vector<float>(8, 1.f), 2)}, my{Series(std::vector<float>(8, 0.f), 2)};
            gpu::softDtwGradientBatch(mx, my, softParams(1.0, Cost::Squared), gpu::GradientPrecision::Fp32);
        } catch (const EngineError& e) {
            refused = e.isBadInput();
        }
        report(refused, "fp32 gradient refuses 2 channels with a BadInput error", 0);
        if (!shuffle) report(false, "no GPU shuffle kernel registered", 0);
    } catch (const std::exception& e) {
        report(false, std::string("unexpected exception: ") + e.what(), 0);
    }
    return finish();
}
