#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include "io/io_error.h"
#include "io/recording.h"

namespace warplab::io {

int Recording::findSignal(std::string_view name) const {
    const auto& sigs = signals();
    if (name.size() > 1 && name[0] == '#') {
        int idx = -1;
        auto [p, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), idx);
        if (ec == std::errc() && p == name.data() + name.size() && idx >= 0 && idx < int(sigs.size())) return idx;
        return -1;
    }
    for (const auto& s : sigs)
        if (s.displayName == name) return s.index;
    for (const auto& s : sigs)
        if (s.label == name) return s.index;
    return -1;
}

}  // namespace warplab::io

namespace warplab::io {

void Recording::readInto(int signal, long long start, long long count, float* out) const {
    const std::vector<float> v = read(signal, start, count);
    std::copy(v.begin(), v.end(), out);
}

std::vector<int> Recording::readDigital(int, long long, long long) const {
    throw IoError(path(), "signal", std::string("digital samples exist only in EDF/BDF files, not in ") +
                                        std::string(formatName(format())));
}

long long Recording::checkReadWindow(int signal, long long start, long long count) const {
    const auto& sigs = signals();
    if (signal < 0 || signal >= int(sigs.size()))
        throw IoError(path(), "signal", "index " + std::to_string(signal) + " outside 0.." +
                                            std::to_string(int(sigs.size()) - 1));
    const long long total = sigs[signal].samples;
    if (start < 0 || count < 0 || start > total || count > total - start)
        throw IoError(path(), "signal '" + sigs[signal].displayName + "' window",
                      "samples [" + std::to_string(start) + ", " + std::to_string(start + count) +
                          ") outside the recording's " + std::to_string(total) + " samples");
    return count;
}

}  // namespace warplab::io
