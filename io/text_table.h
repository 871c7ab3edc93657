// Numbers from a text file: UCR style (whitespace separated, one series per line), CSV/TSV
// with or without a header line of names. Lines may differ in length (UCR variable-length
// sets). Shared by readSeriesFile and the text recordings.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace warplab::io {

struct TextTable {
    std::vector<std::string> header;        // names from a first non-numeric line; empty if none
    std::vector<std::vector<double>> rows;  // one per non-empty data line
    std::vector<std::size_t> lineNumbers;   // 1-based line of each row in the file
    bool trailingNanPadding = false;        // UCR 2018 pads variable-length rows with NaN: dropped
};

// Parses `content` of file `file` (for messages). Separators: commas (fields trimmed),
// otherwise runs of spaces/tabs; CRLF accepted. Throws IoError naming file, line, field and
// reason for a bad number, an empty field, NaN or infinity inside a row, or a blank line
// between data lines. NaN at the end of a row is UCR's padding and is dropped.
TextTable parseTextTable(const std::string& file, std::string_view content);

// Shortest text that reads back as the same double ("1", "-0.25", "3.0000000000000004").
std::string formatDouble(double v);

}  // namespace warplab::io
