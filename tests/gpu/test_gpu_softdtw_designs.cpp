// cuTimeWarp's soft-DTW designs as registry kernels (compute/gpu/designs/softdtw_designs.h and the
// cuda.softdtw.tiled alias of cuda.tiled) against the scalar reference (double):
//   - registry: all five registered under the backend's prefix, softdtw only, a one-line
//     description naming cuTimeWarp, priority below every other GPU kernel (never the default);
//     these checks run (and can fail) without a device, then the program skips;
//   - random walks of lengths 1, 2, 31, 32, 33, 127, 128, 500, 1024 as one 9 x 9 tile (equal and
//     unequal pairs), gamma 0.01, 0.1, 1, both costs;
//   - pairs too long for the stencil's shared memory (its Diagonal fallback, checked to happen);
//   - a tile of 600 x 600 short pairs (two launches of the runner) and the engine's all-pairs
//     path over more than one 1024 x 1024 tile (symmetric: the upper-triangle pair lists);
//   - ECG200 (real heartbeats, z-normalised), 100 x 100;
//   - the banded design against the reference's banded soft-DTW (cells outside METRICS.md's
//     Sakoe-Chiba band +inf) for bands 0, 1, 16 and >= the length (then equal to soft-DTW),
//     in shared memory and in the Diagonal fallback;
//   - NaN input refused naming the series and sample, another metric refused, and a pair whose
//     global matrix cannot fit refused with a Device error (the device still works after).
//
// Tolerance: |gpu - ref| <= 1e-4 * max(1, |ref|) up to 1024 samples, 2e-4 for the pairs of 2600
// to 4097 (as test_gpu_kernels.cpp). The kernels add up to n + m + 1 fp32 terms along a path,
// each rounding by at most 2^-24 of the running value (at 1024 x 1024 a worst case of 1.2e-4,
// of random sign in practice: about sqrt(2049) * 6e-8 = 3e-6), and the soft-min's
// hardware exp2 / log2 (2^-22 relative) add about 1e-7 * gamma per cell; 1e-4 is far above
// what that gives, and a wrong neighbour or band edge on random walks moves a value by orders of
// magnitude more. Every PASS line prints the error measured.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compute/core/error.h"
#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/designs/softdtw_designs.h"
#include "compute/registry/registry.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

constexpr double kTol = 1e-4;
constexpr double kLongTol = 2e-4;  // pairs of 2600 to 4097 samples, as test_gpu_kernels.cpp up to 4097
const std::vector<std::string> kDesigns = {"softdtw.naive", "softdtw.diagonal", "softdtw.stencil", "softdtw.banded",
                                           "softdtw.tiled"};

std::string prefix() { return std::string(WL_GPU_RUNTIME_NAME) == "HIP" ? "hip." : "cuda."; }
bool isBanded(const Kernel& k) { return k.name() == prefix() + "softdtw.banded"; }

Params softParams(double gamma, Cost cost = Cost::Squared, int band = 0) {
    Params p;
    p.metric = Metric::SoftDtw;
    p.gamma = gamma;
    p.cost = cost;
    p.band = band;
    return p;
}

std::string describe(const Params& p, bool banded) {
    std::ostringstream s;
    s << "gamma=" << p.gamma << (p.cost == Cost::Absolute ? " abs" : " sq");
    if (banded) s << " band=" << p.band;
    return s.str();
}

// The value each kernel must give: soft-DTW, or for the banded design soft-DTW over the band.
double expected(const Kernel& k, const Series& x, const Series& y, const Params& p) {
    return reference::softDtw(x, y, p.cost == Cost::Absolute, p.gamma, isBanded(k) ? long(p.band) : -1L);
}

