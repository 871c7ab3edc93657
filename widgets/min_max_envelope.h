// Reduces a trace to one (min, max) pair per pixel column, so that a plot of an hour-long
// recording draws a few thousand points and still shows every spike (as EDFbrowser does).
#pragma once
#include <cstddef>

#include <QVector>

namespace warplab::widgets {

// `samples[0..n)` taken at times t0 + k*dt. Appends (key, value) points to `keys`/`values`:
// the samples themselves when n <= 2*columns, else per column its extreme values in time
// order, both at the column's first time (a vertical stroke per pixel).
void appendMinMaxEnvelope(const float* samples, std::size_t n, double t0, double dt, int columns,
                          QVector<double>& keys, QVector<double>& values);

}  // namespace warplab::widgets
