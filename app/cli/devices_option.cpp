// --devices parsing (devices_option.h).
#include "app/cli/devices_option.h"

#include <algorithm>

#include "compute/core/error.h"

namespace warplab::cli {

std::vector<int> parseDevices(const std::string& text) {
    using compute::EngineError;
    if (text.empty() || text == "all") return {};
    std::vector<int> out;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t comma = text.find(',', at);
        if (comma == std::string::npos) comma = text.size();
        const std::string item = text.substr(at, comma - at);
        const bool digits = !item.empty() && item.size() <= 4 &&
                            std::all_of(item.begin(), item.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
        if (!digits)
            throw EngineError(EngineError::Kind::BadParameter, "devices",
                              "expected all or GPU indices separated by commas (0,1), got \"" + text + "\"");
        const int d = std::stoi(item);
        if (std::find(out.begin(), out.end(), d) != out.end())
            throw EngineError(EngineError::Kind::BadParameter, "devices", "GPU " + item + " is listed twice");
        out.push_back(d);
        at = comma + 1;
    }
    return out;
}

}  // namespace warplab::cli
