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

}  // namespace warplab::io
