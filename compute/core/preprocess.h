// Input checks and preprocessing shared by every backend: the engine validates and
// z-normalises once, so kernels only ever see clean, finite series.
#pragma once
#include <cstdint>
#include <string>

#include "compute/core/params.h"
#include "compute/core/series.h"

namespace warplab::compute {

// Throws EngineError(BadInput) naming `field` (e.g. "queries[3]") and, for a bad sample, its
// index: empty series, values.size() != length * dims, zero channels, NaN or infinite samples.
// `firstSample`: the index of s's first sample in the series it was cut from (a rank's part of
// a reference), so that a bad sample is named where it is in the file.
void checkSeries(const Series& s, const std::string& field, std::size_t firstSample = 0);

// Throws EngineError(BadInput) when the two series cannot be compared under `metric`:
// different channel counts, or unequal lengths for euclidean.
void checkPair(const Series& x, const std::string& xField, const Series& y,
               const std::string& yField, Metric metric);

// METRICS.md z-normalisation, per channel: population std; a constant channel
// (std <= 1e-12 * max(1, |mean|)) becomes all zeros.
void znormalizeInPlace(Series& s);
Series znormalized(const Series& s);

// Cells of the dynamic programme for one pair (n rows, m columns), counted honestly for
// throughput figures: euclidean n, cdtw only the cells inside the band, others n * m.
std::uint64_t dpCells(Metric metric, std::size_t n, std::size_t m, int band);

// True when d(x, x) is exactly 0 for every x (all but soft-DTW), so all-pairs kernels may
// write the diagonal without computing it.
bool selfDistanceIsZero(Metric metric);
// True when d(x, y) == d(y, x), so all pairs of one set need only the upper triangle.
bool isSymmetric(Metric metric);

// Number of allowed columns of row i under METRICS.md's band, as [lo, hi] (hi < lo: none).
struct BandRange { long lo, hi; };
BandRange bandRow(long i, long n, long m, long w);

}  // namespace warplab::compute