// One tile of rows x cols through computeTile against `want` (row-major, rows x cols); prints
// the worst pair on failure.
void checkTile(Kernel& k, const SeriesSet& rows, const SeriesSet& cols, const Params& p,
               const std::vector<double>& want, const std::string& what, double tol = kTol) {
    Tile tile{0, rows.size(), 0, cols.size()};
    std::vector<double> out(tile.cells(), std::nan(""));
    k.computeTile(TileTask{rows, cols, p, tile, false, out.data(), nullptr});
    double worst = 0;
    std::string detail;
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const std::size_t i = r * cols.size() + c;
            const double e = relErr(out[i], want[i]);
            if (e > worst) {
                worst = e;
                std::ostringstream d;
                d << "  worst pair (" << r << "," << c << ") " << rows[r].length << "x" << cols[c].length << ": gpu "
                  << out[i] << " reference " << want[i] << "\n";
                detail = d.str();
            }
        }
    report(worst <= tol, k.name() + " " + what, worst);
    if (worst > tol) std::printf("%s", detail.c_str());
}

std::vector<double> referenceTile(const Kernel& k, const SeriesSet& rows, const SeriesSet& cols, const Params& p) {
    std::vector<double> want(rows.size() * cols.size());
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < cols.size(); ++c) want[r * cols.size() + c] = expected(k, rows[r], cols[c], p);
    return want;
}

// FNV-1a over every sample of both sets: the reference cache's key names the inputs themselves.
std::uint64_t fingerprint(const SeriesSet& rows, const SeriesSet& cols) {
    std::uint64_t h = 1469598103934665603ull;
    for (const SeriesSet* set : {&rows, &cols})
        for (const Series& x : *set) {
            h = (h ^ x.values.size()) * 1099511628211ull;
            for (float v : x.values) {
                std::uint32_t bits;
                std::memcpy(&bits, &v, sizeof bits);
                h = (h ^ bits) * 1099511628211ull;
            }
        }
    return h;
}

// The reference is the slow part (ECG200: 92 million double cells per case): computed once
// per inputs, parameters and banded-or-not, shared by the kernels.
void checkAgainstReference(Kernel& k, const SeriesSet& rows, const SeriesSet& cols, const Params& p,
                           const std::string& what, double tol = kTol) {
    static std::map<std::string, std::vector<double>> cache;
    const std::string key = std::to_string(fingerprint(rows, cols)) + " " + describe(p, true) +
                            (isBanded(k) ? " banded" : " plain");
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, referenceTile(k, rows, cols, p)).first;
    checkTile(k, rows, cols, p, it->second, describe(p, isBanded(k)) + " " + what, tol);
}

// Registry entries: checked with or without a device.
void testRegistry() {
    std::vector<Kernel*> designs;
    for (const std::string& name : kDesigns) {
        Kernel* k = KernelRegistry::instance().find(prefix() + name);
        report(k != nullptr, prefix() + name + " is registered", 0);
        if (!k) continue;
        designs.push_back(k);
        bool onlySoft = true;
        for (Metric m : allMetrics()) onlySoft = onlySoft && (k->supports(m) == (m == Metric::SoftDtw));
        report(onlySoft, k->name() + " supports softdtw and nothing else", 0);
        const std::string d = k->description();
        report(d.rfind("cuTimeWarp's ", 0) == 0 && d.find('\n') == std::string::npos && d.size() < 160,
               k->name() + " describes itself in one line naming cuTimeWarp (\"" + d + "\")", 0);
        report(k->backend() == Backend::Cuda || k->backend() == Backend::Hip, k->name() + " is a GPU kernel", 0);
    }
    // Below every other GPU kernel of their metric, so that the engine never picks one unless named.
    auto ranksBelow = [](const std::vector<Kernel*>& ds, Metric metric, const std::string& what) {
        int lowestOther = 1 << 30, highestDesign = -(1 << 30);
        for (Kernel* k : KernelRegistry::instance().all()) {
            if ((k->backend() != Backend::Cuda && k->backend() != Backend::Hip) || !k->supports(metric)) continue;
            const bool design = std::find(ds.begin(), ds.end(), k) != ds.end();
            if (design) highestDesign = std::max(highestDesign, k->priority());
            else lowestOther = std::min(lowestOther, k->priority());
        }
        report(highestDesign < lowestOther,
               what + ": below every other GPU kernel of " + std::string(metricName(metric)) + " (" +
                   std::to_string(highestDesign) + " < " + std::to_string(lowestOther) + ")",
               0);
    };
    ranksBelow(designs, Metric::SoftDtw, "cuTimeWarp designs");
    // cuTWED's layout (the antidiagonal kernel under the paper's name): twed only, below the rest.
    Kernel* cutwed = KernelRegistry::instance().find(prefix() + "twed.diagonals");
    report(cutwed != nullptr, prefix() + "twed.diagonals is registered", 0);
    if (!cutwed) return;
    bool onlyTwed = true;
    for (Metric m : allMetrics()) onlyTwed = onlyTwed && (cutwed->supports(m) == (m == Metric::Twed));
    report(onlyTwed, cutwed->name() + " supports twed and nothing else", 0);
    report(cutwed->description().rfind("cuTWED's ", 0) == 0, cutwed->name() + " names cuTWED (\"" + cutwed->description() + "\")", 0);
    ranksBelow({cutwed}, Metric::Twed, "cuTWED's layout");
}

