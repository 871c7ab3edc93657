#include "io/edf_tal.h"

#include <charconv>
#include <cmath>

#include "io/printable.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace {

bool parseSeconds(std::string_view s, double& out, bool signRequired) {
    if (s.empty()) return false;
    if (signRequired && s[0] != '+' && s[0] != '-') return false;
    std::string t(s);
    if (t[0] == '+') t.erase(0, 1);
    if (t.empty()) return false;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc() && p == t.data() + t.size() && std::isfinite(out);
}

}  // namespace

TalRecord parseTalRecord(std::string_view bytes) {
    TalRecord out;
    bool first = true;
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        if (bytes[pos] == '\0') { ++pos; continue; }  // padding between / after TALs
        std::size_t end = bytes.find('\0', pos);
        if (end == std::string_view::npos) {
            out.problems.push_back("TAL without its terminating zero byte");
            end = bytes.size();
        }
        std::string_view tal = bytes.substr(pos, end - pos);
        pos = end + 1;
        std::size_t sep = tal.find('\x14');
        if (sep == std::string_view::npos) {
            out.problems.push_back("TAL without the 0x14 separator after its onset");
            first = false;
            continue;
        }
        std::string_view stamp = tal.substr(0, sep);
        std::string_view onsetText = stamp, durationText;
        if (auto d = stamp.find('\x15'); d != std::string_view::npos) {
            onsetText = stamp.substr(0, d);
            durationText = stamp.substr(d + 1);
        }
        double onset = 0, duration = 0;
        if (!parseSeconds(onsetText, onset, true)) {
            out.problems.push_back("TAL onset \"" + std::string(onsetText) + "\" is not a signed number of seconds");
            first = false;
            continue;
        }
        if (!durationText.empty() && (!parseSeconds(durationText, duration, false) || duration < 0)) {
            out.problems.push_back("TAL duration \"" + std::string(durationText) + "\" is not a number of seconds");
            duration = 0;
        }
        // Texts follow, each closed by 0x14; the first TAL of a record carries an empty text
        // that marks it as the record's time-keeping stamp.
        std::string_view rest = tal.substr(sep + 1);
        bool firstText = true;
        while (!rest.empty()) {
            std::size_t close = rest.find('\x14');
            std::string_view text = rest.substr(0, close);
            rest = close == std::string_view::npos ? std::string_view() : rest.substr(close + 1);
            if (first && firstText && text.empty()) {
                out.hasTimekeeping = true;
                out.recordOnsetS = onset;
            } else if (!text.empty()) {
                out.annotations.push_back({onset, duration, escapeControls(trim(text))});
            }
            firstText = false;
        }
        first = false;
    }
    return out;
}

}  // namespace warplab::io
