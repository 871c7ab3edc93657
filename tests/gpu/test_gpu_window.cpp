// GPU window search (compute/gpu/kernels/window/window_gpu.h) against cpu.reference (brute force): the same
// matches, costs equal bit for bit (both compute the final cost in double with the same
// operation order). Then the half2 subsequence search: every reported match's cost
// equals the fp32 cost row at its end, and with self-exclusion no end falls in the zone. The
// window candidates of stretches (what mpirun's ranks send), merged, against one search.
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "compute/core/error.h"
#include "compute/engine/engine.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

Series walk(std::mt19937& rng, std::size_t n) {
    std::normal_distribution<float> step(0.f, 1.f);
    std::vector<float> v(n);
    float x = 0;
    for (auto& s : v) s = (x += step(rng));
    return Series(std::move(v));
}

void compareWindow(const std::string& what, const Series& q, const Series& y, long band, int k,
                   const SearchScope& scope = {}) {
    Params p;
    p.metric = Metric::Cdtw;
    p.band = int(band);
    p.topk = k;
    RunOptions ref, dev;
    ref.kernel = "cpu.reference";
    dev.backend = Backend::Cuda;
    const auto want = Engine::windowSearch(q, y, p, ref, scope);
    WindowSearchStats st;
    const auto got = Engine::windowSearch(q, y, p, dev, scope, &st);
    bool ok = want.size() == got.size();
    double worst = 0;
    for (std::size_t i = 0; ok && i < want.size(); ++i) {
        ok = want[i].start == got[i].start && want[i].end == got[i].end && want[i].cost == got[i].cost;
        worst = std::max(worst, relErr(got[i].cost, want[i].cost));
        if (!ok)
            std::printf("  rank %zu: gpu %.17g @%zu, reference %.17g @%zu\n", i + 1, got[i].cost, got[i].start,
                        want[i].cost, want[i].start);
    }
    char line[300];
    std::snprintf(line, sizeof line, "window %s m=%zu N=%zu w=%ld k=%d (%zu matches, %llu of %llu windows to DTW)",
                  what.c_str(), q.length, y.length, band, k, got.size(),
                  (unsigned long long)(st.abandonedDtw + st.fullDtw), (unsigned long long)st.windows);
    report(ok, line, worst);
}

}  // namespace

