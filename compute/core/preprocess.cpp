#include "compute/core/preprocess.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "compute/core/error.h"

namespace warplab::compute {

using K = EngineError::Kind;

namespace {

// The first of n floats that is NaN or infinite (all exponent bits set), or n. Blocks are
// scanned without a branch per value, so that the scan vectorises; a long series (a reference
// of 1e9 samples took 0.5 s on one core) is scanned on all cores.
std::size_t firstNotFinite(const float* v, std::size_t n) {
    constexpr std::size_t kBlock = 4096;
    auto blockHasOne = [v](std::size_t a, std::size_t b) {
        unsigned bad = 0;
        for (std::size_t i = a; i < b; ++i) {
            std::uint32_t bits;
            std::memcpy(&bits, v + i, sizeof bits);
            bad |= unsigned((bits & 0x7f800000u) == 0x7f800000u);
        }
        return bad != 0;
    };
    auto firstIn = [&](std::size_t a, std::size_t b) {
        for (std::size_t c = a; c < b; c += kBlock) {
            const std::size_t e = std::min(b, c + kBlock);
            if (!blockHasOne(c, e)) continue;
            for (std::size_t i = c; i < e; ++i)
                if (!std::isfinite(v[i])) return i;
        }
        return n;  // none in [a, b)
    };
    constexpr std::size_t kParallel = std::size_t(1) << 22;
    if (n < kParallel) return firstIn(0, n);
    std::atomic<std::size_t> first{n};
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kParallel / 4), [&](const tbb::blocked_range<std::size_t>& r) {
        if (r.begin() >= first.load(std::memory_order_relaxed)) return;
        const std::size_t i = firstIn(r.begin(), r.end());
        for (std::size_t seen = first.load(); i < seen && !first.compare_exchange_weak(seen, i);) {}
    });
    return first.load();
}

}  // namespace

void checkSeries(const Series& s, const std::string& field, std::size_t firstSample) {
    if (s.dims == 0) throw EngineError(K::BadInput, field, "series has zero channels");
    if (s.length == 0) throw EngineError(K::BadInput, field, "series is empty");
    const std::span<const float> values = s.samples();
    if (values.size() != s.length * s.dims)
        throw EngineError(K::BadInput, field,
                          "holds " + std::to_string(values.size()) + " values, expected length " +
                              std::to_string(s.length) + " x channels " + std::to_string(s.dims));
    const std::size_t k = firstNotFinite(values.data(), values.size());
    if (k == values.size()) return;
    const float v = values[k];
    std::string what = std::isnan(v) ? "NaN" : "infinite";
    std::string where = "sample " + std::to_string(firstSample + k / s.dims);
    if (s.dims > 1) where += " channel " + std::to_string(k % s.dims);
    throw EngineError(K::BadInput, field, where + " is " + what);
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
