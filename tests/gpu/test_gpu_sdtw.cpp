// GPU subsequence search (compute/gpu/kernels/sdtw/sdtw_gpu.h) against the scalar reference
// (reference::sdtwTopK, double): fp32 ends, starts and costs for queries of awkward lengths,
// top-1 and top-5, with and without z-normalisation, squared and absolute cost, exact ties
// (integer data with constant stretches, where starts depend on METRICS.md's tie order), a
// reference shorter than the query, a 100,000-sample reference; the reference cut into stretches
// against the unsplit pass (bit for bit, on random walks, ties and Bonn EEG); then the half2 search: its
// cost row against fp32 (random walks and real ECG200 series) and its matches.
//
// Tolerances. fp32 costs within 2e-4 relative of the double reference (a sum of up to ~8000
// rounded terms), starts and ends equal. half2: stated on the lines it prints (see sdtw_gpu.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/error.h"
#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/cpu/window_search.h"
#include "compute/engine/engine.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

// Series with integer samples in 0..3 and constant stretches of 1..40 samples: every cost is
// an integer below 2^24, exact in fp32 and double alike, so ties are real ties on both.
Series stairSeries(std::mt19937& rng, std::size_t n) {
    std::uniform_int_distribution<int> level(0, 3), run(1, 40);
    std::vector<float> v;
    while (v.size() < n) {
        const float x = float(level(rng));
        for (int r = run(rng); r > 0 && v.size() < n; --r) v.push_back(x);
    }
    return Series(std::move(v));
}

// Last-row cells of a and b (query by query) that differ bit for bit, and how many were compared
// (fewer than expected when a row is missing or short).
struct CellsDiffer {
    std::size_t differ = 0, cells = 0;
};
CellsDiffer differingCells(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& b) {
    CellsDiffer d;
    for (std::size_t q = 0; q < a.size() && q < b.size(); ++q)
        for (std::size_t j = 0; j < a[q].size() && j < b[q].size(); ++j, ++d.cells)
            if (std::memcmp(&a[q][j], &b[q][j], sizeof(float)) != 0) ++d.differ;
    return d;
}

// The GPU search (fp32) against the reference, top `k` (compared with the first k of the
// reference's top `kRef`, which the greedy exclusion makes identical).
void compareSearch(const std::string& what, const SeriesSet& queries, const Series& reference, bool znorm,
                   bool absCost, const std::vector<int>& ks, int rowsPerLane = 0, int columnsPerStep = 0,
                   int minStartRounds = 0) {
    const Series ref = znorm ? znormalized(reference) : reference;
    const int kMax = *std::max_element(ks.begin(), ks.end());
    std::vector<std::vector<Match>> want;
    for (const Series& q : queries) want.push_back(reference::sdtwTopK(znorm ? znormalized(q) : q, ref, absCost, kMax));
    for (int k : ks) {
        Params p;
        p.metric = Metric::Sdtw;
        p.topk = k;
        p.znorm = znorm;
        p.cost = absCost ? Cost::Absolute : Cost::Squared;
        gpu::SdtwTiming tm;
        auto got = gpu::sdtwSearchBatch(queries, reference, p, &tm, gpu::SdtwPrecision::Fp32,
                                        gpu::SdtwOptions{rowsPerLane, false, columnsPerStep});
        double worst = 0;
        bool ok = tm.startCostMismatches == 0 && got.size() == queries.size() && tm.startRounds >= minStartRounds;
        int printed = 0;
        for (std::size_t q = 0; q < queries.size() && q < got.size(); ++q) {
            const std::size_t nWant = std::min<std::size_t>(k, want[q].size());
            if (got[q].size() != nWant) {
                ok = false;
                std::printf("  query %zu (n=%zu): %zu matches, reference %zu\n", q, queries[q].length, got[q].size(), nWant);
                continue;
            }
            for (std::size_t i = 0; i < nWant; ++i) {
                const Match& g = got[q][i];
                const Match& w = want[q][i];
                worst = std::max(worst, relErr(g.cost, w.cost));
                if (g.start != w.start || g.end != w.end || relErr(g.cost, w.cost) > 2e-4) {
                    ok = false;
                    if (printed++ < 12)
                        std::printf("  query %zu (n=%zu) match %zu: gpu [%zu,%zu] cost %.9g, reference [%zu,%zu] cost %.9g\n", q,
                                    queries[q].length, i, g.start, g.end, g.cost, w.start, w.end, w.cost);
                }
            }
        }
        if (tm.startCostMismatches)
            std::printf("  %d window costs differ from the pass's (the windows must reproduce it bit for bit)\n",
                        tm.startCostMismatches);
        report(ok && worst <= 2e-4,
               what + (rowsPerLane ? ", " + std::to_string(rowsPerLane) + " rows per lane" : std::string()) +
                   (columnsPerStep ? ", " + std::to_string(columnsPerStep) + " columns per step" : std::string()) + ", top-" +
                   std::to_string(k) + (znorm ? ", z-norm" : "") + (absCost ? ", abs" : ", sq") + " (" +
                   std::to_string(tm.startRounds) + " start-span rounds)",
               worst);
    }
}