// 9 lengths from 1 to 1024 on both sides: 81 pairs, 72 of unequal length.
void testRandom(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(29);
    const std::vector<std::size_t> lengths = {1, 2, 31, 32, 33, 127, 128, 500, 1024};
    SeriesSet rows, cols;
    for (std::size_t n : lengths) rows.push_back(randomSeries(rng, n));
    for (std::size_t i = 0; i < lengths.size(); ++i) cols.push_back(randomSeries(rng, lengths[(i * 4 + 3) % 9]));
    for (Kernel* k : kernels) {
        for (double gamma : {0.01, 0.1, 1.0})
            checkAgainstReference(*k, rows, cols, softParams(gamma), "9x9 tile, lengths 1..1024");
        checkAgainstReference(*k, rows, cols, softParams(0.1, Cost::Absolute), "9x9 tile, lengths 1..1024");
    }
}

// Longer than the stencil's shared memory holds: Stencil and Banded take Diagonal.
void testLong(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(31);
    SeriesSet rows{randomSeries(rng, 3000), randomSeries(rng, 4097)}, cols{randomSeries(rng, 2999), randomSeries(rng, 100)};
    gpu::PackedDevice rd, cd;
    {
        gpu::Stream st;
        rd.upload(gpu::packSeries(rows, 0, rows.size(), "rows"), st.get());
        cd.upload(gpu::packSeries(cols, 0, cols.size(), "cols"), st.get());
        st.sync();
    }
    report(!gpu::softDtwStencilFits(rd, cd), "pairs of 3000..4097 do not fit the stencil's shared memory", 0);
    for (Kernel* k : kernels)
        for (double gamma : {0.01, 1.0})
            checkAgainstReference(*k, rows, cols, softParams(gamma, Cost::Squared, 16), "2x2, 100..4097 (no stencil)",
                                  kLongTol);
}

// 360000 short pairs in one tile: more than the runner's 2^18 pairs per launch.
void testManyPairs(const std::vector<Kernel*>& kernels) {
    std::mt19937 rng(37);
    SeriesSet rows, cols;
    for (int i = 0; i < 600; ++i) rows.push_back(randomSeries(rng, 8 + i % 9));
    for (int i = 0; i < 600; ++i) cols.push_back(randomSeries(rng, 5 + i % 13));
    const Params p = softParams(0.1, Cost::Squared, 2);
    std::vector<double> plain, banded;
    for (Kernel* k : kernels) {
        std::vector<double>& want = isBanded(*k) ? banded : plain;
        if (want.empty()) want = referenceTile(*k, rows, cols, p);
        checkTile(*k, rows, cols, p, want, describe(p, isBanded(*k)) + " 600x600 tile (two launches), lengths 5..17");
    }
}

