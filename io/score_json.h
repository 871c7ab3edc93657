// Detection scores as JSON, as `warplab-cli score --json` prints them and the Python package
// returns them: {"event": {...}, "sample": {...}} with SzCORE's figures under the same keys in
// both; a ratio with nothing to divide (no reference event, no detection) is null.
#pragma once
#include <cmath>
#include <nlohmann/json.hpp>

#include "compute/detect/crossval.h"
#include "compute/scoring/scoring.h"

namespace warplab::io {

inline nlohmann::ordered_json scoresJson(const compute::DetectionScores& s) {
    auto ratio = [](double v) { return std::isnan(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v); };
    nlohmann::ordered_json j;
    j["tp"] = s.tp;
    j["fp"] = s.fp;
    j["reference_events"] = s.reference;
    j["sensitivity"] = ratio(s.sensitivity);
    j["precision"] = ratio(s.precision);
    j["f1"] = ratio(s.f1);
    j["fp_per_day"] = ratio(s.fpPerDay);
    return j;
}

// Per reference seizure: its span, whether it was detected, and the onset delay (null when missed).
inline nlohmann::ordered_json seizureOutcomesJson(const std::vector<compute::SeizureOutcome>& seizures) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& s : seizures) {
        nlohmann::ordered_json j;
        j["onset_s"] = s.seizure.startS;
        j["duration_s"] = s.seizure.endS - s.seizure.startS;
        j["detected"] = s.detected;
        j["latency_s"] = s.detected ? nlohmann::ordered_json(s.latencyS) : nlohmann::ordered_json(nullptr);
        out.push_back(std::move(j));
    }
    return out;
}

// A cross-validation's folds and pooled scores appended to `j` (after whatever the caller put
// first): folds [{recording, duration_s, training, event, sample, seizures}], event, sample,
// tested_s, study_s; `crossval --json` and the Detection view's score export write the same.
inline void appendCrossvalJson(nlohmann::ordered_json& j, const compute::CrossvalResult& r) {
    auto folds = nlohmann::ordered_json::array();
    for (const auto& f : r.folds) {
        nlohmann::ordered_json fj;
        fj["recording"] = f.recording;
        fj["duration_s"] = f.durationS;
        fj["training"] = f.training;
        fj["event"] = scoresJson(f.event);
        fj["sample"] = scoresJson(f.sample);
        fj["seizures"] = seizureOutcomesJson(f.outcomes);
        folds.push_back(std::move(fj));
    }
    j["folds"] = std::move(folds);
    j["event"] = scoresJson(r.event);
    j["sample"] = scoresJson(r.sample);
    j["tested_s"] = r.testedS;
    j["study_s"] = r.totalS;
}

}  // namespace warplab::io