void testFp32() {
    std::mt19937 rng(11);
    const Series reference = randomSeries(rng, 20000);
    SeriesSet queries;
    for (std::size_t n : {1, 2, 31, 33, 127, 1000, 2000, 4097}) queries.push_back(randomSeries(rng, n));
    for (bool znorm : {false, true})
        for (bool absCost : {false, true})
            compareSearch("sdtw 8 queries (1..4097) in 20000", queries, reference, znorm, absCost, {1, 5});

    const Series big = randomSeries(rng, 100000);
    SeriesSet bigQueries{randomSeries(rng, 127), randomSeries(rng, 2000)};
    compareSearch("sdtw 2 queries (127, 2000) in 100000", bigQueries, big, true, false, {5});

    // Ties: integer stairs; queries cut from the reference (exact matches, cost 0 at several
    // places) and fresh ones.
    const Series stairs = stairSeries(rng, 20000);
    SeriesSet tieQueries;
    for (std::size_t n : {1, 2, 31, 33, 127, 1000}) tieQueries.push_back(stairSeries(rng, n));
    for (std::size_t n : {31, 127}) {
        std::vector<float> cut(stairs.values.begin() + 5000, stairs.values.begin() + 5000 + long(n));
        tieQueries.push_back(Series(std::move(cut)));
    }
    for (bool absCost : {false, true}) compareSearch("sdtw ties: integer stairs in 20000", tieQueries, stairs, false, absCost, {1, 5});

    // Paths wider than the first start span: the query's samples each three times (cost 0,
    // the path spans 3n - 2 columns), so the fp32 start span (about n + 128 columns) reports a
    // path from left of it and is widened (at least 2 rounds); its start is a tie (the first
    // three columns match row 0 at cost 0), decided by the tie order.
    {
        std::vector<float> slow;
        const Series q = randomSeries(rng, 300);
        for (float v : q.values) slow.insert(slow.end(), 3, v);
        std::vector<float> withSlow = randomSeries(rng, 20000).values;
        std::copy(slow.begin(), slow.end(), withSlow.begin() + 8000);
        compareSearch("sdtw query stretched 3x in 20000 (start spans widened)", SeriesSet{q}, Series(std::move(withSlow)),
                      false, false, {1, 5}, 0, 0, 2);
    }
    // Equal costs in several places: one stairs query copied at ends on both sides of the top-k's
    // segment bounds (1024 columns), cost 0 at each; top-5 takes them in column order.
    {
        const Series q = stairSeries(rng, 31);
        std::vector<float> v = stairSeries(rng, 20000).values;
        for (std::size_t at : {1000, 2040, 4096, 9000, 9100}) std::copy(q.values.begin(), q.values.end(), v.begin() + long(at));
        const Series places(std::move(v));
        for (bool absCost : {false, true})
            compareSearch("sdtw ties: one query at 5 places across top-k segments", SeriesSet{q}, places, false, absCost,
                          {1, 5});
    }

    // A reference shorter than the query (and one of a single sample).
    SeriesSet longQueries{randomSeries(rng, 1000), randomSeries(rng, 33)};
    compareSearch("sdtw reference (500) shorter than the query", longQueries, randomSeries(rng, 500), false, false, {1, 5});
    compareSearch("sdtw reference of 1 sample", longQueries, randomSeries(rng, 1), true, false, {1});

    // Four and eight columns per step: references whose width is not a multiple of the step
    // (the last step is partial), shorter than the query, of 1 to 3 samples.
    for (auto [rows, cols] : std::vector<std::pair<int, int>>{{16, 4}, {32, 4}, {16, 8}, {32, 8}}) {
        compareSearch("sdtw 8 queries (1..4097) in 20003", queries, randomSeries(rng, 20003), true, false, {1, 5}, rows, cols);
        compareSearch("sdtw ties: integer stairs in 20000", tieQueries, stairs, false, true, {5}, rows, cols);
        compareSearch("sdtw reference (501) shorter than the query", longQueries, randomSeries(rng, 501), false, false,
                      {1, 5}, rows, cols);
        for (std::size_t m : {1, 2, 3, 7})
            compareSearch("sdtw reference of " + std::to_string(m) + " samples", longQueries, randomSeries(rng, m), true,
                          false, {1}, rows, cols);
    }
}

