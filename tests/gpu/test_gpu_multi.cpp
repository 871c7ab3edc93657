// Several GPUs in one process (compute/gpu/runtime/device_set.h, per-device tile streams in tile_streams.h):
// engine matrices and the pattern pipeline on devices {0,1} against {0} and {1}, bit for bit
// (the same kernels on every tile, and every cell is computed by one thread on one device, so
// where a tile runs cannot change a value); the window search and the subsequence search split over devices; device lists that do not exist; a full device
// named in the error and nothing returned as complete. Exit 1 on a failure, 77 without a
// device or, after the one-device checks, with fewer than two.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compute/core/error.h"
#include "compute/engine/engine.h"
#include "compute/gpu/runtime/device_set.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/patterns/synthetic_channel.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

SeriesSet randomSet(std::mt19937& rng, std::size_t count, std::size_t length) {
    SeriesSet s;
    for (std::size_t i = 0; i < count; ++i) s.push_back(randomSeries(rng, length));
    return s;
}

// This build's GPU backend on `devices`.
RunOptions gpuOn(const std::vector<int>& devices) {
    RunOptions o;
    o.backend = Backend::Cuda;
#if WL_GPU_HIP
    o.backend = Backend::Hip;
#endif
    o.devices = devices;
    return o;
}

DistanceMatrix onDevices(const std::vector<int>& devices, const SeriesSet& q, const SeriesSet* t, const Params& p) {
    return Engine::distanceMatrix(q, t, p, gpuOn(devices));
}

bool sameBits(const DistanceMatrix& a, const DistanceMatrix& b) {
    return a.values.size() == b.values.size() &&
           std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)) == 0;
}

Params cdtw(int band) {
    Params p;
    p.metric = Metric::Cdtw;
    p.band = band;
    return p;
}

void testBadLists() {
    auto refused = [](const std::vector<int>& list, const std::string& want, const std::string& what) {
        std::string msg;
        bool ok = false;
        try {
            (void)gpu::resolveDevices(list);
        } catch (const EngineError& e) {
            msg = e.what();
            ok = e.kind() == EngineError::Kind::BadParameter && msg.find(want) != std::string::npos;
        }
        report(ok, what + " -> \"" + msg + "\"", 0);
    };
    refused({gpu::deviceCount()}, "there is no GPU " + std::to_string(gpu::deviceCount()), "a device past the last");
    refused({0, 0}, "listed twice", "a device listed twice");
    report(gpu::resolveDevices({}).size() == std::size_t(gpu::deviceCount()), "an empty list means every device", 0);
}

