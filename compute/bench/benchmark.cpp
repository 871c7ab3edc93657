// runBenchmark (bench.h): the engine rows of runBench plus the GPU's own rows, behind one call,
// so that the CLI and the GUI never include compute/gpu/. The only file of compute/bench that
// knows the GPU library.
#include "compute/bench/bench.h"
#include "compute/bench/sdtw_cpu_bench.h"

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
        // The CPU times a few of the queries (each is a whole sweep of the reference); the
        // rows say how many, and cells/s and distances/s are per the work done.
        const int cpuQueries = std::min(config.searchQueries, 2);
        for (std::size_t i = 0; i < config.lengths.size(); ++i) {
            checkCancel(config);
            const std::size_t n = config.lengths[i];
            if (n > std::size_t(config.referenceLength))
                throw EngineError(K::BadParameter, "lengths", "a query is longer than the reference");
#if WARPLAB_HAVE_GPU
            if (config.deviceTiming)
                report.rows.push_back(gpu::runSdtwBench(config.searchQueries, int(n), config.referenceLength, config.topk,
                                                        config.repeats, config.params.znorm, config.seed));
#endif
            report.rows.push_back(runCpuSdtwBench(config, n, cpuQueries, "cpu.simd"));
            report.rows.push_back(runCpuSdtwBench(config, n, cpuQueries, "cpu.reference"));
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
