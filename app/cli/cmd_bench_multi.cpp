// `warplab-cli bench multi ROWS COLS LENGTH BAND LIST [LIST...]`: one cdtw distance matrix
// through the engine (packing, transfers, kernels, downloads; a sink that only counts, so no
// file is timed) on each device list given ("0", "0,1", "all"), in one process, so that 1 GPU
// and several are compared on the same binary and inputs. COLS 0: all pairs of ROWS. Prints one
// line per list: wall seconds, distances/ms, band cells/s and the speed-up over the first list.
// `bench multi --write-npy PATH ROWS LENGTH SEED` writes such series as a float32 .npy
// (ROWS x LENGTH), an input for `warplab-cli dm` and `search` runs of the same shape.
// Series are AR(1) walks (x = 0.9 x + N(0,1)): compute time does not depend on their shape.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "compute/core/error.h"
#include "compute/engine/engine.h"
#include "compute/patterns/pattern_discovery.h"
#include "io/io_error.h"
#include "io/npy.h"
#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/device_set.h"
#endif

namespace warplab::cli {

namespace {

using compute::EngineError;

struct MultiBenchOptions {
    std::vector<std::string> args;  // ROWS COLS LENGTH BAND LIST..., or with --write-npy ROWS LENGTH SEED
    std::string writeNpy;
};

compute::Series walk(std::mt19937& rng, std::size_t n) {
    std::normal_distribution<float> step(0.f, 1.f);
    std::vector<float> v(n);
    float x = 0;
    for (auto& s : v) s = x = 0.9f * x + step(rng);
    return compute::Series(std::move(v));
}

std::size_t count(const std::string& text, const char* field) {
    try {
        std::size_t used = 0;
        const unsigned long long v = std::stoull(text, &used);
        if (used == text.size()) return std::size_t(v);
    } catch (const std::exception&) {
    }
    throw EngineError(EngineError::Kind::BadParameter, field, "'" + text + "' is not a whole number");
}

void writeSeriesNpy(const MultiBenchOptions& o) {
    if (o.args.size() != 3)
        throw EngineError(EngineError::Kind::BadParameter, "--write-npy", "give PATH ROWS LENGTH SEED");
    const std::size_t rows = count(o.args[0], "ROWS"), length = count(o.args[1], "LENGTH");
    std::mt19937 rng(unsigned(count(o.args[2], "SEED")));
    std::ofstream out(o.writeNpy, std::ios::binary);
    if (!out) throw io::IoError(o.writeNpy, "", "cannot write");
    out << io::npyHeader({rows, length}, "<f4");
    for (std::size_t i = 0; i < rows; ++i) {
        const compute::Series s = walk(rng, length);
        out.write(reinterpret_cast<const char*>(s.values.data()), std::streamsize(s.values.size() * sizeof(float)));
    }
    if (!out.flush()) throw io::IoError(o.writeNpy, "", "write failed (disk full?)");
}

void runMultiBench(const MultiBenchOptions& o) {
    using namespace compute;
    if (o.args.size() < 5)
        throw EngineError(EngineError::Kind::BadParameter, "arguments", "give ROWS COLS LENGTH BAND LIST [LIST...]");
    const std::size_t rows = count(o.args[0], "ROWS"), cols = count(o.args[1], "COLS");
    const std::size_t length = count(o.args[2], "LENGTH");
    Params p;
    p.metric = Metric::Cdtw;
    p.band = int(count(o.args[3], "BAND"));
    requireGpu("bench multi");
#if WARPLAB_HAVE_GPU
    std::mt19937 rng(7);
    SeriesSet q, t;
    for (std::size_t i = 0; i < rows; ++i) q.push_back(walk(rng, length));
    for (std::size_t i = 0; i < cols; ++i) t.push_back(walk(rng, length));
    const double distances = cols ? double(rows) * double(cols) : double(rows) * double(rows + 1) / 2;
    const double cells = distances * cdtwBandCells((long long)length, p.band);
    std::printf("devices:");
    for (int d = 0; d < gpu::deviceCount(); ++d) std::printf(" %s", gpu::deviceLabel(d).c_str());
    std::printf("\nmatrix %zu x %zu%s, cdtw(%zu, w%d): %.4g distances, %.4g band cells\n", rows, cols ? cols : rows,
                cols ? "" : " (all pairs, upper tiles mirrored)", length, p.band, distances, cells);
    double first = 0;
    for (std::size_t a = 4; a < o.args.size(); ++a) {
        RunOptions ro;
        ro.backend = Backend::Cuda;  // no silent fall-back to the CPU
        const std::string& list = o.args[a];
        if (list != "all") {
            std::stringstream ss(list);
            for (std::string d; std::getline(ss, d, ',');) ro.devices.push_back(int(count(d, "LIST")));
        }
        std::size_t seen = 0;
        // Warm-up on a small block: contexts, tile streams and pinned buffers exist before timing.
        Engine::distanceMatrixStreamed(SeriesSet(q.begin(), q.begin() + std::min<std::size_t>(rows, 2048)), cols ? &t : nullptr, p,
                                       ro, [](const Tile&, const double*) {});
        const auto t0 = std::chrono::steady_clock::now();
        Engine::distanceMatrixStreamed(q, cols ? &t : nullptr, p, ro, [&](const Tile& tile, const double*) { seen += tile.cells(); });
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (a == 4) first = s;
        std::printf("devices %-6s %8.3f s  %10.1f distances/ms  %.4g cells/s  speed-up %.3fx  (%zu cells delivered)\n",
                    list.c_str(), s, distances / (s * 1e3), cells / s, first / s, seen);
        std::fflush(stdout);
    }
#endif
}

}  // namespace

void addBenchMultiCommand(CLI::App& bench) {
    auto o = std::make_shared<MultiBenchOptions>();
    auto* cmd = bench.add_subcommand(
        "multi", "one cdtw distance matrix through the engine on each GPU list, 1 GPU against several (needs a GPU)");
    cmd->add_option("ARGS", o->args,
                    "ROWS COLS LENGTH BAND LIST [LIST...]: matrix rows, columns (0: all pairs of the rows), series length, cdtw band, then device lists "
                    "(0, 0,1, all), one line each; with --write-npy: ROWS LENGTH SEED");
    cmd->add_option("--write-npy", o->writeNpy, "write ROWS series of LENGTH (seed SEED) as a float32 .npy here instead");
    cmd->callback([o] {
        if (!o->writeNpy.empty())
            writeSeriesNpy(*o);
        else
            runMultiBench(*o);
    });
}

}  // namespace warplab::cli