// The segment width (rows per lane: 2, 4, 8, 16, 32) changes which lane computes a cell, never
// its operations, and the two-kernel z-normaliser computes what the fused one does: every
// choice gives the same last row bit for bit (the lean pass against stripeKernel where a query
// is too long for the lean pass at one width but not another), and the reference's matches.
// Random walks of awkward lengths and ECG200 (real data).
void testRowsSweep(const std::string& dataDir) {
    std::mt19937 rng(31);
    SeriesSet queries;
    for (std::size_t n : {1, 7, 33, 500, 2000, 4097, 6000}) queries.push_back(randomSeries(rng, n));
    const Series reference = randomSeries(rng, 30001);
    // Lengths that are multiples of 32: at 8 columns per step the lean pass takes its form
    // without the difference factors (the virtual rows fill whole lanes, which hand zeros down).
    // Against 2 columns per step, which keeps the factors: the same last rows, bit for bit.
    SeriesSet whole;
    for (std::size_t n : {32, 96, 512, 2016, 4096}) whole.push_back(randomSeries(rng, n));
    for (bool absCost : {false, true}) {
        Params p;
        p.metric = Metric::Sdtw;
        p.znorm = true;
        p.cost = absCost ? Cost::Absolute : Cost::Squared;
        for (gpu::SdtwPrecision prec : {gpu::SdtwPrecision::Fp32, gpu::SdtwPrecision::Half2}) {
            const auto base = gpu::sdtwLastRows(queries, reference, p, prec, gpu::SdtwOptions{16, false});
            // {rows, columns per step}; rows -1: the chosen width with the two-kernel
            // z-normaliser (the same values).
            for (auto [rows, cols] : std::vector<std::pair<int, int>>{{2, 2}, {4, 2}, {8, 2}, {32, 2}, {-1, 0}, {16, 4}, {32, 4}, {0, 4}, {16, 8}, {32, 8}}) {
                const auto got = gpu::sdtwLastRows(queries, reference, p, prec,
                                                   gpu::SdtwOptions{std::max(rows, 0), rows < 0, cols});
                const auto [differ, cells] = differingCells(base, got);
                if (differ) std::printf("  %zu of %zu cells differ\n", differ, cells);
                report(differ == 0 && cells == queries.size() * reference.length,
                       std::string(prec == gpu::SdtwPrecision::Half2 ? "half2" : "fp32") + (absCost ? " abs" : " sq") +
                           (rows < 0 ? std::string(" last rows with the two-kernel z-normaliser")
                                     : " last rows at " + std::to_string(rows) + " rows per lane, " +
                                           std::to_string(cols) + " columns per step") +
                           " == at 16 rows, fused z-norm, bit for bit (7 queries of 1..6000 in 30001)",
                       double(differ));
            }
            for (int rows : {16, 32}) {
                const auto factors = gpu::sdtwLastRows(whole, reference, p, prec, gpu::SdtwOptions{rows, false, 2});
                const auto got = gpu::sdtwLastRows(whole, reference, p, prec, gpu::SdtwOptions{rows, false, 8});
                const auto [differ, cells] = differingCells(factors, got);
                if (differ) std::printf("  %zu of %zu cells differ\n", differ, cells);
                report(differ == 0 && cells == whole.size() * reference.length,
                       std::string(prec == gpu::SdtwPrecision::Half2 ? "half2" : "fp32") + (absCost ? " abs" : " sq") +
                           " whole lanes (5 queries of 32..4096) at " + std::to_string(rows) +
                           " rows, 8 columns per step == 2 columns per step (with the factors), bit for bit",
                       double(differ));
            }
        }
    }
    for (int rows : {16, 32})
        compareSearch("sdtw whole lanes: 5 queries (32..4096) in 30001", whole, reference, true, false, {1, 5}, rows, 8);
    SeriesSet few{queries[2], queries[4], queries[5]};
    for (int rows : {2, 4, 8, 16, 32}) compareSearch("sdtw 3 queries (33, 2000, 4097) in 30001", few, reference, true, false, {5}, rows);
    for (auto [rows, cols] : std::vector<std::pair<int, int>>{{16, 4}, {32, 4}, {16, 8}, {32, 8}})
        compareSearch("sdtw 3 queries (33, 2000, 4097) in 30001", few, reference, true, false, {5}, rows, cols);
    const SeriesSet train = readUcr(dataDir + "/ucr/ECG200/ECG200_TRAIN.txt");
    const SeriesSet test = readUcr(dataDir + "/ucr/ECG200/ECG200_TEST.txt");
    if (train.empty() || test.size() < 8) {
        report(false, "ECG200 not found under " + dataDir + "/ucr/ECG200", 0);
        return;
    }
    std::vector<float> joined;
    for (const Series& s : train) joined.insert(joined.end(), s.values.begin(), s.values.end());
    const SeriesSet q(test.begin(), test.begin() + 8);
    for (int rows : {2, 4, 8, 16, 32})
        for (bool absCost : {false, true})
            compareSearch("ECG200: 8 test series in the joined training set", q, Series(joined), true, absCost, {1, 5}, rows);
    for (auto [rows, cols] : std::vector<std::pair<int, int>>{{16, 4}, {32, 4}, {16, 8}, {32, 8}})
        for (bool absCost : {false, true})
            compareSearch("ECG200: 8 test series in the joined training set", q, Series(joined), true, absCost, {1, 5}, rows, cols);
    bool refused = false;
    try {
        Params p;
        p.metric = Metric::Sdtw;
        gpu::sdtwSearchBatch(q, Series(joined), p, nullptr, gpu::SdtwPrecision::Fp32, gpu::SdtwOptions{12, false});
    } catch (const EngineError& e) {
        refused = e.isBadInput();
    }
    report(refused, "12 rows per lane is refused (BadInput)", 0);
    for (auto [rows, cols] : std::vector<std::pair<int, int>>{{16, 3}, {8, 4}, {8, 8}}) {
        refused = false;
        try {
            Params p;
            p.metric = Metric::Sdtw;
            gpu::sdtwSearchBatch(q, Series(joined), p, nullptr, gpu::SdtwPrecision::Fp32, gpu::SdtwOptions{rows, false, cols});
        } catch (const EngineError& e) {
            refused = e.isBadInput();
        }
        report(refused, std::to_string(cols) + " columns per step at " + std::to_string(rows) + " rows per lane is refused (BadInput)", 0);
    }
}

