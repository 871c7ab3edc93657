// The device-epoch pattern path (compute/engine/epoch_matrix.h, compute/patterns/device_epochs.h):
// the channel (a study: its segments laid end to end) uploaded once, epochs cut on the GPU at
// their starts, rows ranked block by block on the host. Against the engine path with the same GPU
// kernel (epochs packed per tile on the host): the same distances bit for bit, so the same
// qualities, histograms, nearest epochs (with segment and clock) and ranking, exactly. Against the
// scalar reference (cpu.reference, double) on epochs and patterns cut independently per segment:
// every distance within 2e-4 relative. Single recordings, multi-segment studies with gaps between
// the pieces, a segment read lazily, a segment without seizures, an MPI share of the rows, and a
// segment with a non-finite sample (named). The device row sort (row_sort.h) against the host's
// sortRow on rows with many ties, zeros of both signs and infinities: the same order, bit for
// bit, and a value that is not a float flagged. Exit 1 on a failure, 77 without a device.
#include <cmath>
#include <cstring>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "compute/cpu/reference.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/kernels/sort/row_sort.h"
#include "compute/patterns/pattern_discovery.h"
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

// A piece of the channel as one recording of a study; seizures in seconds from its start.
struct Piece {
    long long offset, length;
    std::vector<SecondsSpan> seizures;
    bool lazy = false;  // read through a reader instead of a view
};

PatternRequest studyRequest(const std::vector<float>& v, int e, int s, int w, const std::vector<Piece>& pieces) {
    PatternRequest r = request(v, e, s, w);
    r.samples = {};
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        const Piece& p = pieces[k];
        PatternSegment g;
        if (p.lazy) {
            const float* base = v.data() + p.offset;
            g.reader = [base](long long a, long long n, float* out) { std::copy(base + a, base + a + n, out); };
            g.sampleCount = p.length;
        } else {
            g.samples = std::span<const float>(v.data() + p.offset, std::size_t(p.length));
        }
        g.seizures = p.seizures;
        g.recording = "piece" + std::to_string(k) + ".edf";
        g.recordingIndex = int(k);
        g.clockStartS = double(p.offset) / r.rateHz + 1000.0 * double(k);
        r.segments.push_back(std::move(g));
    }
    return r;
}

bool sameRanking(const PatternRanking& a, const PatternRanking& b) {
    if (a.ranked.size() != b.ranked.size() || a.matrix.values != b.matrix.values || a.epochIctal != b.epochIctal)
        return false;
    for (std::size_t k = 0; k < a.ranked.size(); ++k) {
        const auto &x = a.ranked[k], &y = b.ranked[k];
        if (x.index != y.index || x.segment != y.segment || x.recordingSample != y.recordingSample ||
            x.clockS != y.clockS || x.quality != y.quality || x.meanIctal != y.meanIctal ||
            x.meanInterictal != y.meanInterictal || x.histogram.lo != y.histogram.lo || x.histogram.hi != y.histogram.hi ||
            x.histogram.ictal != y.histogram.ictal || x.histogram.interictal != y.histogram.interictal ||
            x.nearest.size() != y.nearest.size())
            return false;
        for (std::size_t q = 0; q < x.nearest.size(); ++q)
            if (x.nearest[q].epoch != y.nearest[q].epoch || x.nearest[q].distance != y.nearest[q].distance ||
                x.nearest[q].startS != y.nearest[q].startS || x.nearest[q].segment != y.nearest[q].segment ||
                x.nearest[q].clockS != y.nearest[q].clockS)
                return false;
    }
    return true;
}

