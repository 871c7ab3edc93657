// compute::Params as JSON, for sessions and the HDF5 "parameters" attribute. Plain functions
// (not nlohmann's to_json hooks) so that compute/ stays free to define its own.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "compute/core/params.h"

namespace warplab::io {

nlohmann::json paramsToJson(const compute::Params& p);
// Fields missing from `j` keep their defaults; a wrong type or unknown metric/cost throws
// IoError(file, "<where>.<field>", reason).
compute::Params paramsFromJson(const nlohmann::json& j, const std::string& file, const std::string& where);

}  // namespace warplab::io
