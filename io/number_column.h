// The common large input, one number a line (a long reference channel exported as text), read
// without building a row per line: the file is split at line ends into pieces parsed in
// parallel straight into floats. Only plain files take this path; anything else (comments,
// headers, blank lines, several fields, NaN, a bad number) is left to parseTextTable, which
// gives the same values and names file, line and reason for what it refuses.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace warplab::io {

// The values of `content` when every line (CR before LF allowed, spaces and tabs around the
// number allowed, the last line may lack its LF) holds exactly one finite number and there are
// at least two lines; each value as parseTextTable would read it (double, then float).
// nullopt otherwise.
std::optional<std::vector<float>> parseNumberColumn(std::string_view content);

// The common exported form [-]digits[.digits] (at least one digit each side of a point, at most
// 19 in all) read into `out` as std::from_chars reads it, bit for bit: when the digits make an
// integer M <= 2^53 with F digits after the point, M and 10^F are exact doubles and one IEEE
// division rounds M / 10^F correctly (Clinger's fast path), about a fifth of from_chars'
// instructions on "%.6f" lines. False, `out` untouched, for anything else (an exponent, more
// digits, a larger M, "5.", ".5", a '+'): from_chars then decides.
bool parseShortDecimal(const char* begin, const char* end, double& out);

}  // namespace warplab::io
