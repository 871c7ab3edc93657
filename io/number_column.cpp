// parseNumberColumn (number_column.h).
#include "io/number_column.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

// The LFs in [b, e): on x86-64 in SSE2, 16 bytes a step into byte counters emptied every
// 255 steps (3 instructions per 16 bytes; the compiler's own vectorisation of a 32-bit count
// took 12); elsewhere a 32-bit count per block, which compilers vectorise.
std::size_t countLineEnds(const char* b, const char* e) {
    std::size_t n = 0;
#if defined(__x86_64__)
    const __m128i lf = _mm_set1_epi8('\n');
    while (e - b >= 16) {
        const std::size_t steps = std::min<std::size_t>(255, std::size_t(e - b) / 16);
        __m128i counts = _mm_setzero_si128();
        for (std::size_t i = 0; i < steps; ++i, b += 16)  // a match is -1: subtracting it counts
            counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), lf));
        const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());  // two 64-bit sums of 8 bytes
        n += std::size_t(_mm_cvtsi128_si64(sums)) + std::size_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
    }
#else
    while (e - b >= 4096) {
        unsigned block = 0;
        for (int i = 0; i < 4096; ++i) block += b[i] == '\n';
        n += block;
        b += 4096;
    }
#endif
    for (; b < e; ++b) n += *b == '\n';
    return n;
}

// Any other line [s, t) (without its LF): blanks around the number, a '+' before it; false for
// anything but one finite number.
bool anyLine(const char* s, const char* t, float& out) {
    while (s < t && blank(*s)) ++s;
    while (t > s && blank(t[-1])) --t;
    if (s < t && *s == '+') {  // from_chars refuses it; parseTextTable accepts it, before the digits
        ++s;
        if (s < t && (*s == '-' || *s == '+')) return false;
    }
    double v;
    if (s == t || !parseFiniteDouble(s, t, v)) return false;
    out = float(v);
    return true;
}

#if defined(__x86_64__)
#define WARPLAB_LINES_SSSE3 1
// The shuffles that move the digits of [-]D.F (a digits D, f digits F, the point between them)
// to the last a + f bytes of 16, in order, and zero the bytes before them: kShuffle[a][f].
struct DigitShuffles {
    alignas(16) unsigned char at[16][16][16];
    constexpr DigitShuffles() : at{} {
        for (int a = 0; a < 16; ++a)
            for (int f = 0; f < 16; ++f)
                for (int k = 0; k < 16; ++k) {
                    const int from = k - (16 - a - f);  // the k-th output byte is digit `from`
                    at[a][f][k] = a + f > 15 || from < 0 ? 0x80 : from < a ? from : from + 1;  // skip the point
                }
    }
};
constexpr DigitShuffles kShuffle;

// The commonest lines of an exported column, [-]D.F or [-]D of at most 15 characters (the
// minus not counted), read 16 bytes at a time into `out` (SSSE3): no branch per digit (the digit
// loops of shortDecimalPrefix mispredict where the number of digits varies from line to line).
// The value is shortDecimalPrefix's: the same integer (at most 15 digits, so below 2^53) over
// the same power of ten. [s, t) is the line without its LF, a CR allowed at its end; reads
// s[0 .. 17), which the caller guarantees lie inside the buffer. False (`out` untouched) for
// any other line.
__attribute__((target("ssse3"))) inline bool shortLine(const char* s, const char* t, float& out) {
    static constexpr double kPow10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const bool negative = *s == '-';
    const char* const p = s + negative;
    std::ptrdiff_t len = t - p;
    if (len > 0 && p[len - 1] == '\r') --len;
    if (len < 1 || len > 15) return false;
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    const unsigned mask = (1u << len) - 1;
    const unsigned digits = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d))) & mask;
    const unsigned point = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')))) & mask;
    // Digits everywhere but at most one point, which has digits on both sides.
    if ((digits | point) != mask || (point & (point - 1)) || (point & 1u) || (point >> (len - 1))) return false;
    const unsigned a = point ? unsigned(__builtin_ctz(point)) : unsigned(len);
    const unsigned f = point ? unsigned(len) - a - 1 : 0;
    // The digits (as the bytes 0..9) right-aligned, then combined: pairs (10x + y), quads
    // (100x + y), eights (10^4 x + y) in 64-bit halves, the first digit the most significant.
    const __m128i x = _mm_shuffle_epi8(d, _mm_load_si128(reinterpret_cast<const __m128i*>(kShuffle.at[a][f])));
    const __m128i pairs = _mm_maddubs_epi16(x, _mm_set1_epi16(0x010A));
    const __m128i quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x00010064));
    const __m128i eights = _mm_add_epi64(_mm_mul_epu32(quads, _mm_set1_epi64x(10000)), _mm_srli_epi64(quads, 32));
    const std::int64_t mantissa = _mm_cvtsi128_si64(eights) * 100000000 + _mm_cvtsi128_si64(_mm_unpackhi_epi64(eights, eights));
    const double value = double(mantissa) / kPow10[f];
    out = float(negative ? -value : value);
    return true;
}
#endif

