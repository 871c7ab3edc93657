// The device-epoch pattern path (compute/window_matrix.h, compute/patterns/pattern_windows.h):
// epochs cut on the GPU from one uploaded channel, rows ranked block by block on the host.
// Against the engine path with the same GPU kernel (epochs packed per tile): the same distances
// bit for bit, so the same qualities, histograms, nearest epochs and ranking, exactly. Against
// the scalar reference (cpu.reference, double): every distance within 2e-4 relative, with and
// without stretches (epochs never crossing a stretch's end). Exit 1 on a failure, 77 without a device.
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "compute/cpu/reference.h"
#include "compute/gpu/gpu_device.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/window_matrix.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

std::vector<float> channel(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> step(0.f, 1.f);
    std::vector<float> v(n);
    float x = 0;
    for (std::size_t k = 0; k < n; ++k) {
        x = 0.95f * x + step(rng);
        v[k] = x + 3.f * std::sin(float(k) * 0.05f);
    }
    return v;
}

PatternRequest request(const std::vector<float>& v, int e, int s, int w) {
    PatternRequest r;
    r.samples = v;
    r.rateHz = 64;
    r.channel = "test";
    r.epoch = e;
    r.stride = s;
    r.band = w;
    r.keepMatrix = true;
    r.histogramBins = 17;
    r.nearestCount = 7;
    return r;
}

bool sameRanking(const PatternRanking& a, const PatternRanking& b) {
    if (a.ranked.size() != b.ranked.size() || a.matrix.values != b.matrix.values || a.epochIctal != b.epochIctal)
        return false;
    for (std::size_t k = 0; k < a.ranked.size(); ++k) {
        const auto &x = a.ranked[k], &y = b.ranked[k];
        if (x.index != y.index || x.quality != y.quality || x.meanIctal != y.meanIctal ||
            x.meanInterictal != y.meanInterictal || x.histogram.lo != y.histogram.lo || x.histogram.hi != y.histogram.hi ||
            x.histogram.ictal != y.histogram.ictal || x.histogram.interictal != y.histogram.interictal ||
            x.nearest.size() != y.nearest.size())
            return false;
        for (std::size_t q = 0; q < x.nearest.size(); ++q)
            if (x.nearest[q].epoch != y.nearest[q].epoch || x.nearest[q].distance != y.nearest[q].distance ||
                x.nearest[q].startS != y.nearest[q].startS)
                return false;
    }
    return true;
}

// Every distance of `got` against cpu.reference on the epochs the layout says.
double maxRelToReference(const PatternRanking& got, const std::vector<float>& v) {
    std::vector<float> query;
    for (const auto& sp : got.seizures) query.insert(query.end(), v.begin() + sp.begin, v.begin() + sp.end);
    double worst = 0;
    const std::size_t e = std::size_t(got.epoch), s = std::size_t(got.stride);
    for (std::size_t i = 0; i < got.patternCount; ++i) {
        Series p(std::vector<float>(query.begin() + std::ptrdiff_t(i * s), query.begin() + std::ptrdiff_t(i * s + e)));
        for (std::size_t j = 0; j < got.epochCount; ++j) {
            const long long b = got.epochStart.empty() ? (long long)(j * s) : got.epochStart[j];
            Series x(std::vector<float>(v.begin() + b, v.begin() + b + std::ptrdiff_t(e)));
            const double ref = reference::dtw(p, x, false, got.band);
            worst = std::max(worst, relErr(got.matrix.values[i * got.epochCount + j], ref));
        }
    }
    return worst;
}

PatternRanking runOn(PatternRequest r, const std::string& kernel, bool deviceEpochs) {
    r.deviceEpochs = deviceEpochs;
    RunOptions o;
    o.kernel = kernel;
    return findPatterns(r, o);
}

}  // namespace

int main() {
    if (!gpu::available()) {
        std::printf("SKIP: GPU pattern suite not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::printf("GPU pattern suite on %s\n", gpu::deviceName().c_str());
    struct Case {
        std::size_t n;
        int e, s, w;
        std::vector<SecondsSpan> seizures;
        std::vector<Stretch> stretches;
        const char* what;
    };
    const std::vector<Case> cases = {
        {20000, 128, 32, 16, {{40, 52}, {200, 214}}, {}, "e=128 s=32 w=16, whole channel"},
        {20000, 128, 32, 16, {{40, 52}, {200, 214}}, {{0, 6000}, {6100, 6900}, {13001, 6999}}, "e=128 s=32 w=16, 3 stretches and gaps"},
        {9000, 100, 7, 5, {{30, 45}}, {{3, 3997}, {4000, 4997}}, "e=100 s=7 w=5, 2 touching stretches, ragged"},
        {6000, 64, 16, 0, {{20, 40}}, {}, "e=64 s=16 w=0"},
        {6000, 96, 24, 32, {{20, 40}, {60, 70}}, {{0, 3000}, {3500, 2500}}, "e=96 s=24 w=32, 2 stretches"},
    };
    unsigned seed = 1;
    for (const auto& c : cases) {
        const auto v = channel(c.n, seed++);
        PatternRequest r = request(v, c.e, c.s, c.w);
        r.seizures = c.seizures;
        r.stretches = c.stretches;
        r.patternBlock = 0;
        for (const char* k : {"cuda.band_dpx", "cuda.band"}) {
            try {
                const PatternRanking dev = runOn(r, k, true);
                const PatternRanking eng = runOn(r, k, false);
                report(dev.deviceEpochs && !eng.deviceEpochs && sameRanking(dev, eng),
                       std::string(c.what) + ", " + k + ": device epochs == engine tiles, exactly", 0);
                const double rel = maxRelToReference(dev, v);
                report(rel <= 2e-4, std::string(c.what) + ", " + k + ": vs cpu.reference", rel);
                const PatternRanking cpu = runOn(r, "cpu.simd", true);
                report(cpu.epochCount == dev.epochCount && cpu.epochStart == dev.epochStart &&
                           cpu.epochIctal == dev.epochIctal,
                       std::string(c.what) + ", " + k + ": same epochs and labels as the CPU path", 0);
            } catch (const std::exception& ex) {
                report(false, std::string(c.what) + ", " + k + ": threw " + ex.what(), 0);
            }
        }
    }
    // Several row blocks with a ragged last one (rowBlock 32 by default: 70 patterns).
    {
        const auto v = channel(40000, 99);
        PatternRequest r = request(v, 128, 16, 16);
        r.seizures = {{100, 135}};
        const PatternRanking dev = runOn(r, "cuda.band_dpx", true);
        const PatternRanking eng = runOn(r, "cuda.band_dpx", false);
        report(dev.patternCount > 64 && dev.patternCount % 32 != 0 && sameRanking(dev, eng),
               std::to_string(dev.patternCount) + " patterns in row blocks of 32: device epochs == engine tiles", 0);
    }
    // A stretch that ends outside the channel is bad input naming stretches[1].
    {
        const auto v = channel(5000, 7);
        PatternRequest r = request(v, 64, 16, 4);
        r.seizures = {{10, 20}};
        r.stretches = {{0, 1000}, {2000, 4000}};
        bool named = false;
        try {
            runOn(r, "cuda.band_dpx", true);
        } catch (const std::exception& ex) {
            named = std::string(ex.what()).find("stretches[1]") != std::string::npos;
        }
        report(named, "a stretch past the channel's end: error names stretches[1]", 0);
    }
    return finish();
}
