// parseNumberColumn (number_column.h).
#include "io/number_column.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstring>
#include <cmath>

#include <tbb/parallel_for.h>

#include "compute/core/huge_pages.h"

namespace warplab::io {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Parses the lines of [b, e) (whole lines only) into out[0..); false at the first line that is
// not one finite number, or when there are more lines than `room`.
bool parsePiece(const char* b, const char* e, float* out, std::size_t room) {
    std::size_t n = 0;
    while (b < e) {
        const char* nl = static_cast<const char*>(std::memchr(b, '\n', std::size_t(e - b)));
        const char* le = nl ? nl : e;
        const char* s = b;
        const char* t = le;
        while (s < t && blank(*s)) ++s;
        while (t > s && blank(t[-1])) --t;
        if (s < t && *s == '+') ++s;  // from_chars refuses it; parseTextTable accepts it
        double v = 0;
        auto [p, ec] = std::from_chars(s, t, v);
        if (s == t || ec != std::errc() || p != t || !std::isfinite(v) || n == room) return false;
        out[n++] = float(v);
        b = nl ? nl + 1 : e;
    }
    return n == room;
}

}  // namespace

std::optional<std::vector<float>> parseNumberColumn(std::string_view content) {
    const char* const begin = content.data();
    const char* const end = begin + content.size();
    // Pieces of ~1 MiB spread the parse over the cores; a small file is one piece.
    constexpr std::size_t kPiece = std::size_t(1) << 20;
    const std::size_t pieces = std::max<std::size_t>(1, content.size() / kPiece);
    std::vector<const char*> cut(pieces + 1, end);
    cut[0] = begin;
    for (std::size_t i = 1; i < pieces; ++i) {
        // Each piece starts after a line end, so no line is split between two pieces.
        const char* at = std::max(cut[i - 1], begin + i * (content.size() / pieces));
        const char* nl = static_cast<const char*>(std::memchr(at, '\n', std::size_t(end - at)));
        cut[i] = nl ? nl + 1 : end;
    }
    // Lines per piece first, so that every piece parses straight into its place in the result
    // (one output buffer, no per-piece copies: first touches of memory are costly, huge_pages.h).
    std::vector<std::size_t> at(pieces + 1, 0);
    tbb::parallel_for(std::size_t(0), pieces, [&](std::size_t i) {
        const std::size_t lines = std::size_t(std::count(cut[i], cut[i + 1], '\n'));
        at[i + 1] = lines + (cut[i + 1] > cut[i] && cut[i + 1][-1] != '\n' ? 1 : 0);
    });
    for (std::size_t i = 0; i < pieces; ++i) at[i + 1] += at[i];
    const std::size_t n = at[pieces];
    if (n < 2) return std::nullopt;
    std::vector<float> out;
    out.reserve(n);
    compute::adviseHugePages(out.data(), n * sizeof(float));
    out.resize(n);
    std::atomic<bool> ok{true};
    tbb::parallel_for(std::size_t(0), pieces, [&](std::size_t i) {
        if (ok.load(std::memory_order_relaxed) && !parsePiece(cut[i], cut[i + 1], out.data() + at[i], at[i + 1] - at[i]))
            ok = false;
    });
    if (!ok) return std::nullopt;
    return out;
}

}  // namespace warplab::io
