// --devices: "all" (every visible GPU) or runtime indices "0,1,3" -> RunOptions::devices.
#pragma once
#include <string>
#include <vector>

namespace warplab::cli {

// Empty for "all". Throws EngineError(BadParameter, "devices") naming what is wrong; whether
// the indices exist is checked by the engine when a GPU kernel runs.
std::vector<int> parseDevices(const std::string& text);

}  // namespace warplab::cli
