// runBench: random series from a fixed seed, every chosen kernel timed through the engine on
// the same inputs, errors measured against cpu.reference on a deterministic subset of pairs.
#include "compute/bench/bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"
#include "compute/registry/registry.h"

namespace warplab::compute {

namespace {

using K = EngineError::Kind;

SeriesSet randomSet(std::size_t count, std::size_t length, std::mt19937_64& rng) {
    // A random walk looks more like EEG than white noise and keeps warping paths non-trivial.
    std::normal_distribution<float> step(0.0f, 1.0f);
    SeriesSet set(count);
    for (std::size_t s = 0; s < count; ++s) {
        std::vector<float> v(length);
        float x = 0;
        for (auto& e : v) e = (x += step(rng));
        set[s] = Series(std::move(v), 1, "s" + std::to_string(s));
    }
    return set;
}

std::vector<Kernel*> chosenKernels(const BenchConfig& cfg, std::vector<std::string>& missing) {
    auto& reg = KernelRegistry::instance();
    const bool all = cfg.kernels.empty() || (cfg.kernels.size() == 1 && cfg.kernels[0] == "all");
    std::vector<Kernel*> out;
    if (all) return reg.forMetric(cfg.params.metric);
    for (const auto& name : cfg.kernels) {
        if (Kernel* k = reg.find(name)) out.push_back(k);
        else missing.push_back(name);
    }
    return out;
}

// Only GPU boards have an energy counter; a HIP kernel's boards come with the HIP reason.
EnergyMeter energyMeterFor(const Kernel& k, const EnergyBoards& gpuBoards) {
    if (k.backend() == Backend::Cpu) return EnergyMeter(kCpuEnergyNote);
    return openEnergyMeter(gpuBoards);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

BenchTable runBench(const BenchConfig& cfg) {
    validate(cfg.params);
    if (cfg.repeats < 1) throw EngineError(K::BadParameter, "repeats", "must be >= 1");
    if (cfg.lengths.empty()) throw EngineError(K::BadParameter, "lengths", "no lengths given");
    for (std::size_t len : cfg.lengths)
        if (len == 0) throw EngineError(K::BadParameter, "lengths", "a length must be >= 1");
    if (cfg.series == 1 || (cfg.series == 0 && cfg.pairs == 0))
        throw EngineError(K::BadParameter, cfg.series ? "series" : "pairs", "needs at least one pair");

    const Metric metric = cfg.params.metric;
    const std::string metricStr(metricName(metric));
    std::vector<std::string> missing;
    std::vector<Kernel*> kernels = chosenKernels(cfg, missing);
    BenchTable table;
    const int band = metric == Metric::Cdtw ? cfg.params.band : 0;
    for (const auto& name : missing)
        for (std::size_t len : cfg.lengths)
            table.push_back(BenchRow{name, metricStr, len, 0, band, 0, 0, 0, 0, "no kernel of this name"});

    const double steps = double(cfg.lengths.size() * std::max<std::size_t>(1, kernels.size()));
    double stepsDone = 0;
    for (std::size_t len : cfg.lengths) {
        // Inputs: all pairs of `series`, or a queries x targets block of about `pairs`.
        std::mt19937_64 rng(cfg.seed + len);
        const bool symmetric = cfg.series > 0 && isSymmetric(metric);
        SeriesSet queries, targets;
        std::size_t pairs = 0;
        if (cfg.series > 0) {
            queries = randomSet(cfg.series, len, rng);
            pairs = symmetric ? cfg.series * (cfg.series - 1) / 2 : cfg.series * cfg.series;
        } else {
            const std::size_t q = std::max<std::size_t>(1, std::size_t(std::sqrt(double(cfg.pairs))));
            const std::size_t t = (cfg.pairs + q - 1) / q;
            queries = randomSet(q, len, rng);
            targets = randomSet(t, len, rng);
            pairs = q * t;
        }
        const SeriesSet* tptr = cfg.series > 0 ? nullptr : &targets;
        const SeriesSet& cols = tptr ? targets : queries;
        const std::uint64_t cellsPerPair = dpCells(metric, len, len, cfg.params.band);

        // Reference values on a deterministic subset: evenly spaced pairs in row-major order
        // (upper triangle only for a symmetric matrix).
        std::vector<std::pair<std::size_t, std::size_t>> subset;
        for (std::size_t r = 0; r < queries.size(); ++r)
            for (std::size_t c = symmetric ? r + 1 : 0; c < cols.size(); ++c) subset.emplace_back(r, c);
        const std::size_t want = std::min(subset.size(), std::max<std::size_t>(1, cfg.maxReferencePairs));
        std::vector<std::pair<std::size_t, std::size_t>> checked;
        for (std::size_t k = 0; k < want; ++k) checked.push_back(subset[k * subset.size() / want]);
        std::vector<double> refValues;
        Params prepared = cfg.params;
        SeriesSet qz = queries, tz = cols;
        if (cfg.params.znorm) {
            for (auto& s : qz) znormalizeInPlace(s);
            for (auto& s : tz) znormalizeInPlace(s);
        }
        // The reference pairs are independent: spread them over the cores (the same thread
        // count as the timed runs), checking for cancellation between pairs.
        refValues.assign(checked.size(), 0.0);
        tbb::task_arena arena(cfg.threads > 0 ? cfg.threads : tbb::task_arena::automatic);
        arena.execute([&] {
            tbb::parallel_for(std::size_t(0), checked.size(), [&](std::size_t k) {
                if (cfg.cancel && cfg.cancel->cancelled()) return;
                const double v = reference::rawDistance(qz[checked[k].first], tz[checked[k].second], prepared);
                refValues[k] = cfg.params.sqrt ? std::sqrt(v) : v;
            });
        });
        if (cfg.cancel && cfg.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled by the user");

        for (Kernel* k : kernels) {
            BenchRow row{k->name(), metricStr, len, pairs, band, 0, 0, 0, 0, {}};
            stepsDone += 1;
            if (!k->supports(metric)) { row.note = "does not compute " + metricStr; table.push_back(row); continue; }
            if (std::string why = k->unavailableReason(); !why.empty()) { row.note = "unavailable: " + why; table.push_back(row); continue; }
            RunOptions opt;
            opt.kernel = k->name();
            opt.threads = cfg.threads;
            opt.cancel = cfg.cancel;
            std::vector<double> times;
            DistanceMatrix dm;
            EnergyMeter meter = energyMeterFor(*k, cfg.gpuBoards);
            try {
                meter.start();
                for (int rep = 0; rep < cfg.repeats; ++rep) {
                    auto t0 = std::chrono::steady_clock::now();
                    dm = Engine::distanceMatrix(queries, tptr, cfg.params, opt);
                    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                }
                // The counter needs a longer window than fast runs give: more runs, energy only.
                std::size_t runs = std::size_t(cfg.repeats);
                for (; meter.wantsLongerWindow(); ++runs) Engine::distanceMatrix(queries, tptr, cfg.params, opt);
                row.energy = meter.stop(runs * pairs);
            } catch (const EngineError& e) {
                if (e.kind() == K::Cancelled) throw;
                row.note = std::string("failed: ") + e.what();
                table.push_back(row);
                continue;
            }
            row.median_s = median(times);
            row.distances_per_s = row.median_s > 0 ? double(pairs) / row.median_s : 0;
            row.cells_per_s = row.distances_per_s * double(cellsPerPair);
            for (std::size_t i = 0; i < checked.size(); ++i) {
                const double ref = refValues[i], got = dm.at(checked[i].first, checked[i].second);
                const double err = std::fabs(got - ref) / std::max(std::fabs(ref), 1e-300);
                row.max_rel_error = std::max(row.max_rel_error, std::isnan(err) ? INFINITY : err);
            }
            row.note = "error on " + std::to_string(checked.size()) + " of " + std::to_string(subset.size()) + " pairs";
            if (k->name() == "cpu.reference") row.note += " (is the reference)";
            table.push_back(row);
            if (cfg.progress) cfg.progress(std::min(1.0, stepsDone / steps));
        }
    }
    if (cfg.progress) cfg.progress(1.0);
    return table;
}

}  // namespace warplab::compute