// The engine's path: all pairs of 1100 series, tiles of 1024, upper triangle mirrored.
void testEngine(Kernel& k) {
    std::mt19937 rng(41);
    SeriesSet set;
    for (int i = 0; i < 1100; ++i) set.push_back(randomSeries(rng, 24 + i % 9));
    const Params p = softParams(1.0, Cost::Squared, 3);
    RunOptions o;
    o.backend = k.backend();
    o.kernel = k.name();
    DistanceMatrix dm = Engine::distanceMatrix(set, nullptr, p, o);
    double worst = 0;
    std::uniform_int_distribution<std::size_t> pick(0, set.size() - 1);
    for (int s = 0; s < 3000; ++s) {
        std::size_t r = pick(rng), c = pick(rng);
        if (s < 100) { r = 1023 + s % 3; c = (1000 + s) % set.size(); }  // across the tile edge
        worst = std::max(worst, relErr(dm.at(r, c), expected(k, set[r], set[c], p)));
    }
    report(dm.rows == 1100 && worst <= kTol,
           k.name() + " " + describe(p, isBanded(k)) + " engine all-pairs 1100 series, 3000 cells", worst);
}

void testEcg200(const std::vector<Kernel*>& kernels, const std::string& dataDir) {
    SeriesSet ecg = readUcr(dataDir + "/ucr/ECG200/ECG200_TRAIN.txt");
    if (ecg.size() != 100) {
        report(false, "ECG200_TRAIN.txt readable under " + dataDir + " (100 series)", 0);
        return;
    }
    for (auto& s : ecg) znormalizeInPlace(s);
    for (Kernel* k : kernels)
        for (double gamma : {0.01, 0.1, 1.0})
            checkAgainstReference(*k, ecg, ecg, softParams(gamma, Cost::Squared, 5), "ECG200 train 100x100 (z-normalised)");
}

// The banded design over bands 0, 1, 16 and wider than every series; the widest must equal
// soft-DTW itself. Lengths up to 1024 run in shared memory, the long ones in the fallback.
void testBands(Kernel& banded) {
    std::mt19937 rng(43);
    const std::vector<std::size_t> lengths = {1, 2, 31, 32, 33, 127, 128, 500, 1024};
    SeriesSet rows, cols;
    for (std::size_t n : lengths) rows.push_back(randomSeries(rng, n));
    for (std::size_t i = 0; i < lengths.size(); ++i) cols.push_back(randomSeries(rng, lengths[(i * 5 + 2) % 9]));
    SeriesSet longRows{randomSeries(rng, 2600), randomSeries(rng, 3001)}, longCols{randomSeries(rng, 2600)};
    for (int band : {0, 1, 16, 1024, 5000}) {
        for (double gamma : {0.01, 0.1, 1.0}) {
            const Params p = softParams(gamma, Cost::Squared, band);
            checkAgainstReference(banded, rows, cols, p, "9x9 tile, lengths 1..1024 (shared memory)");
            if (band >= 1024) {
                // Every cell inside the band: the same number as unbanded soft-DTW.
                std::vector<double> plain(rows.size() * cols.size());
                for (std::size_t r = 0; r < rows.size(); ++r)
                    for (std::size_t c = 0; c < cols.size(); ++c)
                        plain[r * cols.size() + c] = reference::softDtw(rows[r], cols[c], false, gamma);
                checkTile(banded, rows, cols, p, plain, describe(p, true) + " 9x9 equals unbanded soft-DTW");
            }
        }
        checkAgainstReference(banded, longRows, longCols, softParams(0.1, Cost::Absolute, band),
                              "2x1, 2600..3001 (global fallback)", kLongTol);
    }
    // The band must matter: band 0 on equal lengths is the sum of the diagonal costs, far from
    // soft-DTW (a kernel that ignored the band would pass the checks above only by accident).
    const Series& x = rows[8];
    Series y = randomSeries(rng, x.length);
    const double b0 = reference::softDtw(x, y, false, 0.1, 0), full = reference::softDtw(x, y, false, 0.1);
    double diagonalSum = 0;
    for (std::size_t i = 0; i < x.length; ++i) {
        const double d = double(x.values[i]) - double(y.values[i]);
        diagonalSum += d * d;
    }
    report(relErr(b0, diagonalSum) <= 1e-9 && relErr(b0, full) > 1e-2,
           "reference banded soft-DTW, band 0, 1024x1024: the diagonal's cost sum, not soft-DTW", relErr(b0, diagonalSum));
}

