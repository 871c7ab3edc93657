// runBenchmark (bench.h): the engine rows of runBench plus the GPU's own rows, behind one call,
// so that the CLI and the GUI never include compute/gpu/. The only file of compute/bench that
// knows the GPU library.
#include "compute/bench/bench.h"

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
#if WARPLAB_HAVE_GPU
        validate(config.params);
        for (std::size_t i = 0; i < config.lengths.size(); ++i) {
            checkCancel(config);
            report.rows.push_back(gpu::runSdtwBench(config.searchQueries, int(config.lengths[i]), config.referenceLength,
                                                    config.topk, config.repeats, config.params.znorm, config.seed));
            if (config.progress) config.progress(double(i + 1) / double(config.lengths.size()));
        }
        return report;
#else
        throw EngineError(K::BadParameter, "metric", "the sdtw benchmark needs the GPU backend; this build has none");
#endif
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
