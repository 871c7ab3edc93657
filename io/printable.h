// Text a file hands us, made safe to show: header fields and annotations reach the GUI, the
// CLI's tab-separated output, warnings and error messages, where a control character would act
// (a line break or tab splitting a field, an ESC sequence driving the terminal). Each control
// byte (C0, DEL, and the C1 controls as UTF-8) becomes "\xNN"; everything else is kept.
#pragma once
#include <string>
#include <string_view>

namespace warplab::io {

inline std::string escapeControls(std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    auto escape = [&](unsigned char c) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f) {
            escape(c);
        } else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
            escape(c);
            escape(static_cast<unsigned char>(s[++i]));
        } else {
            out += char(c);
        }
    }
    return out;
}

}  // namespace warplab::io