// One sample per line (the Bonn EEG segments); empty when the file is missing.
// Reference stretches (SdtwOptions::stretches): the pass cut into stretches, each after the
// first re-swept from the exact column before it, must give the unsplit pass's last rows bit
// for bit, hence its matches (starts from the same checkpoints). Stretch counts from 2 to one
// per checkpoint (128 columns, far shorter than the queries: no window agrees inside its
// stretch, so every stretch waits for the one before it), the batch's own choice (0), queries
// too long for the lean pass (stripeKernel), exact ties, and real EEG (the Bonn segments,
// seizure and seizure-free, joined end to end).
void compareStretched(const std::string& what, const SeriesSet& queries, const Series& reference, bool znorm,
                      bool absCost, const std::vector<int>& counts, int maxWaves = 0) {
    Params p;
    p.metric = Metric::Sdtw;
    p.znorm = znorm;
    p.topk = 5;
    p.cost = absCost ? Cost::Absolute : Cost::Squared;
    gpu::SdtwOptions whole;
    whole.stretches = 1;
    const auto baseRows = gpu::sdtwLastRows(queries, reference, p, gpu::SdtwPrecision::Fp32, whole);
    const auto baseMatches = gpu::sdtwSearchBatch(queries, reference, p, nullptr, gpu::SdtwPrecision::Fp32, whole);
    for (int count : counts) {
        gpu::SdtwOptions o;
        o.stretches = count;
        o.maxReseedWaves = maxWaves;
        const auto rows = gpu::sdtwLastRows(queries, reference, p, gpu::SdtwPrecision::Fp32, o);
        gpu::SdtwTiming tm;
        const auto matches = gpu::sdtwSearchBatch(queries, reference, p, &tm, gpu::SdtwPrecision::Fp32, o);
        const auto [differ, cells] = differingCells(baseRows, rows);
        std::size_t matchDiffer = 0;
        for (std::size_t q = 0; q < baseMatches.size(); ++q) {
            if (q >= matches.size() || matches[q].size() != baseMatches[q].size()) {
                ++matchDiffer;
                continue;
            }
            for (std::size_t i = 0; i < matches[q].size(); ++i) {
                const Match &g = matches[q][i], &w = baseMatches[q][i];
                if (g.start != w.start || g.end != w.end || std::memcmp(&g.cost, &w.cost, sizeof(double)) != 0) {
                    if (matchDiffer++ < 6)
                        std::printf("  query %zu match %zu: stretched [%zu,%zu] %.9g, whole [%zu,%zu] %.9g\n", q, i,
                                    g.start, g.end, g.cost, w.start, w.end, w.cost);
                }
            }
        }
        if (differ) std::printf("  %zu of %zu last-row cells differ\n", differ, cells);
        std::printf("  %s: %d stretches, %d re-sweep waves, %.3g re-swept cells (%.2f%% of %.3g)\n", what.c_str(),
                    tm.stretches, tm.reseedWaves, double(tm.reseedCells), 100.0 * double(tm.reseedCells) / double(tm.cells),
                    double(tm.cells));
        report(differ == 0 && matchDiffer == 0 && cells == queries.size() * reference.length &&
                   tm.startCostMismatches == 0 && (count == 0 || tm.stretches > 1) && (maxWaves >= 0 || tm.sweptInOrder),
               what + ", " + (count ? std::to_string(count) : std::string("chosen")) + " stretches (" +
                   std::to_string(tm.stretches) + ", " + std::to_string(tm.reseedWaves) + " waves" +
                   (tm.sweptInOrder ? ", the rest swept in order" : "") + "): last rows and top-5 == unsplit, bit for bit",
               double(differ + matchDiffer));
    }
}

