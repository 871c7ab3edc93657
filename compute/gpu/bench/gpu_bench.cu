// Device-side benchmark (see gpu_bench.h).
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/cpu/sdtw_parallel.h"
#include "compute/engine/engine.h"
#include "compute/gpu/bench/energy_boards.h"
#include "compute/gpu/bench/gpu_bench.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/matrix_runner.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/gpu/kernels/softdtw/softdtw_grad.h"
#include "compute/registry/registry.h"

namespace warplab::compute::gpu {

namespace {

SeriesSet randomSet(std::mt19937_64& rng, std::size_t count, std::size_t length) {
    std::normal_distribution<float> step(0.f, 1.f);
    SeriesSet set;
    for (std::size_t i = 0; i < count; ++i) {
        std::vector<float> v(length);
        float x = 0;
        for (auto& s : v) { x = 0.9f * x + step(rng); s = x; }
        set.emplace_back(std::move(v));
    }
    return set;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double relErr(double got, double ref) {
    if (std::isinf(ref) && std::isinf(got)) return 0;
    if (!std::isfinite(got)) return INFINITY;
    return std::fabs(got - ref) / std::max(1.0, std::fabs(ref));
}

bool isGpu(const Kernel* k) { return k->backend() == Backend::Cuda || k->backend() == Backend::Hip; }

}  // namespace

BenchTable runDeviceBench(const BenchConfig& config) {
    BenchTable table;
    const Params& p = config.params;
    std::vector<Kernel*> kernels;
    const bool all = config.kernels.empty() || (config.kernels.size() == 1 && config.kernels[0] == "all");
    for (Kernel* k : KernelRegistry::instance().forMetric(p.metric)) {
        if (!isGpu(k)) continue;
        if (all || std::find(config.kernels.begin(), config.kernels.end(), k->name()) != config.kernels.end())
            kernels.push_back(k);
    }
    const std::size_t side = std::max<std::size_t>(1, std::size_t(std::llround(std::sqrt(double(config.pairs)))));
    for (std::size_t length : config.lengths) {
        std::mt19937_64 rng(config.seed + length);
        SeriesSet rows = randomSet(rng, side, length), cols = randomSet(rng, side, length);
        for (Kernel* k : kernels) {
            BenchRow row;
            row.kernel = k->name() + "@device";
            row.metric = std::string(metricName(p.metric));
            row.length = length;
            row.pairs = side * side;
            row.band = p.metric == Metric::Cdtw ? p.band : 0;
            if (std::string why = k->unavailableReason(); !why.empty()) {
                row.note = why;
                table.push_back(row);
                continue;
            }
            // The kernel's own design (a name says which paper's idea it is, not which code runs).
            Design design = Design::Antidiagonal;
            bool fp64 = false;
            if (!registeredDesign(*k, design, fp64)) {
                row.note = "not a GPU matrix kernel of the registry";
                table.push_back(row);
                continue;
            }
            // The banded soft-DTW design honours --band: the row shows it, and its error is
            // against unbanded soft-DTW (what the band approximates).
            const bool bandedSoft = design == Design::SoftBanded;
            if (bandedSoft) row.band = p.band;
            MatrixRunner runner(design, fp64);
            Stream stream;
            PackedDevice rd, cd;
            rd.upload(packSeries(rows, 0, rows.size(), "rows"), stream.get());
            cd.upload(packSeries(cols, 0, cols.size(), "cols"), stream.get());
            Tile tile{0, side, 0, side};
            PairList pl = tilePairs(tile, false);
            DeviceBuffer<int> pr, pc;
            pr.upload(pl.row.data(), pl.size(), stream.get());
            pc.upload(pl.col.data(), pl.size(), stream.get());
            DeviceBuffer<double> out(pl.size());
            PairsView pv{pr.get(), pc.get(), int(pl.size()), int(side), out.get()};
            std::vector<double> times;
            EnergyMeter meter = openEnergyMeter(currentEnergyBoard());
            for (int rep = -1; rep < config.repeats; ++rep) {  // rep -1: warm-up
                if (rep == 0) meter.start();
                Event a, b;
                a.record(stream.get());
                runner.launch(p.metric, p, rd, cd, pv, stream.get());
                b.record(stream.get());
                b.sync();
                const double s = b.since(a) / 1000.0;
                if (rep >= 0) times.push_back(s);
                if (s > 2.0 && rep >= 1) break;  // slow kernels: three runs are enough
            }
            // The counter needs a longer window than fast kernels give: more runs, energy only.
            std::size_t runs = times.size();
            for (; meter.wantsLongerWindow(); ++runs) {
                runner.launch(p.metric, p, rd, cd, pv, stream.get());
                stream.sync();
            }
            row.energy = meter.stop(runs * row.pairs);
            std::vector<double> host(pl.size());
            out.download(host.data(), host.size(), stream.get());
            stream.sync();
            row.median_s = median(times);
            std::uint64_t cells = 0;
            cells = dpCells(p.metric, length, length, p.band) * row.pairs;
            row.cells_per_s = double(cells) / row.median_s;
            row.distances_per_s = double(row.pairs) / row.median_s;
            // Error on a deterministic sample of pairs (the reference is slow at this size).
            std::mt19937_64 pickRng(config.seed);
            std::uniform_int_distribution<std::size_t> pick(0, side - 1);
            // The reference does about 1e8 cells/s on one core: pairs of more than 1e9 cells are not
            // checked here (tests/gpu/test_gpu_tiled.cpp checks long pairs).
            const std::uint64_t pairCells = dpCells(p.metric, length, length, p.band);
            const std::size_t samples = pairCells > 1000000000ull ? 0 : std::min<std::size_t>(config.maxReferencePairs, row.pairs);
            for (std::size_t sIdx = 0; sIdx < samples; ++sIdx) {
                const std::size_t r = pick(pickRng), c = pick(pickRng);
                row.max_rel_error = std::max(row.max_rel_error,
                                             relErr(host[r * side + c], reference::rawDistance(rows[r], cols[c], p)));
            }
            row.note = "device time (events), inputs resident, median of " + std::to_string(times.size()) +
                       " runs; " + (samples ? "error on " + std::to_string(samples) + " sampled pairs"
                                            : "no reference check (" + std::to_string(pairCells) + " cells per pair)");
            if (bandedSoft) row.note += " (against unbanded soft-DTW)";
            table.push_back(row);
        }
    }
    return table;
}

BenchRow runSdtwBench(int queries, int queryLength, int referenceLength, int topk, int repeats, bool znorm,
                      std::uint64_t seed, bool half2, const SdtwOptions& options) {
    BenchRow row;
    row.kernel = std::string(WL_GPU_RUNTIME_NAME == std::string("HIP") ? "hip" : "cuda") +
                 (half2 ? ".sdtw_half2" : ".sdtw") +
                 (options.rowsPerLane ? ".r" + std::to_string(options.rowsPerLane) : std::string()) +
                 (options.columnsPerStep ? ".c" + std::to_string(options.columnsPerStep) : std::string()) +
                 (options.twoKernelNormaliser ? ".znorm2k" : "") +
                 (options.stretches == 1 ? ".whole" : options.stretches > 1 ? ".s" + std::to_string(options.stretches) : "") +
                 "@device";
    row.metric = "sdtw";
    row.length = std::size_t(queryLength);
    row.pairs = std::size_t(queries);
    if (!available()) { row.note = unavailableReason(); return row; }
    std::mt19937_64 rng(seed);
    SeriesSet qs = randomSet(rng, std::size_t(queries), std::size_t(queryLength));
    Series ref = randomSet(rng, 1, std::size_t(referenceLength))[0];
    Params p;
    p.metric = Metric::Sdtw;
    p.topk = topk;
    p.znorm = znorm;
    const SdtwPrecision precision = half2 ? SdtwPrecision::Half2 : SdtwPrecision::Fp32;
    std::vector<double> times, totals;
    std::vector<std::vector<Match>> got;
    SdtwTiming timing;
    EnergyMeter meter = openEnergyMeter(currentEnergyBoard());
    for (int rep = -1; rep < repeats; ++rep) {
        if (rep == 0) meter.start();
        got = sdtwSearchBatch(qs, ref, p, &timing, precision, options);
        if (rep < 0) continue;
        times.push_back(timing.kernelSeconds);
        totals.push_back(timing.totalSeconds);
    }
    std::size_t runs = times.size();
    for (; meter.wantsLongerWindow(); ++runs) sdtwSearchBatch(qs, ref, p, nullptr, precision, options);
    // The window is the host's, packing and transfers included, as sdtwSearchBatch runs them.
    row.energy = meter.stop(runs * std::size_t(queries));
    row.median_s = median(times);
    row.cells_per_s = double(timing.cells) / row.median_s;
    row.distances_per_s = double(queries) / row.median_s;
    // Reference on one or two queries (each n*m cells in double; on all cores, which give
    // sdtwTopK's matches bit for bit, for references beyond 300,000 samples).
    const int checked = std::min(queries, referenceLength > 300000 ? 1 : 2);
    const Series refP = znorm ? znormalized(ref) : ref;
    int mismatches = 0;
    for (int q = 0; q < checked; ++q) {
        const Series qp = znorm ? znormalized(qs[q]) : qs[q];
        auto want = referenceLength > 300000 ? reference::sdtwTopKParallel(qp, refP, false, topk, {}, 0)
                                             : reference::sdtwTopK(qp, refP, false, topk);
        for (std::size_t i = 0; i < want.size() && i < got[q].size(); ++i) {
            row.max_rel_error = std::max(row.max_rel_error, relErr(got[q][i].cost, want[i].cost));
            if (got[q][i].start != want[i].start || got[q][i].end != want[i].end) ++mismatches;
        }
    }
    char windows[700];
    std::snprintf(windows, sizeof windows,
                  "; %d device(s); %d rows per lane, %d columns per step; %d reference stretches per query (%d re-sweep waves, %.3g%% of the cells re-swept); z-norm (%s) %.3g ms; pass alone %.4g s (%.4g cells/s); top-k %.3g ms; start spans %.3g ms: %.3g%% of the cells, %d rounds",
                  timing.devices, timing.rowsPerLane, timing.columnsPerStep, timing.stretches, timing.reseedWaves,
                  100.0 * double(timing.reseedCells) / double(std::max(timing.cells, 1ULL)),
                  options.twoKernelNormaliser ? "two kernels" : "fused", timing.znormSeconds * 1e3,
                  timing.passSeconds, double(timing.cells) / std::max(timing.passSeconds, 1e-12),
                  timing.topkSeconds * 1e3, timing.startSeconds * 1e3,
                  100.0 * double(timing.startCells) / double(timing.cells), timing.startRounds);
    row.note = std::to_string(queries) + " queries x " + std::to_string(queryLength) + " in " +
               std::to_string(referenceLength) + ", top-" + std::to_string(topk) + (znorm ? ", device z-norm" : "") +
               (half2 ? ", half2" : ", fp32") + "; device time (z-norm + DP + top-k + starts), median of " +
               std::to_string(times.size()) + windows + "; with the host's packing, uploads and allocations " +
               std::to_string(median(totals)) + " s (the call's answer, median)" + "; error on " + std::to_string(checked) + " queries, " +
               std::to_string(mismatches) + " start/end mismatches";
    if (half2) {
        // The half cost row against fp32 on 16 queries, and the top-k ends against the fp32 search.
        SeriesSet sub(qs.begin(), qs.begin() + std::min(queries, 16));
        const auto hr = sdtwLastRows(sub, ref, p, SdtwPrecision::Half2);
        const auto fr = sdtwLastRows(sub, ref, p, SdtwPrecision::Fp32);
        std::vector<double> e;
        for (std::size_t q = 0; q < fr.size(); ++q)
            for (std::size_t j = 0; j < fr[q].size(); ++j) e.push_back(relErr(hr[q][j], fr[q][j]));
        std::sort(e.begin(), e.end());
        const auto full = sdtwSearchBatch(qs, ref, p, nullptr, SdtwPrecision::Fp32);
        int ends = 0, differ = 0;
        for (int q = 0; q < queries; ++q)
            for (const Match& h : got[q]) {
                ++ends;
                if (std::none_of(full[q].begin(), full[q].end(), [&](const Match& f) { return f.end == h.end; })) ++differ;
            }
        char buf[240];
        std::snprintf(buf, sizeof buf,
                      "; half cost row vs fp32 (16 queries): median rel. error %.3g, max %.3g; top-%d ends not in the fp32 top-%d: %d of %d",
                      e.empty() ? 0.0 : e[e.size() / 2], e.empty() ? 0.0 : e.back(), topk, topk, differ, ends);
        row.note += buf;
    }
    return row;
}

BenchRow runSoftDtwGradBench(int pairs, int length, int repeats, double gamma, std::uint64_t seed, bool fp32,
                             GradientShape shape) {
    BenchRow row;
    row.kernel = std::string(WL_GPU_RUNTIME_NAME == std::string("HIP") ? "hip" : "cuda") +
                 (fp32 ? ".softdtw_grad_fp32@device" : ".softdtw_grad_fp64@device");
    if (fp32) {
        const GradientShape use = chosenGradientShape(length, std::size_t(pairs), shape);
        row.kernel += " r" + std::to_string(use.rowsPerLane) + "w" + std::to_string(use.warpsPerPair);
    }
    row.metric = "softdtw";
    row.length = std::size_t(length);
    row.pairs = std::size_t(pairs);
    if (!available()) { row.note = unavailableReason(); return row; }
    std::mt19937_64 rng(seed + std::uint64_t(length));
    SeriesSet xs = randomSet(rng, std::size_t(pairs), std::size_t(length));
    SeriesSet ys = randomSet(rng, std::size_t(pairs), std::size_t(length));
    Params p;
    p.metric = Metric::SoftDtw;
    p.gamma = gamma;
    std::vector<double> times, calls;
    SoftDtwGradients got;
    for (int rep = -1; rep < repeats; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        got = softDtwGradientBatch(xs, ys, p, fp32 ? GradientPrecision::Fp32 : GradientPrecision::Fp64, shape);
        const double call = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rep >= 0) times.push_back(got.kernelSeconds), calls.push_back(call);
    }
    row.median_s = median(times);
    row.cells_per_s = double(length) * double(length) * double(pairs) / row.median_s;
    row.distances_per_s = double(pairs) / row.median_s;
    for (int i = 0; i < std::min(pairs, 4); ++i) {
        std::vector<double> want = reference::softDtwGradient(xs[i], ys[i], false, gamma);
        double scale = 1;
        for (double v : want) scale = std::max(scale, std::fabs(v));
        for (std::size_t k = 0; k < want.size(); ++k)
            row.max_rel_error = std::max(row.max_rel_error, std::fabs(got.gradients[i][k] - want[k]) / scale);
    }
    row.note = std::string("forward + backward (E) + chain rule, ") + (fp32 ? "fp32" : "fp64") +
               ", device time, median of " + std::to_string(times.size()) +
               "; gradient error (relative to its largest entry) on 4 pairs; the whole call (work buffer allocation, "
               "uploads, downloads, host copies): median " + std::to_string(median(calls) * 1e3) + " ms";
    return row;
}

BenchRow runCpuComparison(const Params& params, std::size_t length, std::size_t pairs, std::uint64_t seed,
                          int threads) {
    // One pair is never split across CPU threads: for very long series, time the CPU on many
    // pairs of shorter series instead (cells/s compare; the times do not).
    if (dpCells(params.metric, length, length, params.band) > 1000000000ull) {
        std::size_t shorter = length;
        while (shorter > 1 && dpCells(params.metric, shorter, shorter, params.band) > 25000000ull) shorter /= 2;
        BenchRow row = runCpuComparison(params, shorter, std::size_t(1) << 16, seed, threads);
        row.note += "; series of " + std::to_string(shorter) + " instead of " + std::to_string(length);
        return row;
    }
    BenchRow row;
    row.metric = std::string(metricName(params.metric));
    row.length = length;
    row.band = params.metric == Metric::Cdtw ? params.band : 0;
    const std::size_t side = std::max<std::size_t>(1, std::size_t(std::llround(std::sqrt(double(pairs)))));
    // Rows so that the CPU does about 5e9 cells (well under a second of the fast path on 16 cores).
    const double perRow = double(dpCells(params.metric, length, length, params.band)) * double(side);
    const std::size_t nrows = std::clamp<std::size_t>(std::size_t(5e9 / perRow), 1, side);
    std::mt19937_64 rng(seed + length);
    SeriesSet rows = randomSet(rng, nrows, length), cols = randomSet(rng, side, length);
    RunOptions o;
    o.backend = Backend::Cpu;
    o.threads = threads;
    Kernel& k = Engine::resolveKernel(params.metric, o);
    row.kernel = k.name() + "@engine";
    row.pairs = nrows * side;
    const auto t0 = std::chrono::steady_clock::now();
    Engine::distanceMatrix(rows, &cols, params, o);
    row.median_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    row.cells_per_s = double(dpCells(params.metric, length, length, params.band)) * double(row.pairs) / row.median_s;
    row.distances_per_s = double(row.pairs) / row.median_s;
    row.energy.note = kCpuEnergyNote;
    row.note = "CPU, " + std::to_string(nrows) + " x " + std::to_string(side) + " subset of the same work, one run";
    return row;
}

}  // namespace warplab::compute::gpu
