// Benchmark for the GPU machine: one distance matrix through the engine (packing, transfers,
// kernels, downloads; a sink that only counts, so no file is timed) on each device list given,
// in one process, so that 1 GPU and 2 GPUs are compared on the same binary and inputs:
//   warplab-gpu-multi-bench ROWS COLS LENGTH BAND LIST [LIST...]    (COLS 0: all pairs of ROWS;
//   LIST: "0", "0,1", "all")
// Prints one line per list: wall seconds, distances/ms, band cells/s, and the speed-up over the
// first list. Series are random walks (compute results do not depend on the values' shape).
//   warplab-gpu-multi-bench --write-npy PATH ROWS LENGTH SEED    writes such series as a
// float32 .npy (ROWS x LENGTH), an input for `warplab-cli dm` runs on the GPU machine.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compute/engine/engine.h"
#include "compute/gpu/runtime/device_set.h"
#include "compute/patterns/pattern_discovery.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;

int main(int argc, char** argv) {
    if (argc == 6 && std::string(argv[1]) == "--write-npy") {
        const std::size_t n = std::strtoull(argv[3], nullptr, 10), len = std::strtoull(argv[4], nullptr, 10);
        std::mt19937 rng(unsigned(std::atoi(argv[5])));
        std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(n) + ", " +
                             std::to_string(len) + "), }";
        while ((10 + header.size() + 1) % 64) header += ' ';
        header += '\n';
        std::FILE* f = std::fopen(argv[2], "wb");
        if (!f) return 1;
        const unsigned short hl = (unsigned short)header.size();
        std::fwrite("\x93NUMPY\x01\x00", 1, 8, f);
        std::fwrite(&hl, 2, 1, f);
        std::fwrite(header.data(), 1, header.size(), f);
        for (std::size_t i = 0; i < n; ++i) {
            const Series s = warplab::gputest::randomSeries(rng, len);
            std::fwrite(s.values.data(), sizeof(float), s.values.size(), f);
        }
        return std::fclose(f) == 0 ? 0 : 1;
    }
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s ROWS COLS LENGTH BAND LIST [LIST...]\n", argv[0]);
        return 2;
    }
    const std::size_t rows = std::strtoull(argv[1], nullptr, 10), cols = std::strtoull(argv[2], nullptr, 10);
    const std::size_t length = std::strtoull(argv[3], nullptr, 10);
    Params p;
    p.metric = Metric::Cdtw;
    p.band = std::atoi(argv[4]);
    std::mt19937 rng(7);
    SeriesSet q, t;
    for (std::size_t i = 0; i < rows; ++i) q.push_back(warplab::gputest::randomSeries(rng, length));
    for (std::size_t i = 0; i < cols; ++i) t.push_back(warplab::gputest::randomSeries(rng, length));
    const double distances = cols ? double(rows) * double(cols) : double(rows) * double(rows + 1) / 2;
    const double cells = distances * cdtwBandCells((long long)length, p.band);
    std::printf("devices:");
    for (int d = 0; d < gpu::deviceCount(); ++d) std::printf(" %s", gpu::deviceLabel(d).c_str());
    std::printf("\nmatrix %zu x %zu%s, cdtw(%zu, w%d): %.4g distances, %.4g band cells\n", rows, cols ? cols : rows,
                cols ? "" : " (all pairs, upper tiles mirrored)", length, p.band, distances, cells);
    double first = 0;
    for (int a = 5; a < argc; ++a) {
        RunOptions o;
        o.backend = Backend::Cuda;  // no silent fall-back to the CPU
        const std::string list = argv[a];
        if (list != "all") {
            std::stringstream ss(list);
            for (std::string d; std::getline(ss, d, ',');) o.devices.push_back(std::stoi(d));
        }
        std::size_t seen = 0;
        // Warm-up on a small block: contexts, lanes and pinned buffers exist before timing.
        Engine::distanceMatrixStreamed(SeriesSet(q.begin(), q.begin() + std::min<std::size_t>(rows, 2048)), cols ? &t : nullptr, p, o,
                                       [](const Tile&, const double*) {});
        const auto t0 = std::chrono::steady_clock::now();
        Engine::distanceMatrixStreamed(q, cols ? &t : nullptr, p, o, [&](const Tile& tile, const double*) { seen += tile.cells(); });
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (a == 5) first = s;
        std::printf("devices %-6s %8.3f s  %10.1f distances/ms  %.4g cells/s  speed-up %.3fx  (%zu cells delivered)\n",
                    list.c_str(), s, distances / (s * 1e3), cells / s, first / s, seen);
        std::fflush(stdout);
    }
    return 0;
}
