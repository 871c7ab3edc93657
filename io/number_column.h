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

// [begin, end) read as one double exactly as std::from_chars reads it, bit for bit. True only
// when the whole range is one number that from_chars takes without error and that is finite;
// false, `out` untouched, for anything else (a leading '+' or blank, trailing characters, NaN,
// an infinity, a value out of double's range). The short form below by parseShortDecimal, any
// other by fast_float (Debian's libfast-float-dev: the same correctly rounded value in 0.8-0.9
// of from_chars' time).
bool parseFiniteDouble(const char* begin, const char* end, double& out);

// The common exported form [-]digits[.digits] (at least one digit each side of a point, at most
// 19 in all) read into `out` as std::from_chars reads it, bit for bit: when the digits make an
// integer M <= 2^53 with F digits after the point, M and 10^F are exact doubles and one IEEE
// division rounds M / 10^F correctly (Clinger's fast path). Kept beside fast_float because on
// such lines ("%.6f") it takes 0.6-0.8 of fast_float's time (docs/PERFORMANCE.md). False, `out`
// untouched, for anything else (an exponent, more digits, a larger M, "5.", ".5", a '+').
bool parseShortDecimal(const char* begin, const char* end, double& out);

}  // namespace warplab::io
