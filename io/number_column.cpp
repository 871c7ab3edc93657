// parseNumberColumn (number_column.h).
#include "io/number_column.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fast_float/fast_float.h>
#include <tbb/parallel_for.h>

#include "compute/core/huge_pages.h"

namespace warplab::io {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

namespace {

// parseShortDecimal on the longest prefix of [s, t) that can be one: where the number stops,
// or nullptr when [s, t) does not start with one (`out` then untouched).
const char* shortDecimalPrefix(const char* s, const char* t, double& out) {
    static constexpr double kPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* p = s;
    const bool negative = p < t && *p == '-';
    if (negative) ++p;
    std::uint64_t mantissa = 0;
    const char* const whole = p;
    while (p < t && unsigned(*p - '0') < 10u) mantissa = mantissa * 10 + unsigned(*p++ - '0');
    std::ptrdiff_t digits = p - whole, fraction = 0;
    if (digits == 0) return nullptr;
    if (p < t && *p == '.') {
        const char* const f = ++p;
        while (p < t && unsigned(*p - '0') < 10u) mantissa = mantissa * 10 + unsigned(*p++ - '0');
        fraction = p - f;
        if (fraction == 0) return nullptr;
        digits += fraction;
    }
    // 19 digits never overflow 64 bits; 22 >= fraction follows from it.
    if (digits > 19 || mantissa > (std::uint64_t(1) << 53)) return nullptr;
    const double v = double(mantissa) / kPow10[fraction];
    out = negative ? -v : v;
    return p;
}

}  // namespace

bool parseShortDecimal(const char* s, const char* t, double& out) {
    double v;
    if (shortDecimalPrefix(s, t, v) != t) return false;
    out = v;
    return true;
}

namespace {

// The number at the start of [s, t) as fast_float reads it where from_chars would take it
// without error and it is finite: where it stops, or nullptr (`out` then untouched).
const char* finitePrefix(const char* s, const char* t, double& out) {
    double v;
    const auto [p, ec] = fast_float::from_chars(s, t, v);
    if (ec != std::errc()) return nullptr;
    if (v == 0) {
        // fast_float rounds an underflow to zero where from_chars reports it out of range:
        // zero only when every digit before the exponent is a zero.
        for (const char* q = s; q < p && *q != 'e' && *q != 'E'; ++q)
            if (unsigned(*q - '1') < 9u) return nullptr;
    } else if (!std::isfinite(v)) {  // NaN, an infinity, or an overflow (fast_float: no error)
        return nullptr;
    }
    out = v;
    return p;
}

bool lineEnd(const char* p, const char* e) { return p == e || *p == '\n' || *p == '\r'; }

// The number at the start of a line: the short form, else any form; where it stops or nullptr.
const char* numberPrefix(const char* s, const char* t, double& out) {
    const char* p = shortDecimalPrefix(s, t, out);
    return p && lineEnd(p, t) ? p : finitePrefix(s, t, out);
}

}  // namespace

bool parseFiniteDouble(const char* s, const char* t, double& out) {
    double v;
    if (numberPrefix(s, t, v) != t) return false;
    out = v;
    return true;
}

namespace {

// The LFs in [b, e): a 32-bit count per block, which the compiler vectorises (std::count's
// 64-bit count it does not: three times the instructions).
std::size_t countLineEnds(const char* b, const char* e) {
    std::size_t n = 0;
    while (e - b >= 4096) {
        unsigned block = 0;
        for (int i = 0; i < 4096; ++i) block += b[i] == '\n';
        n += block;
        b += 4096;
    }
    for (; b < e; ++b) n += *b == '\n';
    return n;
}

// Parses the lines of [b, e) (whole lines only) into out[0..); false at the first line that is
// not one finite number, or when there are more lines than `room`.
bool parsePiece(const char* b, const char* e, float* out, std::size_t room) {
    std::size_t n = 0;
    while (b < e) {
        // The common line, a number and its LF (or CR LF): the parser's stop is the line end.
        double v = 0;
        if (n < room) {
            const char* stop = shortDecimalPrefix(b, e, v);
            if (stop && (stop == e || *stop == '\n')) {  // the commonest line first
                out[n++] = float(v);
                b = stop == e ? e : stop + 1;
                continue;
            }
            if (!stop || *stop != '\r') stop = finitePrefix(b, e, v);
            if (stop) {
                if (stop == e || *stop == '\n') {
                    out[n++] = float(v);
                    b = stop == e ? e : stop + 1;
                    continue;
                }
                if (*stop == '\r' && e - stop >= 2 && stop[1] == '\n') {
                    out[n++] = float(v);
                    b = stop + 2;
                    continue;
                }
            }
        }
        // Any other line: blanks around the number, a '+', or something to refuse.
        const char* nl = static_cast<const char*>(std::memchr(b, '\n', std::size_t(e - b)));
        const char* le = nl ? nl : e;
        const char* s = b;
        const char* t = le;
        while (s < t && blank(*s)) ++s;
        while (t > s && blank(t[-1])) --t;
        if (s < t && *s == '+') {  // from_chars refuses it; parseTextTable accepts it, before the digits
            ++s;
            if (s < t && (*s == '-' || *s == '+')) return false;
        }
        if (s == t || n == room || !parseFiniteDouble(s, t, v)) return false;
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
        const std::size_t lines = countLineEnds(cut[i], cut[i + 1]);
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
