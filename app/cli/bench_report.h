// How `warplab-cli bench` (cmd_bench.cpp) and the GPU machine's warplab-gpu-bench print a
// benchmark: one aligned table on stdout and the same rows as JSON.
#pragma once
#include <cstdio>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "compute/bench/bench.h"

namespace warplab::cli {

inline void printBenchTable(std::ostream& out, const compute::BenchTable& table) {
    char line[512];
    std::snprintf(line, sizeof line, "%-34s %-9s %7s %9s %5s %12s %12s %12s %11s  %s\n", "kernel", "metric", "length",
                  "pairs", "band", "median_s", "cells/s", "dist/s", "max_rel_err", "note");
    out << line;
    for (const auto& r : table) {
        std::snprintf(line, sizeof line, "%-34s %-9s %7zu %9zu %5d %12.6g %12.4g %12.4g %11.3g  %s\n", r.kernel.c_str(),
                      r.metric.c_str(), r.length, r.pairs, r.band, r.median_s, r.cells_per_s, r.distances_per_s,
                      r.max_rel_error, r.note.c_str());
        out << line;
    }
}

inline nlohmann::json benchJson(const compute::BenchTable& table, const std::string& device) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : table)
        rows.push_back({{"kernel", r.kernel}, {"metric", r.metric}, {"length", r.length}, {"pairs", r.pairs},
                        {"band", r.band}, {"median_s", r.median_s}, {"cells_per_s", r.cells_per_s},
                        {"distances_per_s", r.distances_per_s}, {"max_rel_error", r.max_rel_error},
                        {"note", r.note}});
    return {{"device", device}, {"rows", rows}};
}

}  // namespace warplab::cli