void testStretches(const std::string& dataDir) {
    // The batch's choice: whole where 8 warps per multiprocessor are there already (the
    // published 512 x 2000), else about 32 warps per multiprocessor, stretches of >= 16 query
    // lengths (132 multiprocessors: an H100).
    const int published = gpu::sdtwStretchCount(100000, 2000, 512, 132);
    const int oneLong = gpu::sdtwStretchCount(36864000, 256, 1, 132);
    const int oneShort = gpu::sdtwStretchCount(30000, 1000, 1, 132);
    const int sixteen = gpu::sdtwStretchCount(36864000, 256, 16, 132);
    std::printf("  stretches chosen: 512 x 2000 in 100000: %d; 1 x 256 in 36864000: %d; 16 x 256: %d; 1 x 1000 in 30000: %d\n",
                published, oneLong, sixteen, oneShort);
    report(published == 1 && oneLong == 4224 && sixteen == 264 && oneShort == 1,
           "stretch counts chosen per batch (1, 4224, 264, 1)", 0);
    std::mt19937 rng(41);
    const Series walk = randomSeries(rng, 200003);
    for (std::size_t n : {33, 256, 1000}) {
        SeriesSet one{randomSeries(rng, n)};
        compareStretched("random walk, 1 query of " + std::to_string(n) + " in 200003", one, walk, true, false,
                         {0, 2, 7, 64});
    }
    compareStretched("random walk, 1 query of 300 in 200003, abs", SeriesSet{randomSeries(rng, 300)}, walk, true, true,
                     {0, 5});
    // One stretch per checkpoint: 128 columns, shorter than the queries.
    compareStretched("random walk, 2 queries (200, 700) in 30000",
                     SeriesSet{randomSeries(rng, 200), randomSeries(rng, 700)}, randomSeries(rng, 30000), true, false,
                     {30000 / 128});
    // The re-sweeps cut short (none, 3 waves), the rest swept in order from the first stretch
    // not yet exact: the bound for signals whose columns never agree.
    compareStretched("random walk, 1 query of 256 in 200003, no waves", SeriesSet{randomSeries(rng, 256)}, walk, true,
                     false, {64}, -1);
    compareStretched("random walk, 2 queries (200, 700) in 30000, 3 waves",
                     SeriesSet{randomSeries(rng, 200), randomSeries(rng, 700)}, randomSeries(rng, 30000), true, false,
                     {30000 / 128}, 3);
    // Beyond the lean pass at every width (stripeKernel).
    compareStretched("random walk, 1 query of 9000 in 200003", SeriesSet{randomSeries(rng, 9000)}, walk, true, false,
                     {0, 3});
    // Exact ties: integer stairs, a query cut from the reference (cost 0 at several places).
    const Series stairs = stairSeries(rng, 60000);
    SeriesSet tie{Series(std::vector<float>(stairs.values.begin() + 20000, stairs.values.begin() + 20127)),
                  stairSeries(rng, 300)};
    compareStretched("integer stairs, 2 queries in 60000", tie, stairs, false, false, {0, 9, 60000 / 128});

    // Real EEG: every Bonn segment joined (seizure-free Z and F, seizure S), queries cut from S001.
    std::vector<float> s001;
    const std::vector<float> joined = bonnJoined(dataDir, {"Z", "F", "S"}, &s001);
    if (s001.size() < 2200 || joined.size() < 40000) {
        report(false, "the Bonn EEG segments not found under " + dataDir + "/bonn", 0);
        return;
    }
    SeriesSet eegQ{Series(std::vector<float>(s001.begin() + 1000, s001.begin() + 1256)),
                   Series(std::vector<float>(s001.begin() + 2000, s001.begin() + 2173))};
    compareStretched("Bonn EEG, 2 queries from S001 in " + std::to_string(joined.size()) + " samples", eegQ,
                     Series(joined), true, false, {0, 4, int(joined.size() / 128)});
    compareStretched("Bonn EEG, raw, abs", eegQ, Series(joined), false, true, {0, 11});
}