#if defined(WARPLAB_LINES_SSSE3)
// The lines of [b, e) that lie wholly before e - 17, line ends found 64 bytes at a time (four
// compares into one mask) so that each line's end is known before it is read: the lines are
// read independently of each other (reading one to find where the next begins chains them, a
// number's latency per line). Parses from *b and moves it past the lines parsed; n as in
// parsePiece; false at a line that is not one finite number, or more lines than `room`.
__attribute__((target("ssse3"))) bool parseLinesSsse3(const char*& b, const char* e, float* out, std::size_t& n,
                                                      std::size_t room) {
    const __m128i lf = _mm_set1_epi8('\n');
    auto ends16 = [&](const char* q) {
        return std::uint64_t(unsigned(
            _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)), lf))));
    };
    const char* line = b;
    for (const char* q = b; e - q >= 64 + 17; q += 64) {
        std::uint64_t ends = ends16(q) | ends16(q + 16) << 16 | ends16(q + 32) << 32 | ends16(q + 48) << 48;
        while (ends) {
            const char* t = q + __builtin_ctzll(ends);
            ends &= ends - 1;
            if (n == room || !(shortLine(line, t, out[n]) || anyLine(line, t, out[n]))) return false;
            ++n;
            line = t + 1;
        }
    }
    b = line;
    return true;
}
#endif

// Parses the lines of [b, e) (whole lines only) into out[0..); false at the first line that is
// not one finite number, or when there are more lines than `room`.
bool parsePiece(const char* b, const char* e, float* out, std::size_t room) {
    std::size_t n = 0;
#if defined(WARPLAB_LINES_SSSE3)
    static const bool ssse3 = __builtin_cpu_supports("ssse3");
    if (ssse3 && !parseLinesSsse3(b, e, out, n, room)) return false;
#endif
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
        if (n == room || !anyLine(b, nl ? nl : e, out[n])) return false;
        ++n;
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
    // The pieces on all cores; a single piece (a small file: a query) here, without waiting for
    // the thread pool's start (0.8 ms on a 2-core VM at the process's first parallel loop).
    auto eachPiece = [&](const auto& work) {
        if (pieces == 1) work(std::size_t(0));
        else tbb::parallel_for(std::size_t(0), pieces, work);
    };
    // Lines per piece first, so that every piece parses straight into its place in the result
    // (one output buffer, no per-piece copies: first touches of memory are costly, huge_pages.h).
    std::vector<std::size_t> at(pieces + 1, 0);
    eachPiece([&](std::size_t i) {
        const std::size_t lines = countLineEnds(cut[i], cut[i + 1]);
        at[i + 1] = lines + (cut[i + 1] > cut[i] && cut[i + 1][-1] != '\n' ? 1 : 0);
    });
    for (std::size_t i = 0; i < pieces; ++i) at[i + 1] += at[i];
    const std::size_t n = at[pieces];
    if (n < 2) return std::nullopt;
    // Huge pages need 2 MiB-aligned stretches, and the allocator's block starts anywhere (for
    // 4 MB of samples the advice over the samples alone covered nothing, and zeroing them took
    // 2.6 ms, one thread): 2 MiB more room, address space only, lets aligned stretches cover
    // all but the first part of the samples.
    constexpr std::size_t kHugeFloats = (std::size_t(1) << 21) / sizeof(float);
    std::vector<float> out;
    out.reserve(n >= kHugeFloats ? n + kHugeFloats : n);
    compute::adviseHugePages(out.data(), out.capacity() * sizeof(float));
    out.resize(n);
    std::atomic<bool> ok{true};
    eachPiece([&](std::size_t i) {
        if (ok.load(std::memory_order_relaxed) && !parsePiece(cut[i], cut[i + 1], out.data() + at[i], at[i + 1] - at[i]))
            ok = false;
    });
    if (!ok) return std::nullopt;
    return out;
}

}  // namespace warplab::io