void testRefusals(Kernel& k) {
    std::mt19937 rng(3);
    // NaN: refused when packing, naming the series and the sample, as by every kernel.
    {
        SeriesSet rows{randomSeries(rng, 50), randomSeries(rng, 50)}, cols{randomSeries(rng, 50)};
        rows[1].values[17] = std::nanf("");
        const Params p = softParams(1.0);
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
    // Another metric given straight to the kernel (the engine refuses it earlier, by supports()).
    {
        SeriesSet rows{randomSeries(rng, 20)}, cols{randomSeries(rng, 20)};
        Params p;
        p.metric = Metric::Dtw;
        std::vector<double> out(1);
        bool ok = false;
        std::string msg;
        try {
            k.computeTile(TileTask{rows, cols, p, Tile{0, 1, 0, 1}, false, out.data(), nullptr});
        } catch (const EngineError& e) {
            msg = e.what();
            ok = e.kind() == EngineError::Kind::BadParameter;
        }
        // The tiled alias runs cuda.tiled's code, which also computes dtw: only supports() refuses.
        if (k.name() != prefix() + "softdtw.tiled") report(ok, k.name() + " metric dtw -> BadParameter (\"" + msg + "\")", 0);
    }
}

// A pair whose whole matrix needs more than a quarter of the free memory (200000 x 200000:
// 160 GB): Naive and Diagonal (and Stencil / Banded, which fall back to it) refuse before
// allocating or launching, and the device still computes afterwards.
void testTooLarge(Kernel& k) {
    std::mt19937 rng(47);
    SeriesSet rows{randomSeries(rng, 200000)}, cols{randomSeries(rng, 200000)};
    const Params p = softParams(1.0);
    std::vector<double> out(1, std::nan(""));
    bool ok = false;
    std::string msg;
    try {
        k.computeTile(TileTask{rows, cols, p, Tile{0, 1, 0, 1}, false, out.data(), nullptr});
    } catch (const EngineError& e) {
        msg = e.what();
        ok = e.kind() == EngineError::Kind::Device && msg.find("200000 x 200000") != std::string::npos &&
             msg.find("MiB") != std::string::npos;
    }
    report(ok, k.name() + " 200000 x 200000 pair -> Device error (\"" + msg + "\")", 0);
    SeriesSet a{randomSeries(rng, 300)}, b{randomSeries(rng, 280)};
    checkAgainstReference(k, a, b, p, "300x280 after the refusal");
}

}  // namespace

int main(int argc, char** argv) {
    testRegistry();
    if (!gpu::available()) {
        if (failures) return finish();
        std::printf("SKIP: cuTimeWarp soft-DTW design tests not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::string dataDir = WARPLAB_TEST_DATA;
    if (argc > 1) dataDir = argv[1];
    std::printf("cuTimeWarp soft-DTW designs on %s\n", gpu::deviceName().c_str());
    try {
        std::vector<Kernel*> kernels;
        for (const std::string& name : kDesigns)
            if (Kernel* k = KernelRegistry::instance().find(prefix() + name)) kernels.push_back(k);
        RunOptions o;
        o.backend = kernels.empty() ? Backend::Cuda : kernels[0]->backend();
        const std::string chosen = Engine::resolveKernel(Metric::SoftDtw, o).name();
        report(chosen.find(".softdtw.") == std::string::npos, "the engine's default soft-DTW GPU kernel is " + chosen, 0);
        testRandom(kernels);
        testLong(kernels);
        testManyPairs(kernels);
        for (Kernel* k : kernels) testEngine(*k);
        testEcg200(kernels, dataDir);
        if (Kernel* banded = KernelRegistry::instance().find(prefix() + "softdtw.banded")) testBands(*banded);
        for (Kernel* k : kernels) {
            testRefusals(*k);
            if (k->name() != prefix() + "softdtw.tiled") testTooLarge(*k);
        }
    } catch (const std::exception& e) {
        report(false, std::string("unexpected exception: ") + e.what(), 0);
    }
    return finish();
}
