// warplab-bench-cpu: the CPU figures of docs/PERFORMANCE.md without the CLI. Prints one line per
// kernel: kernel, metric, length, pairs, band, median seconds, G cells/s, distances/s, max rel error.
// Usage: warplab-bench-cpu METRIC SERIES LENGTH [BAND] [KERNELS] [REPEATS] [THREADS] [REFPAIRS]
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "compute/bench/bench.h"
#include "compute/core/error.h"

int main(int argc, char** argv) {
    using namespace warplab::compute;
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s METRIC SERIES LENGTH [BAND] [KERNELS] [REPEATS] [THREADS] [REFPAIRS]\n", argv[0]);
        return 2;
    }
    try {
        BenchConfig cfg;
        auto metric = parseMetric(argv[1]);
        if (!metric) throw EngineError(EngineError::Kind::BadParameter, "metric", std::string("unknown: ") + argv[1]);
        cfg.params.metric = *metric;
        cfg.series = std::strtoul(argv[2], nullptr, 10);
        cfg.lengths = {std::strtoul(argv[3], nullptr, 10)};
        if (argc > 4) cfg.params.band = std::atoi(argv[4]);
        if (argc > 5) {
            std::stringstream ss(argv[5]);
            for (std::string k; std::getline(ss, k, ',');) cfg.kernels.push_back(k);
        }
        if (argc > 6) cfg.repeats = std::atoi(argv[6]);
        if (argc > 7) cfg.threads = std::atoi(argv[7]);
        if (argc > 8) cfg.maxReferencePairs = std::strtoul(argv[8], nullptr, 10);
        // CPU seconds of the whole process: on a shared machine, wall time measures the other
        // users too, while cells per CPU-second measures the kernel (reference subset included).
        auto cpuSeconds = [] {
            rusage u{};
            getrusage(RUSAGE_SELF, &u);
            return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
        };
        const double cpu0 = cpuSeconds();
        BenchTable rows = runBench(cfg);
        const double cpu = cpuSeconds() - cpu0;
        double cells = 0;
        for (const BenchRow& r : rows) {
            std::printf("%-14s %-9s len=%zu pairs=%zu band=%d median=%.4fs %.3f Gcells/s %.1f dist/s maxrel=%.3g  %s\n",
                        r.kernel.c_str(), r.metric.c_str(), r.length, r.pairs, r.band, r.median_s,
                        r.cells_per_s / 1e9, r.distances_per_s, r.max_rel_error, r.note.c_str());
            if (r.distances_per_s > 0) cells += double(cfg.repeats) * double(r.pairs) * r.cells_per_s / r.distances_per_s;
        }
        std::printf("process CPU time %.2f s for %.3g timed cells: %.3f Gcells per CPU-second\n", cpu, cells,
                    cpu > 0 ? cells / cpu / 1e9 : 0.0);
    } catch (const EngineError& e) {
        std::fprintf(stderr, "warplab-bench-cpu: %s\n", e.what());
        return e.isBadInput() ? 2 : 1;
    }
    return 0;
}
