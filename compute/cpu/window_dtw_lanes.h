// The last stage of the window search for four windows at once, in AVX2 (window_dtw_lanes_avx2.cpp,
// compiled for it alone and without FMA contraction; window_search.cpp asks
// windowbounds::available() before calling): the lanes' inputs from the bounds' statistics and
// the early-abandoning band DTW against the query, one window per lane. A lane performs the
// scalar code's DTW operations (window_search.cpp's dtwRows) in the same order, so every cost
// that is not abandoned is the scalar one on the same inputs, bit for bit; the four dependency
// chains of a DTW row run side by side instead of one after another.
#pragma once
#include <cstddef>

namespace warplab::compute::windowlanes {

// The inputs of dtw4 for four windows from the bounds' statistics (the DTW stage decides on
// them which windows to abandon; window_search.cpp): z = (x[l][i] - mean[l]) * inv[l]; a lane
// whose bit is set in rowsWindow has the window as rows (a4 = z, b4 = the query q), the others
// the query. cbTail4[4 * i + l] = the sum over i' >= i of the lane's bound terms (cbTail4[4 * m
// + l] = 0), summed from the end as the scalar code does: for a rowsWindow lane the query
// envelope's terms of z, max(z - qU, qL - z, 0)^2, as the bounds compute them; for
// the others terms4[4 * i + l] (the window envelope's, kept by the caller).
void prepare4(const float* const x[4], std::size_t m, const double* mean, const double* inv, unsigned rowsWindow,
              const double* q, const double* qU, const double* qL, const double* terms4, double* a4, double* b4,
              double* cbTail4);
void prepare4(const double* const x[4], std::size_t m, const double* mean, const double* inv, unsigned rowsWindow,
              const double* q, const double* qU, const double* qL, const double* terms4, double* a4, double* b4,
              double* cbTail4);

// Band DTW (squared cost, half-width w) of the lane sequences a4[4 * i + l] and b4[4 * j + l],
// abandoned in lane l after the first row i whose least cell plus cbTail4[4 * (i + 1) + l]
// exceeds limit4[l] (cbTail4: 4 * (m + 1) doubles). out[l] = the cost, or +inf where
// abandoned. rows: 8 * m doubles of scratch.
void dtw4(const double* a4, const double* b4, std::size_t m, long w, const double* cbTail4, const double* limit4,
          double* rows, double* out);

}  // namespace warplab::compute::windowlanes
