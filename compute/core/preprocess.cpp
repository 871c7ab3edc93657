#include "compute/core/preprocess.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>

#include "compute/core/error.h"

namespace warplab::compute {

using K = EngineError::Kind;

void checkSeries(const Series& s, const std::string& field, std::size_t firstSample) {
    if (s.dims == 0) throw EngineError(K::BadInput, field, "series has zero channels");
    if (s.length == 0) throw EngineError(K::BadInput, field, "series is empty");
    if (s.samples().size() != s.length * s.dims)
        throw EngineError(K::BadInput, field,
                          "holds " + std::to_string(s.samples().size()) + " values, expected length " +
                              std::to_string(s.length) + " x channels " + std::to_string(s.dims));
    // Blocks tested without a branch per sample (a float is NaN or infinite when its exponent
    // bits are all set; the compiler vectorises the test: a 1e6-sample reference took 1 ms a
    // sample at a time), the first bad sample looked for in a block that has one.
    const std::span<const float> v = s.samples();
    constexpr std::size_t kBlock = 4096;
    for (std::size_t b = 0; b < v.size(); b += kBlock) {
        const std::size_t e = std::min(v.size(), b + kBlock);
        unsigned bad = 0;
        for (std::size_t k = b; k < e; ++k) bad |= (std::bit_cast<std::uint32_t>(v[k]) & 0x7F800000u) == 0x7F800000u;
        if (!bad) continue;
        for (std::size_t k = b; k < e; ++k)
            if (!std::isfinite(v[k])) {
                std::string what = std::isnan(v[k]) ? "NaN" : "infinite";
                std::string where = "sample " + std::to_string(firstSample + k / s.dims);
                if (s.dims > 1) where += " channel " + std::to_string(k % s.dims);
                throw EngineError(K::BadInput, field, where + " is " + what);
            }
    }
}

void checkPair(const Series& x, const std::string& xField, const Series& y,
               const std::string& yField, Metric metric) {
    if (x.dims != y.dims)
        throw EngineError(K::BadInput, yField,
                          "has " + std::to_string(y.dims) + " channels but " + xField + " has " +
                              std::to_string(x.dims));
    if (metric == Metric::Euclidean && x.length != y.length)
        throw EngineError(K::BadInput, yField,
                          "euclidean needs equal lengths: " + xField + " has " +
                              std::to_string(x.length) + " samples, " + yField + " has " +
                              std::to_string(y.length));
}

void znormalizeInPlace(Series& s) {
    s.own();
    const std::size_t n = s.length, d = s.dims;
    if (n == 0) return;
    for (std::size_t c = 0; c < d; ++c) {
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i) sum += s.values[i * d + c];
        const double mean = sum / double(n);
        double ss = 0;
        for (std::size_t i = 0; i < n; ++i) {
            double e = s.values[i * d + c] - mean;
            ss += e * e;
        }
        const double sd = std::sqrt(ss / double(n));
        const bool constant = sd <= 1e-12 * std::max(1.0, std::fabs(mean));
        for (std::size_t i = 0; i < n; ++i) {
            float& v = s.values[i * d + c];
            v = constant ? 0.0f : float((v - mean) / sd);
        }
    }
}

Series znormalized(const Series& s) {
    Series out = s;
    znormalizeInPlace(out);
    return out;
}

bool selfDistanceIsZero(Metric metric) { return metric != Metric::SoftDtw; }

// Subsequence DTW looks for x inside y: swapping them changes the question.
bool isSymmetric(Metric metric) { return metric != Metric::Sdtw; }

BandRange bandRow(long i, long n, long m, long w) {
    const long up = w + std::max(0L, m - n);
    const long lo = w + std::max(0L, n - m);
    return {std::max(0L, i - lo), std::min(m - 1, i + up)};
}

std::uint64_t dpCells(Metric metric, std::size_t n, std::size_t m, int band) {
    if (metric == Metric::Euclidean) return n;
    if (metric != Metric::Cdtw) return std::uint64_t(n) * m;
    std::uint64_t cells = 0;
    for (long i = 0; i < long(n); ++i) {
        BandRange r = bandRow(i, long(n), long(m), band);
        if (r.hi >= r.lo) cells += std::uint64_t(r.hi - r.lo + 1);
    }
    return cells;
}

}  // namespace warplab::compute
