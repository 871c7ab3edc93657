// A benchmark's rows as JSON, as `warplab-cli bench --json` writes them and the Python package's
// bench() returns them.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "compute/bench/bench.h"

namespace warplab::io {

// Energy fields are null where there is no figure, with energy_note saying why ("" otherwise).
inline nlohmann::json benchJson(const compute::BenchTable& table, const std::string& device) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : table) {
        const bool e = r.energy.valid();
        auto figure = [e](double v) { return e ? nlohmann::json(v) : nlohmann::json(nullptr); };
        rows.push_back({{"kernel", r.kernel}, {"metric", r.metric}, {"length", r.length}, {"pairs", r.pairs},
                        {"band", r.band}, {"median_s", r.median_s}, {"cells_per_s", r.cells_per_s},
                        {"distances_per_s", r.distances_per_s}, {"max_rel_error", r.max_rel_error},
                        {"joules_per_distance", figure(r.energy.joulesPerDistance())},
                        {"mean_power_w", figure(r.energy.meanPowerW())},
                        {"distances_per_ms_per_w", figure(r.energy.distancesPerMsPerW())},
                        {"energy_j", figure(r.energy.joules)}, {"energy_window_s", figure(r.energy.seconds)},
                        {"energy_note", e ? std::string() : r.energy.note}, {"note", r.note}});
    }
    return {{"device", device}, {"rows", rows}};
}

}  // namespace warplab::io
