// Two text helpers every reader of text fields in io/ needs: trim() for surrounding white
// space (or EDF's padding) and lower() for case-insensitive matching of ASCII words and
// file extensions.
#pragma once
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace warplab::io {

// White space that text lines and fields may carry around their content.
inline constexpr std::string_view kTrimmedSpace = " \t\r\n";

// `s` without leading and trailing characters from `spaces`.
inline std::string trim(std::string_view s, std::string_view spaces = kTrimmedSpace) {
    const std::size_t b = s.find_first_not_of(spaces);
    if (b == std::string_view::npos) return {};
    const std::size_t e = s.find_last_not_of(spaces);
    return std::string(s.substr(b, e - b + 1));
}

// `s` with ASCII letters in lower case.
inline std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

}  // namespace warplab::io
