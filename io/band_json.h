// JSON of frequency bands (compute/spectral/frequency_band.h), one form for sessions, CLI
// --json outputs, Python and exports: {"name": "alpha", "low_hz": 8, "high_hz": 13} ("name"
// is "" for an unnamed range), and a band choice {"bands": [...], "order": 4,
// "apply_to_display": false}.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "compute/spectral/frequency_band.h"

namespace warplab::io {

nlohmann::json bandToJson(const compute::spectral::FrequencyBand& band);
// Throws IoError(file, where + field, reason) for a missing or mistyped field or a band the
// form check refuses (LO >= HI, non-finite); the rate is not known here.
compute::spectral::FrequencyBand bandFromJson(const nlohmann::json& j, const std::string& file, const std::string& where);

nlohmann::json bandChoiceToJson(const compute::spectral::BandChoice& choice);
compute::spectral::BandChoice bandChoiceFromJson(const nlohmann::json& j, const std::string& file,
                                                 const std::string& where);

}  // namespace warplab::io
