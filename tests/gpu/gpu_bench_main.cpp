// warplab-gpu-bench: the GPU benchmark for the GPU machine, where warplab-cli may not link
// (it needs io's HDF5). Same options and output as `warplab-cli bench`, through the same code
// (compute/bench/bench.h, compute/gpu/bench/gpu_bench.h, app/cli/bench_report.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/cli/bench_report.h"
#include "compute/core/error.h"
#include "compute/bench/sdtw_cpu_bench.h"
#include "compute/engine/engine.h"
#include "compute/gpu/bench/gpu_bench.h"
#include "compute/gpu/bench/engine_matrix_bench.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/tile_streams.h"

using namespace warplab::compute;

int main(int argc, char** argv) {
    CLI::App app{"GPU kernel benchmark (device time) with the CPU path for comparison", "warplab-gpu-bench"};
    std::string metric = "dtw", json, kernels = "all";
    std::vector<std::size_t> lengths = {128, 1024};
    std::size_t pairs = 1 << 20;
    int band = 0, repeats = 5, sdtwQueries = 512, sdtwLength = 2000, sdtwRef = 100000, topk = 5;
    double gamma = 1.0;
    bool engine = false, cpu = false, gradient = false, fp32 = false;
    app.add_option("--metric", metric, "euclidean, dtw, cdtw, softdtw, twed or sdtw");
    app.add_option("--kernels", kernels, "all or a comma-separated list of kernel names");
    app.add_option("--lengths", lengths, "series lengths")->delimiter(',');
    app.add_option("--pairs", pairs, "distances per run");
    app.add_option("--band", band, "cdtw half-width");
    app.add_option("--gamma", gamma, "softdtw smoothing");
    app.add_option("--repeats", repeats, "timed runs (median reported)");
    app.add_option("--json", json, "write the rows as JSON here");
    app.add_flag("--engine", engine, "also time the kernels through the engine (transfers included)");
    app.add_flag("--cpu", cpu, "also time the best CPU kernel on a subset of the same work");
    app.add_flag("--gradient", gradient, "softdtw: time forward + gradient (fp64) instead of the matrix");
    app.add_flag("--fp32", fp32, "softdtw --gradient: the fp32 kernels");
    std::vector<std::string> gradShapes = {"0x0"};
    app.add_option("--grad-shapes", gradShapes,
                   "softdtw --gradient --fp32: rows per lane x warps per pair, one row each (4x4,8x4,...; 0x0 = chosen)")
        ->delimiter(',');
    app.add_option("--sdtw-queries", sdtwQueries, "sdtw: queries");
    app.add_option("--sdtw-length", sdtwLength, "sdtw: query length");
    app.add_option("--sdtw-reference", sdtwRef, "sdtw: reference length");
    app.add_option("--top", topk, "sdtw: matches per query");
    // The engine path on one matrix shape (the seizure-pattern workload: 415 x 65536, length
    // 1024, windows at stride 256), per --kernels and --lengths, with each --lanes count.
    gpu::EngineMatrixShape shape;
    std::size_t engineRows = 0;
    std::vector<int> laneCounts = {gpu::kMaxTileStreams, 1};
    app.add_option("--engine-rows", engineRows, "time only the engine path on a rows x --engine-cols matrix");
    app.add_option("--engine-cols", shape.cols, "engine path: columns; 0 = all pairs of the rows");
    app.add_option("--engine-stride", shape.stride, "engine path: series are windows of one channel at this stride; 0 = independent");
    app.add_option("--lanes", laneCounts, "engine path: GPU tiles in flight, one row each")->delimiter(',');
    bool half2 = false;
    app.add_flag("--half2", half2, "sdtw: the half-precision (__half2) search");
    std::vector<int> sdtwRows = {0};
    app.add_option("--sdtw-rows", sdtwRows, "sdtw: rows per lane of the pass, one row each (2,4,8,16,32; 0 = chosen per batch)")
        ->delimiter(',');
    std::vector<int> sdtwCols = {0};
    app.add_option("--sdtw-cols", sdtwCols, "sdtw: columns per step of the pass, one row each per width (2,4; 0 = chosen)")
        ->delimiter(',');
    bool znorm2k = false;
    app.add_flag("--sdtw-two-kernel-znorm", znorm2k, "sdtw: also a row with the two-kernel z-normaliser");
    CLI11_PARSE(app, argc, argv);
    try {
        auto m = parseMetric(metric);
        if (!m) throw EngineError(EngineError::Kind::BadParameter, "metric", "unknown metric '" + metric + "'");
        BenchConfig cfg;
        cfg.params.metric = *m;
        cfg.params.band = band;
        cfg.params.gamma = gamma;
        cfg.lengths = lengths;
        cfg.pairs = pairs;
        cfg.repeats = repeats;
        cfg.maxReferencePairs = 64;
        cfg.kernels.clear();
        std::stringstream ks(kernels);
        for (std::string k; std::getline(ks, k, ',');) cfg.kernels.push_back(k);
        BenchTable table;
        if (engineRows > 0) {
            shape.rows = engineRows;
            for (std::size_t len : lengths) {
                shape.length = len;
                for (const std::string& k : cfg.kernels)
                    for (int l : laneCounts) table.push_back(gpu::runEngineMatrixBench(k, cfg.params, shape, l, repeats, cfg.seed));
                if (cpu) {
                    RunOptions o;
                    o.backend = Backend::Cpu;
                    const std::string best = Engine::resolveKernel(*m, o).name();
                    table.push_back(gpu::runEngineMatrixBench(best, cfg.params, shape, 1, 1, cfg.seed));
                }
            }
        } else if (*m == Metric::SoftDtw && gradient) {
            for (std::size_t len : lengths)
                for (const std::string& g : gradShapes) {
                    gpu::GradientShape gs;
                    if (std::sscanf(g.c_str(), "%dx%d", &gs.rowsPerLane, &gs.warpsPerPair) != 2)
                        throw EngineError(EngineError::Kind::BadInput, "--grad-shapes", "'" + g + "' is not ROWSxWARPS");
                    table.push_back(gpu::runSoftDtwGradBench(int(pairs), int(len), repeats, gamma, cfg.seed, fp32, gs));
                }
        } else if (*m == Metric::Sdtw) {
            for (int rows : sdtwRows)
                for (int cols : sdtwCols)
                    table.push_back(gpu::runSdtwBench(sdtwQueries, sdtwLength, sdtwRef, topk, repeats, true, cfg.seed,
                                                      half2, gpu::SdtwOptions{rows, false, cols}));
            if (znorm2k)
                table.push_back(gpu::runSdtwBench(sdtwQueries, sdtwLength, sdtwRef, topk, repeats, true, cfg.seed, half2,
                                                  gpu::SdtwOptions{0, true}));
            if (cpu) {
                // The same shape on the CPU (the rows of `warplab-cli bench --metric sdtw`): one
                // core on 2 queries, and every core of this machine (parallel stretches in AVX2
                // lanes where long enough) on 16 queries one after another.
                BenchConfig c = cfg;
                c.params.metric = Metric::Sdtw;
                c.params.znorm = true;
                c.searchQueries = 16;
                c.referenceLength = sdtwRef;
                c.topk = topk;
                c.repeats = 1;
                table.push_back(runCpuSdtwBench(c, std::size_t(sdtwLength), 2, "cpu.reference"));
                table.push_back(runCpuSdtwBench(c, std::size_t(sdtwLength), 16, "cpu.simd"));
            }
        } else {
            table = gpu::runDeviceBench(cfg);
            if (engine) {
                BenchConfig e = cfg;
                e.repeats = std::min(repeats, 3);
                BenchTable t = runBench(e);
                table.insert(table.end(), t.begin(), t.end());
            }
            if (cpu)
                for (std::size_t len : lengths) table.push_back(gpu::runCpuComparison(cfg.params, len, pairs, cfg.seed, 0));
        }
        std::cout << "device: " << (gpu::available() ? gpu::deviceName() : gpu::unavailableReason()) << "\n";
        warplab::cli::printBenchTable(std::cout, table);
        if (!json.empty()) std::ofstream(json) << warplab::cli::benchJson(table, gpu::deviceName()).dump(2) << "\n";
    } catch (const EngineError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return e.isBadInput() ? 2 : 1;
    }
    return 0;
}