// Self-exclusion through Engine::search on the GPU (fp32: the excluded ends masked on the
// device before the top-k rounds) against the double reference with the same ends excluded:
// starts and ends equal, costs within 2e-4 relative. A query cut from a random walk (its own
// place the best match, excluded) and one cut from the Bonn seizure segments, top-5.
void testExcluded(const std::string& dataDir) {
    auto check = [](const std::string& what, const Series& y, std::size_t at, std::size_t n) {
        const Series q(std::vector<float>(y.values.begin() + std::ptrdiff_t(at), y.values.begin() + std::ptrdiff_t(at + n)));
        Params p;
        p.metric = Metric::Sdtw;
        p.znorm = true;
        p.topk = 5;
        SearchScope scope;
        scope.excluded = {exclusionZone(at + n - 1, n)};
        RunOptions gpuRun;
        gpuRun.backend = Backend::Cuda;
        const auto got = Engine::search(q, y, p, gpuRun, scope);
        const auto want = reference::sdtwTopK(znormalized(q), znormalized(y), false, 5, scope.excluded);
        double worst = 0;
        bool same = got.size() == want.size() && !got.empty();
        for (std::size_t i = 0; same && i < got.size(); ++i) {
            same = got[i].start == want[i].start && got[i].end == want[i].end &&
                   (got[i].end < scope.excluded[0].first || got[i].end > scope.excluded[0].second);
            worst = std::max(worst, relErr(got[i].cost, want[i].cost));
        }
        report(same && worst <= 2e-4, what + ": self-excluded GPU search == double reference (top-5, ends outside " +
                                          std::to_string(scope.excluded[0].first) + ".." +
                                          std::to_string(scope.excluded[0].second) + ")",
               worst);
    };
    std::mt19937 rng(63);
    check("random walk 200003, query of 256 cut at 100000", randomSeries(rng, 200003), 100000, 256);
    const std::vector<float> seizure = bonnJoined(dataDir, {"S"});
    if (seizure.size() < 20000) {
        report(false, "the Bonn seizure segments not found under " + dataDir + "/bonn/S", 0);
        return;
    }
    check("Bonn S001-S005 joined, query of 173 cut at 8000", Series(seizure), 8000, 173);
}

struct RowError {
    double median = 0, max = 0;
};

RowError rowError(const std::vector<std::vector<float>>& half, const std::vector<std::vector<float>>& full) {
    std::vector<double> e;
    for (std::size_t q = 0; q < full.size(); ++q)
        for (std::size_t j = 0; j < full[q].size(); ++j) e.push_back(relErr(half[q][j], full[q][j]));
    std::sort(e.begin(), e.end());
    return {e.empty() ? 0 : e[e.size() / 2], e.empty() ? 0 : e.back()};
}