void compareLists(const std::vector<int>& a, const std::vector<int>& b, const SeriesSet& q, const SeriesSet* t,
                  const Params& p, const std::string& what) {
    const auto t0 = std::chrono::steady_clock::now();
    const DistanceMatrix x = onDevices(a, q, t, p);
    const auto t1 = std::chrono::steady_clock::now();
    const DistanceMatrix y = onDevices(b, q, t, p);
    const auto t2 = std::chrono::steady_clock::now();
    std::printf("  %s: %.2f s on the first list, %.2f s on the second\n", what.c_str(),
                std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
    report(sameBits(x, y), what + ": bit for bit", 0);
}

void testPatterns(const std::vector<int>& a, const std::vector<int>& b) {
    SyntheticChannel c;
    c.samples = 4'000'000;
    c.seizureSamples = 40'000;
    std::vector<float> data = syntheticSamples(c);
    PatternRequest r = syntheticRequest(c);
    r.samples = data;
    r.reader = nullptr;
    auto rank = [&](const std::vector<int>& devices) {
        RunOptions o;
        o.devices = devices;
        return findPatterns(r, o);
    };
    const PatternRanking x = rank(a), y = rank(b);
    bool same = x.deviceEpochs && y.deviceEpochs && x.ranked.size() == y.ranked.size() && !x.ranked.empty();
    for (std::size_t k = 0; same && k < x.ranked.size(); ++k)
        same = x.ranked[k].index == y.ranked[k].index &&
               std::memcmp(&x.ranked[k].quality, &y.ranked[k].quality, sizeof(double)) == 0 &&
               std::memcmp(&x.ranked[k].meanIctal, &y.ranked[k].meanIctal, sizeof(double)) == 0;
    report(same, "patterns (" + std::to_string(x.patternCount) + " x " + std::to_string(x.epochCount) +
                     ", kernel " + x.kernel + "): the same ranking, qualities bit for bit",
           0);
}

// The window search on `a` and on `b` (Engine::windowSearch, a GPU named), each against the
// CPU's pruned search (itself equal to brute force, compute.test_window_search): the same matches, costs bit for bit (several devices split the starts and
// select over their candidates together, window_gpu.h). A random walk of 400,000 samples with a
// query cut from it, k = 1 and 10, with its self-exclusion zone.
void testWindowSearch(const std::vector<int>& a, const std::vector<int>& b) {
    std::mt19937 rng(77);
    std::normal_distribution<float> step(0.f, 1.f);
    std::vector<float> v(400'000);
    float x = 0;
    for (auto& s : v) s = (x += step(rng));
    const Series y(std::move(v));
    const std::size_t at = 200'000 - 50, m = 256;  // the query straddles the middle: a share boundary on 2 devices
    const Series q(std::vector<float>(y.values.begin() + std::ptrdiff_t(at), y.values.begin() + std::ptrdiff_t(at + m)));
    Params p = cdtw(12);
    for (int k : {1, 10})
        for (bool self : {false, true}) {
            p.topk = k;
            SearchScope scope;
            if (self) scope.excluded = {exclusionZone(at, m)};
            const auto want = Engine::windowSearch(q, y, p, RunOptions{}, scope);  // cpu.window (== brute force: test_window_search)
            const auto ga = Engine::windowSearch(q, y, p, gpuOn(a), scope), gb = Engine::windowSearch(q, y, p, gpuOn(b), scope);
            bool same = !want.empty() && ga.size() == want.size() && gb.size() == want.size();
            for (std::size_t i = 0; same && i < want.size(); ++i)
                same = ga[i].start == want[i].start && gb[i].start == want[i].start &&
                       std::memcmp(&ga[i].cost, &want[i].cost, sizeof(double)) == 0 &&
                       std::memcmp(&gb[i].cost, &want[i].cost, sizeof(double)) == 0;
            report(same, "window search 400,000 samples, m=256 w=12 k=" + std::to_string(k) + (self ? ", self-excluded" : "") +
                             ": the same matches on every device list as cpu.window, bit for bit",
                   0);
        }
}

// The subsequence search on device list `b` against `a` (gpu::sdtwSearchBatch): one query (its
// reference stretches split over the devices, the re-sweeps seeded across them) and a batch
// that fills each device (its queries split), the chosen stretches and one per checkpoint (no
// window agrees inside a stretch: the re-sweeps chain across the device boundary); and
// Engine::search with the devices named. The same last rows and matches, bit for bit.
void testSubsequenceSearch(const std::vector<int>& a, const std::vector<int>& b) {
    std::mt19937 rng(91);
    const Series y = randomSeries(rng, 1'000'003);
    const SeriesSet one{randomSeries(rng, 300)};
    SeriesSet batch;
    for (int i = 0; i < 600; ++i) batch.push_back(randomSeries(rng, 1000));
    Params p;
    p.metric = Metric::Sdtw;
    p.znorm = true;
    p.topk = 5;
    auto sameMatches = [](const std::vector<std::vector<Match>>& x, const std::vector<std::vector<Match>>& z) {
        bool same = x.size() == z.size();
        for (std::size_t q = 0; same && q < x.size(); ++q) {
            same = x[q].size() == z[q].size() && !x[q].empty();
            for (std::size_t i = 0; same && i < x[q].size(); ++i)
                same = x[q][i].start == z[q][i].start && x[q][i].end == z[q][i].end &&
                       std::memcmp(&x[q][i].cost, &z[q][i].cost, sizeof(double)) == 0;
        }
        return same;
    };
    auto list = [](const std::vector<int>& v) {
        std::string s;
        for (int d : v) s += (s.empty() ? "" : ",") + std::to_string(d);
        return "{" + s + "}";
    };
    const int nb = b.empty() ? 1 : int(b.size());  // an empty list: the current device
    for (int stretches : {0, 1'000'003 / 128}) {
        gpu::SdtwOptions oa, ob;
        oa.devices = a;
        ob.devices = b;
        oa.stretches = ob.stretches = stretches;
        gpu::SdtwTiming ta, tb;
        const auto ma = gpu::sdtwSearchBatch(one, y, p, &ta, gpu::SdtwPrecision::Fp32, oa);
        const auto mb = gpu::sdtwSearchBatch(one, y, p, &tb, gpu::SdtwPrecision::Fp32, ob);
        const auto ra = gpu::sdtwLastRows(one, y, p, gpu::SdtwPrecision::Fp32, oa);
        const auto rb = gpu::sdtwLastRows(one, y, p, gpu::SdtwPrecision::Fp32, ob);
        const bool rows = ra.size() == 1 && rb.size() == 1 && ra[0].size() == y.length &&
                          std::memcmp(ra[0].data(), rb[0].data(), ra[0].size() * sizeof(float)) == 0;
        std::printf("  sdtw 1 x 300 in 1000003: %s %d stretches, %d waves on %d device(s); %s %d stretches, %d waves on %d\n",
                    list(a).c_str(), ta.stretches, ta.reseedWaves, ta.devices, list(b).c_str(), tb.stretches,
                    tb.reseedWaves, tb.devices);
        report(rows && sameMatches(ma, mb) && tb.devices == nb && tb.startCostMismatches == 0,
               "sdtw 1 query of 300 in 1,000,003, " + (stretches ? std::to_string(stretches) : std::string("chosen")) +
                   " stretches: last rows and top-5 on " + list(b) + " == on " + list(a) + ", bit for bit",
               0);
    }
    gpu::SdtwOptions oa, ob;
    oa.devices = a;
    ob.devices = b;
    gpu::SdtwTiming tb;
    const Series ref100k(std::vector<float>(y.values.begin(), y.values.begin() + 100'000));
    const auto ma = gpu::sdtwSearchBatch(batch, ref100k, p, nullptr, gpu::SdtwPrecision::Fp32, oa);
    const auto mb = gpu::sdtwSearchBatch(batch, ref100k, p, &tb, gpu::SdtwPrecision::Fp32, ob);
    report(sameMatches(ma, mb) && tb.devices == nb,
           "sdtw 600 x 1000 in 100,000 (queries split): top-5 on " + list(b) + " == on " + list(a) + ", bit for bit", 0);
    RunOptions ra = gpuOn(a), rb = gpuOn(b);
    const auto ea = Engine::search(one[0], y, p, ra), eb = Engine::search(one[0], y, p, rb);
    report(sameMatches({ea}, {eb}), "Engine::search, GPU named, on " + list(b) + " == on " + list(a) + ", bit for bit", 0);
}

// Device 1 full: the job fails with a Device error naming GPU 1, and returns no matrix. Run
// first, while device 1 has no tile streams yet: tile streams that already hold buffers large enough for a
// tile need no memory and would (rightly) go on working on a full device.
void testFullDevice(const SeriesSet& q, const Params& p) {
    std::vector<gpu::DeviceBuffer<unsigned char>> hog;
    {
        gpu::DeviceScope on1(1);
        for (std::size_t chunk = std::size_t(1) << 30; chunk >= (std::size_t(1) << 20); chunk /= 4)
            for (;;) {
                try {
                    hog.emplace_back(chunk);
                } catch (const EngineError&) {
                    break;
                }
            }
    }
    std::string msg;
    bool ok = false, returned = false;
    try {
        const DistanceMatrix m = onDevices({0, 1}, q, nullptr, p);
        returned = !m.values.empty();
    } catch (const EngineError& e) {
        msg = e.what();
        ok = e.kind() == EngineError::Kind::Device && msg.find("GPU 1") != std::string::npos;
    }
    report(ok && !returned, "GPU 1 full: Device error naming it (\"" + msg + "\")", 0);
    // The device-epoch pattern path (one copy of the channel per device) fails the same way.
    msg.clear();
    ok = false;
    returned = false;
    try {
        SyntheticChannel c;
        c.samples = 4'000'000;
        c.seizureSamples = 40'000;
        const std::vector<float> data = syntheticSamples(c);
        PatternRequest r = syntheticRequest(c);
        r.samples = data;
        r.reader = nullptr;
        RunOptions o;
        o.devices = {0, 1};
        returned = !findPatterns(r, o).ranked.empty();
    } catch (const EngineError& e) {
        msg = e.what();
        ok = e.kind() == EngineError::Kind::Device && msg.find("GPU 1") != std::string::npos;
    }
    report(ok && !returned, "GPU 1 full, patterns on {0,1}: Device error naming it (\"" + msg + "\")", 0);
    gpu::DeviceScope on1(1);
    hog.clear();
}

}  // namespace

int main() {
    if (gpu::deviceCount() == 0) {
        std::printf("SKIP: multi-GPU suite not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::printf("multi-GPU suite: %d device(s):", gpu::deviceCount());
    for (int d = 0; d < gpu::deviceCount(); ++d) std::printf(" %s", gpu::deviceLabel(d).c_str());
    std::printf("\n");
    testBadLists();
    std::mt19937 rng(2024);
    const SeriesSet q = randomSet(rng, 3000, 256), t = randomSet(rng, 2500, 256);
    if (gpu::deviceCount() >= 2) testFullDevice(randomSet(rng, 2048, 4096), cdtw(8));
    // One device: an explicit list equals the default (current device only when one exists).
    compareLists({0}, {}, q, &t, cdtw(8), "cdtw w8, 3000 x 2500, {0} vs all");
    testWindowSearch({0}, {});
    testSubsequenceSearch({0}, {});
    if (gpu::deviceCount() < 2) {
        std::printf("SKIP: the two-device checks need 2 GPUs; this process sees %d\n", gpu::deviceCount());
        std::printf("%d checks, %d failed\n", checks, failures);
        return failures ? 1 : 77;
    }
    compareLists({0}, {0, 1}, q, &t, cdtw(8), "cdtw w8 (band kernel), 3000 x 2500, {0} vs {0,1}");
    compareLists({1}, {0, 1}, q, &t, cdtw(8), "cdtw w8, 3000 x 2500, {1} vs {0,1}");
    Params d;
    d.metric = Metric::Dtw;
    compareLists({0}, {0, 1}, q, nullptr, d, "dtw all pairs (upper tiles, mirrored), 3000, {0} vs {0,1}");
    Params tw;
    tw.metric = Metric::Twed;
    compareLists({0}, {1, 0}, SeriesSet(q.begin(), q.begin() + 1200), &t, tw, "twed 1200 x 2500, {0} vs {1,0}");
    testPatterns({0}, {0, 1});
    testWindowSearch({0}, {1, 0});
    testSubsequenceSearch({0}, {0, 1});
    testSubsequenceSearch({1}, {1, 0});
    // After the failure both devices work again and still agree.
    compareLists({0}, {0, 1}, SeriesSet(q.begin(), q.begin() + 1500), nullptr, cdtw(8), "after the failure: cdtw all pairs 1500");
    return finish();
}
