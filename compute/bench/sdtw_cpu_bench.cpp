// CPU rows of the subsequence-search benchmark (sdtw_cpu_bench.h).
#include "compute/bench/sdtw_cpu_bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include <tbb/task_arena.h>

#include "compute/engine/engine.h"

namespace warplab::compute {

namespace {

// The device row's inputs (compute/gpu/bench/gpu_bench.cu): AR(1) series from one generator,
// the queries first, then the reference.
void inputs(const BenchConfig& c, std::size_t queryLength, SeriesSet& queries, Series& reference) {
    std::mt19937_64 rng(c.seed);
    std::normal_distribution<float> step(0.f, 1.f);
    auto one = [&](std::size_t n) {
        std::vector<float> v(n);
        float x = 0;
        for (auto& s : v) { x = 0.9f * x + step(rng); s = x; }
        return Series(std::move(v));
    };
    queries.clear();
    for (int q = 0; q < c.searchQueries; ++q) queries.push_back(one(queryLength));
    reference = one(std::size_t(c.referenceLength));
}

}  // namespace

BenchRow runCpuSdtwBench(const BenchConfig& config, std::size_t queryLength, int queries, const std::string& kernel) {
    BenchRow row;
    row.kernel = kernel;
    row.metric = "sdtw";
    row.length = queryLength;
    row.energy = EnergyFigure{0, 0, 0, kCpuEnergyNote};
    SeriesSet qs;
    Series ref;
    inputs(config, queryLength, qs, ref);
    queries = std::max(1, std::min(queries, int(qs.size())));
    row.pairs = std::size_t(queries);
    Params p;
    p.metric = Metric::Sdtw;
    p.topk = config.topk;
    p.znorm = config.params.znorm;
    RunOptions o;
    o.backend = Backend::Cpu;
    o.threads = config.threads;
    o.cancel = config.cancel;
    if (kernel == "cpu.reference") o.kernel = kernel;
    std::vector<std::vector<Match>> got(static_cast<std::size_t>(queries));
    std::vector<double> times;
    for (int rep = -1; rep < config.repeats; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int q = 0; q < queries; ++q) got[std::size_t(q)] = Engine::search(qs[std::size_t(q)], ref, p, o);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rep >= 0) times.push_back(s);  // the first run warms caches and the thread pool
    }
    std::sort(times.begin(), times.end());
    row.median_s = times[times.size() / 2];
    const double cells = double(queries) * double(queryLength) * double(ref.length);
    row.cells_per_s = cells / row.median_s;
    row.distances_per_s = double(queries) / row.median_s;
    int moved = 0;
    if (kernel != "cpu.reference") {
        RunOptions r = o;
        r.kernel = "cpu.reference";
        for (int q = 0; q < queries; ++q) {
            const auto want = Engine::search(qs[std::size_t(q)], ref, p, r);
            const auto& have = got[std::size_t(q)];
            for (std::size_t i = 0; i < want.size() && i < have.size(); ++i) {
                row.max_rel_error = std::max(row.max_rel_error, std::fabs(have[i].cost - want[i].cost) /
                                                                    std::max(std::fabs(want[i].cost), 1e-300));
                if (have[i].start != want[i].start || have[i].end != want[i].end) ++moved;
            }
            if (have.size() != want.size()) ++moved;
        }
    }
    const int threads = config.threads > 0 ? config.threads : tbb::this_task_arena::max_concurrency();
    row.note = std::to_string(queries) + " of the " + std::to_string(qs.size()) + " queries x " +
               std::to_string(queryLength) + " in " + std::to_string(ref.length) + ", top-" + std::to_string(p.topk) +
               (p.znorm ? ", z-norm" : "") +
               (kernel == "cpu.reference" ? "; one core, double (the reference)"
                                          : "; " + std::to_string(threads) +
                                                " threads: parallel stretches of the double recurrence, chained "
                                                "exactly; matches vs cpu.reference: " +
                                                (moved ? std::to_string(moved) + " differ" : "identical")) +
               "; wall time of the engine call, median of " + std::to_string(times.size());
    return row;
}

}  // namespace warplab::compute