// half2 against fp32 on one batch: the cost row's relative error (median, max), how many
// top-5 ends differ, and whether each half2 match's cost is the fp32 row's value at its end.
void compareHalf2(const std::string& what, const SeriesSet& queries, const Series& reference, double medianBound) {
    Params p;
    p.metric = Metric::Sdtw;
    p.znorm = true;
    p.topk = 5;
    const auto full = gpu::sdtwLastRows(queries, reference, p, gpu::SdtwPrecision::Fp32);
    const auto half = gpu::sdtwLastRows(queries, reference, p, gpu::SdtwPrecision::Half2);
    const RowError re = rowError(half, full);
    const auto f = gpu::sdtwSearchBatch(queries, reference, p, nullptr, gpu::SdtwPrecision::Fp32);
    const auto h = gpu::sdtwSearchBatch(queries, reference, p, nullptr, gpu::SdtwPrecision::Half2);
    int ends = 0, endsDiffer = 0, top1Differ = 0, exact = 0;
    for (std::size_t q = 0; q < queries.size(); ++q) {
        for (std::size_t i = 0; i < h[q].size(); ++i) {
            ++ends;
            const bool found = std::any_of(f[q].begin(), f[q].end(), [&](const Match& m) { return m.end == h[q][i].end; });
            if (!found) ++endsDiffer;
            if (float(h[q][i].cost) == full[q][h[q][i].end]) ++exact;
        }
        if (h[q].empty() || f[q].empty() || h[q][0].end != f[q][0].end) ++top1Differ;
    }
    std::printf("  %s: half2 cost row vs fp32: median rel. error %.3g, max %.3g; top-5 ends not in fp32's top-5: %d of %d; "
                "top-1 ends differing: %d of %zu; half2 match costs equal to the fp32 row at their end: %d of %d\n",
                what.c_str(), re.median, re.max, endsDiffer, ends, top1Differ, queries.size(), exact, ends);
    // Stated bounds: the row's median relative error (checked where half precision is meant
    // to be used, queries of ~100 samples; printed for the long ones) and fp32-exact costs at
    // half2's ends for at least 99% of the matches (a path spanning more than 2n columns is
    // the only way to miss).
    report((medianBound <= 0 || re.median <= medianBound) && exact * 100 >= ends * 99,
           "half2 " + what + (medianBound > 0 ? ": row median rel. error <= " + std::to_string(medianBound) : std::string()) +
               ", >= 99% fp32-exact match costs",
           re.median);
}

// A half2 match's start and cost are the fp32 DP's over its start span: the columns
// [e + 1 - sdtwHalf2Span(n), e] from a +inf column before them, with the kernels' operations (c =
// x - y, fma(c, c, min) or |c| + min) and METRICS.md's tie order (diagonal, up, left), so they
// are recomputed here in float and compared bit for bit. Raw samples (no z-normalisation: the
// device's would differ from the host's in the last bit).
struct SpanEnd {
    float cost = 0;
    long start = -1;
};
SpanEnd spanEnd(const Series& x, const Series& y, std::size_t a, std::size_t e, bool absCost) {
    const std::size_t n = x.length;
    std::vector<float> prev(n, INFINITY), cur(n);
    std::vector<long> sPrev(n, -1), sCur(n);
    for (std::size_t j = a; j <= e; ++j) {
        for (std::size_t i = 0; i < n; ++i) {
            const float c = x.values[i] - y.values[j];
            const float up = i ? cur[i - 1] : 0.f, left = prev[i], diag = i ? prev[i - 1] : 0.f;
            const long sUp = i ? sCur[i - 1] : long(j), sLeft = sPrev[i], sDiag = i ? sPrev[i - 1] : long(j);
            const float mn = std::fmin(std::fmin(up, left), diag);
            cur[i] = absCost ? std::fabs(c) + mn : std::fma(c, c, mn);
            sCur[i] = diag == mn ? sDiag : (up == mn ? sUp : sLeft);
        }
        std::swap(prev, cur);
        std::swap(sPrev, sCur);
    }
    return {prev[n - 1], sPrev[n - 1]};
}

void checkHalf2Spans(const std::string& what, const SeriesSet& queries, const Series& reference, bool absCost,
                     int minStartRounds) {
    Params p;
    p.metric = Metric::Sdtw;
    p.topk = 5;
    p.cost = absCost ? Cost::Absolute : Cost::Squared;
    gpu::SdtwTiming tm;
    const auto got = gpu::sdtwSearchBatch(queries, reference, p, &tm, gpu::SdtwPrecision::Half2);
    int matches = 0, differ = 0;
    for (std::size_t q = 0; q < queries.size() && q < got.size(); ++q)
        for (const Match& g : got[q]) {
            ++matches;
            const long span = gpu::sdtwHalf2Span(int(queries[q].length));
            const std::size_t a = std::size_t(std::max(0L, long(g.end) + 1 - span));
            const SpanEnd want = spanEnd(queries[q], reference, a, g.end, absCost);
            if (float(g.cost) != want.cost || long(g.start) != want.start) {
                if (differ++ < 6)
                    std::printf("  query %zu (n=%zu): half2 [%zu,%zu] %.9g, its span in float [%ld,%zu] %.9g\n", q,
                                queries[q].length, g.start, g.end, g.cost, want.start, g.end, double(want.cost));
            }
        }
    report(differ == 0 && matches > 0 && tm.startRounds >= minStartRounds,
           "half2 " + what + (absCost ? ", abs" : ", sq") + ": starts and costs == the float DP over each start span (" +
               std::to_string(matches) + " matches, " + std::to_string(tm.startRounds) + " start-span rounds)",
           double(differ));
}

