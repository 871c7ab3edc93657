// runBenchmark (bench.h): the engine rows of runBench plus the GPU's own rows, behind one call,
// so that the CLI and the GUI never include compute/gpu/. The only file of compute/bench that
// knows the GPU library.
#include "compute/bench/bench.h"
#include "compute/bench/sdtw_cpu_bench.h"
#include "compute/bench/sdtw_designs.h"

#include "compute/core/error.h"
#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/device_set.h"
#include "compute/gpu/bench/energy_boards.h"
#include "compute/gpu/bench/gpu_bench.h"
#include "compute/gpu/runtime/gpu_device.h"
#endif

namespace warplab::compute {

namespace {
using K = EngineError::Kind;

void checkCancel(const BenchConfig& c) {
    if (c.cancel && c.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled by the user");
}
}  // namespace

std::string benchDeviceUnavailable() {
#if WARPLAB_HAVE_GPU
    return gpu::available() ? std::string() : gpu::unavailableReason();
#else
    return "no GPU backend built";
#endif
}

BenchReport runBenchmark(const BenchConfig& config) {
    BenchReport report;
    report.device = "no GPU backend built";
#if WARPLAB_HAVE_GPU
    const bool gpu = gpu::available();
    report.device = gpu ? gpu::deviceName() : gpu::unavailableReason();
#else
    const bool gpu = false;
#endif
    report.ceiling = gpuCeiling(config.params.metric);
    if (config.params.metric == Metric::Sdtw) {
        validate(config.params);
        if (config.searchQueries < 1 || config.referenceLength < 1)
            throw EngineError(K::BadParameter, "queries", "the sdtw benchmark needs at least one query and a reference");
        // The designs named (sdtw_designs.h), or the default three; unknown names are refused.
        const bool all = config.kernels.empty() || (config.kernels.size() == 1 && config.kernels[0] == "all");
        std::vector<const SdtwDesign*> designs;
        for (const std::string& name : all ? defaultSdtwDesigns() : config.kernels) {
            const SdtwDesign* d = findSdtwDesign(name);
            if (!d) {
                std::string known;
                for (const SdtwDesign& k : sdtwDesigns()) known += (known.empty() ? "" : ", ") + k.name;
                throw EngineError(K::BadParameter, "kernels",
                                  "'" + name + "' is not a subsequence-search design (the designs: " + known + ")");
            }
            designs.push_back(d);
        }
        // The CPU times a few of the queries (each is a whole sweep of the reference); the
        // rows say how many, and cells/s and distances/s are per the work done.
        const int cpuQueries = std::min(config.searchQueries, 2);
        for (std::size_t i = 0; i < config.lengths.size(); ++i) {
            const std::size_t n = config.lengths[i];
            if (n > std::size_t(config.referenceLength))
                throw EngineError(K::BadParameter, "lengths", "a query is longer than the reference");
            for (const SdtwDesign* d : designs) {
                checkCancel(config);
                if (!d->device) {
                    report.rows.push_back(runCpuSdtwBench(config, n, cpuQueries, d->name));
                    continue;
                }
                if (!config.deviceTiming) continue;
#if WARPLAB_HAVE_GPU
                if (gpu) {
                    report.rows.push_back(gpu::runSdtwBench(config.searchQueries, int(n), config.referenceLength, config.topk,
                                                            config.repeats, config.params.znorm, config.seed, d->half2,
                                                            gpu::SdtwOptions{d->rowsPerLane, d->twoKernelNormaliser, d->columnsPerStep,
                                                                             d->stretches, gpu::resolveDevices(config.sdtwDevices)}));
                    continue;
                }
#endif
                BenchRow row;
                row.kernel = d->name + "@device";
                row.metric = "sdtw";
                row.length = n;
                row.note = "not run: " + report.device;
                report.rows.push_back(row);
            }
            if (config.progress) config.progress(double(i + 1) / double(config.lengths.size()));
        }
        return report;
    }
    const bool device = config.deviceTiming && gpu;
    // The engine rows take most of the time when both run: give them 80 % of the progress bar.
    const double engineShare = device ? 0.8 : 1.0;
    if (config.engineTiming) {
        BenchConfig engine = config;
        // The engine spreads a job over every visible device (RunOptions::devices empty).
        engine.gpuBoards.reason = report.device;
#if WARPLAB_HAVE_GPU
        if (gpu) engine.gpuBoards = gpu::energyBoardsOf(gpu::resolveDevices({}));
#endif
        if (config.progress) engine.progress = [&](double f) { config.progress(f * engineShare); };
        report.rows = runBench(engine);
    }
#if WARPLAB_HAVE_GPU
    if (device) {
        checkCancel(config);
        BenchTable dev = gpu::runDeviceBench(config);
        report.rows.insert(report.rows.end(), dev.begin(), dev.end());
    }
#endif
    if (config.progress) config.progress(1.0);
    return report;
}

}  // namespace warplab::compute
