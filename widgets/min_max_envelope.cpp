#include "widgets/min_max_envelope.h"

#include <algorithm>

namespace warplab::widgets {

void appendMinMaxEnvelope(const float* samples, std::size_t n, double t0, double dt, int columns,
                          QVector<double>& keys, QVector<double>& values) {
    if (n == 0) return;
    columns = std::max(columns, 1);
    if (n <= 2 * static_cast<std::size_t>(columns)) {
        for (std::size_t k = 0; k < n; ++k) {
            keys.append(t0 + k * dt);
            values.append(samples[k]);
        }
        return;
    }
    for (int c = 0; c < columns; ++c) {
        std::size_t b = n * c / columns, e = n * (c + 1) / columns;
        if (b >= e) continue;
        std::size_t lo = b, hi = b;
        for (std::size_t k = b + 1; k < e; ++k) {
            if (samples[k] < samples[lo]) lo = k;
            if (samples[k] > samples[hi]) hi = k;
        }
        double t = t0 + b * dt;
        std::size_t first = std::min(lo, hi), second = std::max(lo, hi);
        keys.append(t);
        values.append(samples[first]);
        keys.append(t);
        values.append(samples[second]);
    }
}

}  // namespace warplab::widgets