// Every distance of `got` against cpu.reference, on patterns and epochs cut here per segment
// from the summaries (segment k: its own query, epochs at (j - epochBegin) * s of its own
// samples), so an epoch across a segment end or a pattern from the wrong query shows up.
double maxRelToReference(const PatternRanking& got, const std::vector<float>& v, const std::vector<Piece>& pieces) {
    double worst = 0;
    const std::size_t e = std::size_t(got.epoch), s = std::size_t(got.stride);
    std::vector<std::vector<float>> queries;
    for (std::size_t k = 0; k < got.segments.size(); ++k) {
        const long long off = pieces.empty() ? 0 : pieces[k].offset;
        std::vector<float> q;
        for (const auto& sp : got.segments[k].seizures) q.insert(q.end(), v.begin() + off + sp.begin, v.begin() + off + sp.end);
        queries.push_back(std::move(q));
    }
    std::size_t ki = 0;
    for (std::size_t i = 0; i < got.patternCount; ++i) {
        while (i >= got.segments[ki].patternBegin + got.segments[ki].patternCount) ++ki;
        const auto& qk = queries[ki];
        const std::size_t qo = (i - got.segments[ki].patternBegin) * s;
        Series p(std::vector<float>(qk.begin() + std::ptrdiff_t(qo), qk.begin() + std::ptrdiff_t(qo + e)));
        std::size_t kj = 0;
        for (std::size_t j = 0; j < got.epochCount; ++j) {
            while (j >= got.segments[kj].epochBegin + got.segments[kj].epochCount) ++kj;
            const long long off = pieces.empty() ? 0 : pieces[kj].offset;
            const long long b = off + (long long)((j - got.segments[kj].epochBegin) * s);
            if (b + (long long)e > off + got.segments[kj].sampleCount) return INFINITY;  // across a segment end
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

#if WL_GPU_CUDA
// rows x cols doubles (floats widened) sorted on the device == sortRow row by row.
void testRowSort(std::size_t rows, std::size_t cols, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pick(-3, 60);
    std::vector<double> in(rows * cols);
    for (auto& v : in) v = double(float(pick(rng)) * 0.37f);  // many ties, some negative
    for (std::size_t k = 0; k < in.size(); k += 977) in[k] = (k / 977) % 2 ? INFINITY : -0.0;
    if (in.size() > 5) in[5] = 0.0;
    gpu::Stream stream;
    gpu::DeviceBuffer<double> dIn;
    gpu::DeviceBuffer<float> dDist(rows * cols);
    gpu::DeviceBuffer<std::uint32_t> dCol(rows * cols);
    gpu::DeviceBuffer<int> dFlag(1);
    dIn.upload(in.data(), in.size(), stream.get());
    gpu::check(gpuMemsetAsync(dFlag.get(), 0, sizeof(int), stream.get()), "flag");
    gpu::RowSorter sorter(rows + 3, cols);  // a sorter sized for more rows than it is given
    sorter.sort(dIn.get(), rows, dDist.get(), dCol.get(), dFlag.get(), stream.get());
    std::vector<float> dist(rows * cols);
    std::vector<std::uint32_t> col(rows * cols);
    int flag = -1;
    dDist.download(dist.data(), dist.size(), stream.get());
    dCol.download(col.data(), col.size(), stream.get());
    dFlag.download(&flag, 1, stream.get());
    stream.sync();
    bool same = flag == 0;
    for (std::size_t r = 0; r < rows && same; ++r) {
        const SortedRow host = sortRow(std::span<const double>(in.data() + r * cols, cols));
        same = host.floats && std::memcmp(host.epoch.data(), col.data() + r * cols, cols * sizeof(std::uint32_t)) == 0 &&
               std::memcmp(host.distanceF.data(), dist.data() + r * cols, cols * sizeof(float)) == 0;
    }
    report(same, "device row sort, " + std::to_string(rows) + " x " + std::to_string(cols) + " (ties, +-0, inf) == host sortRow, bit for bit", 0);
    // A distance that is not a float widened to double is flagged, not silently rounded.
    in[in.size() / 2] = 1.0 / 3.0;
    dIn.upload(in.data(), in.size(), stream.get());
    sorter.sort(dIn.get(), rows, dDist.get(), dCol.get(), dFlag.get(), stream.get());
    dFlag.download(&flag, 1, stream.get());
    stream.sync();
    report(flag == 1, "device row sort flags a value that is not a float", 0);
}
#endif

}  // namespace

int main() {
    if (!gpu::available()) {
        std::printf("SKIP: GPU pattern suite not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::printf("GPU pattern suite on %s\n", gpu::deviceName().c_str());
#if WL_GPU_CUDA
    testRowSort(1, 1, 1);
    testRowSort(1, 100003, 2);
    testRowSort(5, 65536, 3);
    testRowSort(33, 1000, 4);
#endif
    struct Case {
        std::size_t n;
        int e, s, w;
        std::vector<SecondsSpan> seizures;  // single recording (no pieces)
        std::vector<Piece> pieces;          // a study
        const char* what;
    };
    const std::vector<Case> cases = {
        {20000, 128, 32, 16, {{40, 52}, {200, 214}}, {}, "e=128 s=32 w=16, one recording"},
        {20000, 128, 32, 16, {}, {{0, 6000, {{40, 52}}}, {6100, 800, {}}, {13001, 6999, {{10, 24}}, true}},
         "e=128 s=32 w=16, 3 segments, gaps, one lazy, one without seizures"},
        {9000, 100, 7, 5, {}, {{3, 3997, {{30, 45}}}, {4000, 4997, {{2, 9}, {50, 60}}}}, "e=100 s=7 w=5, 2 touching segments, ragged"},
        {6000, 64, 16, 0, {{20, 40}}, {}, "e=64 s=16 w=0, one recording"},
        {6000, 96, 24, 32, {}, {{0, 3000, {{20, 40}}}, {3500, 2500, {{5, 15}}, true}}, "e=96 s=24 w=32, 2 segments"},
    };
    unsigned seed = 1;
    for (const auto& c : cases) {
        const auto v = channel(c.n, seed++);
        PatternRequest r = c.pieces.empty() ? request(v, c.e, c.s, c.w) : studyRequest(v, c.e, c.s, c.w, c.pieces);
        r.seizures = c.seizures;
        r.patternBlock = 0;
        for (const char* k : {"cuda.band_dpx", "cuda.band"}) {
            try {
                const PatternRanking dev = runOn(r, k, true);
                const PatternRanking eng = runOn(r, k, false);
                report(dev.deviceEpochs && !eng.deviceEpochs && sameRanking(dev, eng),
                       std::string(c.what) + ", " + k + ": device epochs == host-packed epochs, exactly", 0);
                const double rel = maxRelToReference(dev, v, c.pieces);
                report(rel <= 2e-4, std::string(c.what) + ", " + k + ": vs cpu.reference", rel);
                const PatternRanking cpu = runOn(r, "cpu.simd", true);
                report(!cpu.deviceEpochs && cpu.epochCount == dev.epochCount && cpu.patternCount == dev.patternCount &&
                           cpu.epochIctal == dev.epochIctal && cpu.segments.size() == dev.segments.size(),
                       std::string(c.what) + ", " + k + ": same epochs and labels as the CPU path", 0);
            } catch (const std::exception& ex) {
                report(false, std::string(c.what) + ", " + k + ": threw " + ex.what(), 0);
            }
        }
    }
    // Several row blocks with a ragged last one (rowBlock 32 by default: 70 patterns), and an
    // MPI share of the rows (patternBegin/patternEnd) on a study: the same scores as the host path.
    {
        const auto v = channel(40000, 99);
        PatternRequest r = request(v, 128, 16, 16);
        r.seizures = {{100, 135}};
        const PatternRanking dev = runOn(r, "cuda.band_dpx", true);
        const PatternRanking eng = runOn(r, "cuda.band_dpx", false);
        report(dev.patternCount > 64 && dev.patternCount % 32 != 0 && sameRanking(dev, eng),
               std::to_string(dev.patternCount) + " patterns in row blocks of 32: device epochs == host-packed", 0);
        PatternRequest q = studyRequest(v, 128, 16, 16, {{0, 15000, {{100, 135}}}, {15500, 24500, {{30, 50}}}});
        q.patternBegin = 120;  // across the segment boundary (133 + 73 patterns)
        q.patternEnd = 158;
        const PatternRanking ds = runOn(q, "cuda.band_dpx", true);
        const PatternRanking es = runOn(q, "cuda.band_dpx", false);
        bool inShare = ds.ranked.size() == 38;
        for (const auto& sc : ds.ranked) inShare = inShare && sc.index >= 120 && sc.index < 158;
        report(ds.deviceEpochs && inShare && sameRanking(ds, es), "a study's rows 120..158 (an MPI share, both segments): device == host-packed", 0);
    }
    // A non-finite sample in the second segment is bad input naming that recording.
    {
        auto v = channel(5000, 7);
        v[3100] = NAN;
        PatternRequest r = studyRequest(v, 64, 16, 4, {{0, 2000, {{10, 20}}}, {2500, 2500, {}, true}});
        std::string err;
        try {
            runOn(r, "cuda.band_dpx", true);
        } catch (const std::exception& ex) {
            err = ex.what();
        }
        report(err.find("piece1.edf") != std::string::npos && err.find("samples") != std::string::npos,
               "a NaN in segment 1: error names piece1.edf (" + err + ")", 0);
    }
    // A single recording in memory is checked while the devices take their copies
    // (EpochMatrixRequest::alongSetup): the NaN is still refused by name, on one device and on
    // all, before any row is ranked.
    for (const bool all : {false, true}) {
        auto v = channel(8000, 8);
        v[4321] = NAN;
        PatternRequest r = request(v, 64, 16, 4);
        r.seizures = {{10, 20}};
        r.deviceEpochs = true;
        RunOptions o;
        o.kernel = "cuda.band_dpx";
        if (!all) o.devices = {0};  // empty: every visible device
        std::string err;
        EngineError::Kind kind = EngineError::Kind::Internal;
        try {
            findPatterns(r, o);
        } catch (const EngineError& ex) {
            err = ex.what();
            kind = ex.kind();
        } catch (const std::exception& ex) {
            err = ex.what();
        }
        report(kind == EngineError::Kind::BadInput && err.find("sample 4321") != std::string::npos,
               std::string("a NaN in one recording's view, ") + (all ? "every device" : "device 0") + ": refused by name (" + err + ")", 0);
    }
    // A study read ahead of the job (loadSegments: every segment's reader into one buffer, the
    // segments then views laid end to end, taken by the device path without a copy): the same
    // ranking as the readers on the device path and as the host-packed path, exactly; on every
    // device and on device 0; and a NaN in the loaded second segment still refused by its name.
    {
        const auto v = channel(30000, 41);
        const std::vector<Piece> lazy = {{0, 9000, {{40, 52}}, true}, {9100, 800, {}, true}, {10000, 20000, {{10, 24}}, true}};
        const PatternRequest r = studyRequest(v, 128, 32, 16, lazy);
        PatternRequest loaded = r;
        const LoadedSamples buffer = loadSegments(loaded);
        bool views = buffer.count == 9000 + 800 + 20000 && loaded.segments.size() == 3;
        for (std::size_t k = 0; views && k < loaded.segments.size(); ++k)
            views = !loaded.segments[k].reader && loaded.segments[k].samples.size() == std::size_t(lazy[k].length) &&
                    std::memcmp(loaded.segments[k].samples.data(), v.data() + lazy[k].offset, lazy[k].length * sizeof(float)) == 0 &&
                    (k == 0 || loaded.segments[k].samples.data() == loaded.segments[k - 1].samples.data() + lazy[k - 1].length);
        report(views, "loadSegments: three segments as views end to end, the readers' samples", 0);
        for (const bool all : {true, false}) {
            PatternRequest a = r, b = loaded;
            a.deviceEpochs = b.deviceEpochs = true;
            RunOptions o;
            o.kernel = "cuda.band_dpx";
            if (!all) o.devices = {0};
            const PatternRanking fromReaders = findPatterns(a, o);
            const PatternRanking fromLoaded = findPatterns(b, o);
            const PatternRanking hostPacked = runOn(loaded, "cuda.band_dpx", false);
            report(fromLoaded.deviceEpochs && sameRanking(fromLoaded, fromReaders) && sameRanking(fromLoaded, hostPacked),
                   std::string("a study read ahead (") + (all ? "every device" : "device 0") +
                       "): device == readers' device path == host-packed, exactly",
                   0);
        }
        auto bad = channel(6000, 42);
        bad[3100] = NAN;
        PatternRequest n = studyRequest(bad, 64, 16, 4, {{0, 2000, {{10, 20}}, true}, {2500, 3500, {}, true}});
        const LoadedSamples nb = loadSegments(n);
        std::string err;
        try {
            runOn(n, "cuda.band_dpx", true);
        } catch (const std::exception& ex) {
            err = ex.what();
        }
        report(nb.count == 5500 && err.find("piece1.edf") != std::string::npos && err.find("sample 600") != std::string::npos,
               "a NaN in a loaded segment 1: refused naming piece1.edf and its sample (" + err + ")", 0);
    }
    return finish();
}
