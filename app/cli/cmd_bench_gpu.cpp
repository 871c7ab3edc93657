// `warplab-cli bench gpu`: the GPU kernels timed on the device alone (inputs resident, device
// events, the median of --repeats), the figure comparable with published kernels; with --cpu the
// best CPU path on a subset of the same work, with --engine the engine path (transfers
// included). Modes: the matrix kernels of --metric (default), the soft-DTW gradient
// (--gradient), the subsequence search (--metric sdtw) and the engine path on one matrix shape
// (--engine-rows). Prints the table of `warplab-cli bench` (bench_report.h); --json the rows.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/bench_report.h"
#include "app/cli/commands.h"
#include "compute/bench/bench.h"
#include "compute/core/error.h"
#if WARPLAB_HAVE_GPU
#include "compute/bench/sdtw_cpu_bench.h"
#include "compute/engine/engine.h"
#include "compute/gpu/bench/engine_matrix_bench.h"
#include "compute/gpu/bench/gpu_bench.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/tile_streams.h"
#endif

namespace warplab::cli {

namespace {

using compute::EngineError;

struct GpuBenchOptions {
    std::string metric = "dtw", json, kernels = "all";
    std::vector<std::size_t> lengths = {128, 1024};
    std::size_t pairs = 1 << 20;
    int band = 0, repeats = 5;
    double gamma = 1.0;
    bool engine = false, cpu = false;
    // soft-DTW gradient
    bool gradient = false, fp32 = false;
    std::vector<std::string> gradShapes = {"0x0"};
    // subsequence search
    int sdtwQueries = 512, sdtwLength = 2000, sdtwReference = 100000, top = 5;
    bool half2 = false, twoKernelZnorm = false;
    std::vector<int> sdtwRows = {0}, sdtwCols = {0};
    // engine path on one matrix shape (the seizure-pattern workload: 415 x 65536, length 1024,
    // windows at stride 256)
    std::size_t engineRows = 0, engineCols = 65536, engineStride = 256;
    std::vector<int> tileStreams = {1};  // the runner's most and 1 where a GPU is built (below)
};

#if WARPLAB_HAVE_GPU
compute::BenchTable runGpuBench(const GpuBenchOptions& o) {
    using namespace compute;
    auto m = parseMetric(o.metric);
    if (!m) throw EngineError(EngineError::Kind::BadParameter, "metric", "unknown metric '" + o.metric + "'");
    BenchConfig cfg;
    cfg.params.metric = *m;
    cfg.params.band = o.band;
    cfg.params.gamma = o.gamma;
    cfg.lengths = o.lengths;
    cfg.pairs = o.pairs;
    cfg.repeats = o.repeats;
    cfg.maxReferencePairs = 64;
    cfg.kernels.clear();
    std::stringstream ks(o.kernels);
    for (std::string k; std::getline(ks, k, ',');) cfg.kernels.push_back(k);
    BenchTable table;
    if (o.engineRows > 0) {
        gpu::EngineMatrixShape shape;
        shape.rows = o.engineRows;
        shape.cols = o.engineCols;
        shape.stride = o.engineStride;
        for (std::size_t len : o.lengths) {
            shape.length = len;
            for (const std::string& k : cfg.kernels)
                for (int l : o.tileStreams) table.push_back(gpu::runEngineMatrixBench(k, cfg.params, shape, l, o.repeats, cfg.seed));
            if (o.cpu) {
                RunOptions ro;
                ro.backend = Backend::Cpu;
                const std::string best = Engine::resolveKernel(*m, ro).name();
                table.push_back(gpu::runEngineMatrixBench(best, cfg.params, shape, 1, 1, cfg.seed));
            }
        }
    } else if (*m == Metric::SoftDtw && o.gradient) {
        for (std::size_t len : o.lengths)
            for (const std::string& g : o.gradShapes) {
                gpu::GradientShape gs;
                if (std::sscanf(g.c_str(), "%dx%d", &gs.rowsPerLane, &gs.warpsPerPair) != 2)
                    throw EngineError(EngineError::Kind::BadInput, "--grad-shapes", "'" + g + "' is not ROWSxWARPS");
                table.push_back(gpu::runSoftDtwGradBench(int(o.pairs), int(len), o.repeats, o.gamma, cfg.seed, o.fp32, gs));
            }
    } else if (*m == Metric::Sdtw) {
        for (int rows : o.sdtwRows)
            for (int cols : o.sdtwCols)
                table.push_back(gpu::runSdtwBench(o.sdtwQueries, o.sdtwLength, o.sdtwReference, o.top, o.repeats, true, cfg.seed,
                                                  o.half2, gpu::SdtwOptions{rows, false, cols}));
        if (o.twoKernelZnorm)
            table.push_back(gpu::runSdtwBench(o.sdtwQueries, o.sdtwLength, o.sdtwReference, o.top, o.repeats, true, cfg.seed,
                                              o.half2, gpu::SdtwOptions{0, true}));
        if (o.cpu) {
            // The same shape on the CPU (the rows of `warplab-cli bench --metric sdtw`): one
            // core on 2 queries, and every core of this machine (parallel stretches in AVX2
            // lanes where long enough) on 16 queries one after another.
            BenchConfig c = cfg;
            c.params.metric = Metric::Sdtw;
            c.params.znorm = true;
            c.searchQueries = 16;
            c.referenceLength = o.sdtwReference;
            c.topk = o.top;
            c.repeats = 1;
            table.push_back(runCpuSdtwBench(c, std::size_t(o.sdtwLength), 2, "cpu.reference"));
            table.push_back(runCpuSdtwBench(c, std::size_t(o.sdtwLength), 16, "cpu.simd"));
        }
    } else {
        table = gpu::runDeviceBench(cfg);
        if (o.engine) {
            BenchConfig e = cfg;
            e.repeats = std::min(o.repeats, 3);
            BenchTable t = runBench(e);
            table.insert(table.end(), t.begin(), t.end());
        }
        if (o.cpu)
            for (std::size_t len : o.lengths) table.push_back(gpu::runCpuComparison(cfg.params, len, o.pairs, cfg.seed, 0));
    }
    return table;
}
#endif

void runGpuBenchCommand(const GpuBenchOptions& o) {
    requireGpu("bench gpu");
#if WARPLAB_HAVE_GPU
    const compute::BenchTable table = runGpuBench(o);
    std::cout << "device: " << compute::gpu::deviceName() << "\n";
    printBenchTable(std::cout, table);
    if (!o.json.empty()) {
        std::ofstream out(o.json);
        if (!out) throw EngineError(EngineError::Kind::BadInput, "json", "cannot write " + o.json);
        out << io::benchJson(table, compute::gpu::deviceName()).dump(2) << "\n";
    }
    std::cout.flush();
#else
    (void)o;
#endif
}

}  // namespace

void addBenchGpuCommand(CLI::App& bench) {
    auto o = std::make_shared<GpuBenchOptions>();
#if WARPLAB_HAVE_GPU
    o->tileStreams = {compute::gpu::kMaxTileStreams, 1};
#endif
    auto* cmd = bench.add_subcommand("gpu", "time the GPU kernels on the device alone (needs a GPU), the CPU path beside them");
    cmd->add_option("--metric", o->metric, "euclidean, dtw, cdtw, softdtw, twed or sdtw")->capture_default_str();
    cmd->add_option("--kernels", o->kernels, "all or a comma-separated list of kernel names")->capture_default_str();
    cmd->add_option("--lengths", o->lengths, "series lengths")->delimiter(',')->capture_default_str();
    cmd->add_option("--pairs", o->pairs, "distances per run")->capture_default_str();
    cmd->add_option("--band", o->band, "cdtw half-width");
    cmd->add_option("--gamma", o->gamma, "softdtw smoothing")->capture_default_str();
    cmd->add_option("--repeats", o->repeats, "timed runs (median reported)")->capture_default_str();
    cmd->add_option("--json", o->json, "write the rows as JSON here");
    cmd->add_flag("--engine", o->engine, "also time the kernels through the engine (transfers included)");
    cmd->add_flag("--cpu", o->cpu, "also time the best CPU kernel on a subset of the same work");
    cmd->add_flag("--gradient", o->gradient, "softdtw: time forward + gradient (fp64) instead of the matrix");
    cmd->add_flag("--fp32", o->fp32, "softdtw --gradient: the fp32 kernels");
    cmd->add_option("--grad-shapes", o->gradShapes,
                    "softdtw --gradient --fp32: rows per lane x warps per pair, one row each (4x4,8x4,...; 0x0 = chosen)")
        ->delimiter(',');
    cmd->add_option("--sdtw-queries", o->sdtwQueries, "sdtw: queries")->capture_default_str();
    cmd->add_option("--sdtw-length", o->sdtwLength, "sdtw: query length")->capture_default_str();
    cmd->add_option("--sdtw-reference", o->sdtwReference, "sdtw: reference length")->capture_default_str();
    cmd->add_option("--top", o->top, "sdtw: matches per query")->capture_default_str();
    cmd->add_flag("--half2", o->half2, "sdtw: the half-precision (__half2) search");
    cmd->add_option("--sdtw-rows", o->sdtwRows, "sdtw: rows per lane of the pass, one row each (2,4,8,16,32; 0 = chosen per batch)")
        ->delimiter(',');
    cmd->add_option("--sdtw-cols", o->sdtwCols, "sdtw: columns per step of the pass, one row each per width (2,4; 0 = chosen)")
        ->delimiter(',');
    cmd->add_flag("--sdtw-two-kernel-znorm", o->twoKernelZnorm, "sdtw: also a row with the two-kernel z-normaliser");
    cmd->add_option("--engine-rows", o->engineRows, "time only the engine path on a rows x --engine-cols matrix");
    cmd->add_option("--engine-cols", o->engineCols, "engine path: columns; 0 = all pairs of the rows")->capture_default_str();
    cmd->add_option("--engine-stride", o->engineStride,
                    "engine path: series are windows of one channel at this stride; 0 = independent")
        ->capture_default_str();
    cmd->add_option("--tile-streams", o->tileStreams, "engine path: tiles in flight on the GPU (tile streams), one row each")
        ->delimiter(',')
        ->capture_default_str();
    cmd->callback([o] { runGpuBenchCommand(*o); });
}

}  // namespace warplab::cli