int main() {
    if (!gpu::available()) {
        std::printf("SKIP: GPU window tests not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::mt19937 rng(2026);
    for (std::size_t m : {2, 3, 17, 128, 300, 1000}) {
        const std::size_t n = m >= 300 ? 6000 : 20000;
        for (long band : {0L, 1L, long(m / 20), long(m)}) {
            if (m >= 1000 && band == long(m)) continue;  // brute force on the CPU would take minutes
            Series q = walk(rng, m), y = walk(rng, n);
            for (int k : {1, 5, 50}) compareWindow("random walk", q, y, band, k);
        }
    }
    // Constant stretches (std 0 windows), a big offset, the query planted at both ends.
    {
        Series y = walk(rng, 30000);
        for (std::size_t i = 1000; i < 1600; ++i) y.values[i] = 7.0f;
        for (std::size_t i = 20000; i < 22000; ++i) y.values[i] += 1.0e5f;
        Series q(std::vector<float>(y.values.begin(), y.values.begin() + 128));
        for (int k : {1, 10}) compareWindow("constant stretches + offset, query at 0", q, y, 6, k);
        Series qe(std::vector<float>(y.values.end() - 128, y.values.end()));
        compareWindow("query at the end", qe, y, 6, 3);
        SearchScope self;
        self.excluded = {{0, 64}};
        compareWindow("self-excluded", q, y, 6, 10, self);
        SearchScope stretch;
        stretch.begin = 5000;
        stretch.end = 25000;
        compareWindow("stretch [5000, 25000)", q, y, 6, 10, stretch);
    }
    // A search cut into K stretches of starts, as mpirun's ranks cut it (app/cli/mpi_search.cpp):
    // each stretch's GPU candidates (Engine::windowCandidates with a GPU named), concatenated and
    // selected once, give the whole reference's brute-force matches bit for bit. The query is
    // planted across a stretch boundary and its self-exclusion zone spans that boundary, so
    // that one stretch's picks are excluded by another's.
    {
        Series y = walk(rng, 40000);
        const std::size_t m = 128, starts = y.length - m + 1;
        Series q(std::vector<float>(y.values.begin() + 19950, y.values.begin() + 19950 + std::ptrdiff_t(m)));
        Params p;
        p.metric = Metric::Cdtw;
        p.band = 6;
        RunOptions ref, dev;
        ref.kernel = "cpu.reference";
        dev.backend = Backend::Cuda;
        for (const bool self : {false, true})
            for (int K : {2, 3, 7})
                for (int k : {1, 3, 10}) {
                    p.topk = k;
                    SearchScope whole;
                    if (self) whole.excluded = {{19950 - m / 2, 19950 + m / 2}};
                    const auto want = Engine::windowSearch(q, y, p, ref, whole);
                    std::vector<WindowCandidate> all;
                    for (int r = 0; r < K; ++r) {
                        SearchScope part = whole;
                        part.begin = starts * std::size_t(r) / std::size_t(K);
                        part.end = starts * std::size_t(r + 1) / std::size_t(K);
                        for (const auto& c : Engine::windowCandidates(q, y, p, dev, part)) all.push_back(c);
                    }
                    const auto got = selectWindowTopK(std::move(all), m, k);
                    bool ok = want.size() == got.size() && !want.empty();
                    for (std::size_t i = 0; ok && i < want.size(); ++i)
                        ok = want[i].start == got[i].start && want[i].cost == got[i].cost;
                    report(ok, "window candidates of " + std::to_string(K) + " stretches (GPU), merged, k=" +
                                   std::to_string(k) + (self ? ", self-excluded" : "") + " == one brute-force search",
                           0);
                }
    }
    // A longer reference, checked against the pruned CPU path (itself equal to brute force in
    // tests/compute/test_window_search.cpp).
    {
        Series y = walk(rng, 1000000), q = walk(rng, 128);
        Params p;
        p.metric = Metric::Cdtw;
        p.band = 6;
        for (int k : {1, 10}) {
            p.topk = k;
            RunOptions dev;
            dev.backend = Backend::Cuda;
            const auto want = Engine::windowSearch(q, y, p, RunOptions{});
            const auto got = Engine::windowSearch(q, y, p, dev);
            bool ok = want.size() == got.size();
            for (std::size_t i = 0; ok && i < want.size(); ++i)
                ok = want[i].start == got[i].start && want[i].cost == got[i].cost;
            report(ok, "window 1,000,000 random walk, m=128 w=6 k=" + std::to_string(k) + " vs cpu.window", 0);
        }
    }
    // half2 subsequence search through Engine::search with a SearchScope (what the CLI's
    // --precision half2 calls), on the documented shape (stationary AR(1) series as in
    // test_gpu_sdtw.cpp, 128-sample queries in 20,000): every reported cost equals the fp32 cost
    // row at its end (the engine's fp32 rescoring), and with self-exclusion no end is in the zone.
    {
        std::mt19937 arng(23);
        const Series y = randomSeries(arng, 20000);
        Params p;
        p.metric = Metric::Sdtw;
        p.topk = 5;
        p.znorm = true;
        int equal = 0, total = 0, missed = 0, printed = 0;
        for (int t = 0; t < 32; ++t) {
            const Series q = randomSeries(arng, 128);
            SearchScope h;
            h.precision = SearchPrecision::Half2;
            const auto got = Engine::search(q, y, p, RunOptions{}, h);
            const auto fp32 = Engine::search(q, y, p, RunOptions{});
            const auto row = gpu::sdtwLastRows(SeriesSet{q}, y, p, gpu::SdtwPrecision::Fp32).front();
            for (const Match& m : got) {
                ++total;
                if (float(m.cost) == row[m.end]) ++equal;
                else if (printed++ < 5)
                    std::printf("  query %d end %zu: half2 match cost %.9g, fp32 row %.9g\n", t, m.end, m.cost,
                                double(row[m.end]));
                bool inFp32 = false;
                for (const Match& f : fp32) inFp32 = inFp32 || f.end == m.end;
                if (!inFp32) ++missed;
            }
            if (t < 8 && !got.empty()) {
                // Self-exclusion with half2 around the best end: no end in the zone.
                SearchScope hx = h;
                const std::size_t e = got.front().end;
                hx.excluded = {{e >= 64 ? e - 64 : 0, e + 64}};
                const auto ex = Engine::search(q, y, p, RunOptions{}, hx);
                bool outside = !ex.empty();
                for (const Match& m : ex) outside = outside && (m.end + 64 < e || m.end > e + 64);
                report(outside, "half2 with excluded ends, query " + std::to_string(t) + ": no end in the zone", 0);
            }
        }
        report(equal * 100 >= total * 99,
               "half2 top-5 costs equal the fp32 row at their ends (" + std::to_string(equal) + " of " +
                   std::to_string(total) + "); ends not in fp32's top-5: " + std::to_string(missed) + " of " +
                   std::to_string(total),
               0);
    }
    std::printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
