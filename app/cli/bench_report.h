// How `warplab-cli bench` and its subcommands (cmd_bench*.cpp) print a benchmark: one aligned
// table on stdout, and the same rows as JSON (io/bench_json.h).
#pragma once
#include <cstdio>
#include <ostream>
#include <string>

#include "compute/bench/bench.h"
#include "io/bench_json.h"

namespace warplab::cli {

// A missing energy figure prints as "-"; energy_note says why.
inline std::string energyCell(bool valid, double v, const char* format) {
    if (!valid) return "-";
    char cell[32];
    std::snprintf(cell, sizeof cell, format, v);
    return cell;
}

inline void printBenchTable(std::ostream& out, const compute::BenchTable& table) {
    char line[1024];
    std::snprintf(line, sizeof line, "%-34s %-9s %7s %9s %5s %12s %12s %12s %11s %10s %7s %10s  %-36s %s\n", "kernel", "metric",
                  "length", "pairs", "band", "median_s", "cells/s", "dist/s", "max_rel_err", "J/dist", "mean_W", "dist/ms/W",
                  "energy_note", "note");
    out << line;
    for (const auto& r : table) {
        const bool e = r.energy.valid();
        std::snprintf(line, sizeof line, "%-34s %-9s %7zu %9zu %5d %12.6g %12.4g %12.4g %11.3g %10s %7s %10s  %-36s %s\n",
                      r.kernel.c_str(), r.metric.c_str(), r.length, r.pairs, r.band, r.median_s, r.cells_per_s,
                      r.distances_per_s, r.max_rel_error, energyCell(e, r.energy.joulesPerDistance(), "%.3g").c_str(),
                      energyCell(e, r.energy.meanPowerW(), "%.0f").c_str(),
                      energyCell(e, r.energy.distancesPerMsPerW(), "%.3g").c_str(),
                      (e ? std::string("-") : r.energy.note).c_str(), r.note.c_str());
        out << line;
    }
}

}  // namespace warplab::cli