void testHalf2(const std::string& dataDir) {
    std::mt19937 rng(23);
    SeriesSet shortQ, longQ;
    for (int i = 0; i < 32; ++i) shortQ.push_back(randomSeries(rng, 128));
    for (int i = 0; i < 8; ++i) longQ.push_back(randomSeries(rng, 2000));
    const Series ref = randomSeries(rng, 20000);
    compareHalf2("random walks, 32 queries of 128 in 20000", shortQ, ref, 0.05);
    compareHalf2("random walks, 8 queries of 2000 in 100000", longQ, randomSeries(rng, 100000), 0);

    // Real data: ECG200 (UCR), the first 16 test series as queries in the 100 training
    // series joined end to end (9,600 samples).
    const SeriesSet train = readUcr(dataDir + "/ucr/ECG200/ECG200_TRAIN.txt");
    const SeriesSet test = readUcr(dataDir + "/ucr/ECG200/ECG200_TEST.txt");
    if (train.empty() || test.size() < 16) {
        report(false, "ECG200 not found under " + dataDir + "/ucr/ECG200", 0);
    } else {
        std::vector<float> joined;
        for (const Series& s : train) joined.insert(joined.end(), s.values.begin(), s.values.end());
        SeriesSet q(test.begin(), test.begin() + 16);
        compareHalf2("ECG200, 16 test series in the joined training set", q, Series(std::move(joined)), 0.05);
    }

    // Starts and costs of half2 matches over their start spans, which track starts over their
    // last n + 128 columns first: random walks (queries of 128, whose spans are tracked whole, and
    // of 1000), and a query whose samples each come twice in the reference (cost 0, the path
    // spans 2n - 1 columns: beyond the tracked columns, so its span runs again, all tracked).
    {
        SeriesSet qs;
        for (int i = 0; i < 4; ++i) qs.push_back(randomSeries(rng, 128));
        for (int i = 0; i < 2; ++i) qs.push_back(randomSeries(rng, 1000));
        const Series q = randomSeries(rng, 300);
        std::vector<float> v = randomSeries(rng, 30000).values;
        for (std::size_t i = 0; i < q.length; ++i) v[12000 + 2 * i] = v[12000 + 2 * i + 1] = q.values[i];
        qs.push_back(q);
        const Series withSlow(std::move(v));
        for (bool absCost : {false, true})
            checkHalf2Spans("7 queries (128, 1000, 300 at half speed) in 30000", qs, withSlow, absCost, 2);
    }

    // The fp32 path is unchanged by the half2 one: still the reference (one config).
    SeriesSet few{randomSeries(rng, 127), randomSeries(rng, 1000)};
    compareSearch("sdtw fp32 after half2", few, randomSeries(rng, 20000), true, false, {5});

    // Half2 without z-normalisation refuses samples half cannot hold.
    Params p;
    p.metric = Metric::Sdtw;
    bool refused = false;
    try {
        std::vector<float> big(100, 1e6f);
        gpu::sdtwSearchBatch(SeriesSet{Series(std::vector<float>(10, 1.f))}, Series(std::move(big)), p, nullptr,
                             gpu::SdtwPrecision::Half2);
    } catch (const EngineError& e) {
        refused = e.isBadInput();
    }
    report(refused, "half2 without z-norm refuses samples beyond +-32000 (BadInput)", 0);
    // A caller that has not checked the reference (SdtwOptions::referenceChecked false, the
    // default; the engine sets it after its own checkSeries) gets its NaN named.
    refused = false;
    try {
        std::vector<float> withNan(100, 1.f);
        withNan[41] = std::numeric_limits<float>::quiet_NaN();
        gpu::sdtwSearchBatch(SeriesSet{Series(std::vector<float>(10, 1.f))}, Series(std::move(withNan)), p);
    } catch (const EngineError& e) {
        refused = e.isBadInput() && std::string(e.what()).find("sample 41 is NaN") != std::string::npos;
    }
    report(refused, "a NaN in the reference is refused, its sample named (BadInput)", 0);
}

}  // namespace

int main(int argc, char** argv) {
    if (!gpu::available()) {
        std::printf("SKIP: GPU sdtw tests not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::string dataDir = WARPLAB_TEST_DATA;
    if (argc > 1) dataDir = argv[1];
    std::printf("GPU sdtw tests on %s\n", gpu::deviceName().c_str());
    try {
        testFp32();
        testStretches(dataDir);
        testExcluded(dataDir);
        testRowsSweep(dataDir);
        testHalf2(dataDir);
    } catch (const std::exception& e) {
        report(false, std::string("unexpected exception: ") + e.what(), 0);
    }
    return finish();
}
