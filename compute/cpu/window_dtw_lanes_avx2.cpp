// window_dtw_lanes.h in AVX2 (flags set for this file in compute/CMakeLists.txt).
#include "compute/cpu/window_dtw_lanes.h"

#include <immintrin.h>

#include <algorithm>
#include <limits>

namespace warplab::compute::windowlanes {

namespace {

template <class T>
void prepareOf4(const T* const x[4], std::size_t m, const double* mean, const double* inv, unsigned rowsWindow,
                const double* q, const double* qU, const double* qL, const double* terms4, double* a4, double* b4,
                double* cbTail4) {
    const __m256d mu = _mm256_loadu_pd(mean), k = _mm256_loadu_pd(inv), zero = _mm256_setzero_pd();
    // All ones in the lanes whose rows are the window.
    const __m256i bit = _mm256_set_epi64x(8, 4, 2, 1);
    const __m256d rows = _mm256_castsi256_pd(
        _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(rowsWindow), bit), bit));
    __m256d tail = zero;
    _mm256_storeu_pd(cbTail4 + 4 * m, tail);
    for (std::size_t i = m; i-- > 0;) {
        const __m256d v = _mm256_set_pd(double(x[3][i]), double(x[2][i]), double(x[1][i]), double(x[0][i]));
        const __m256d z = _mm256_mul_pd(_mm256_sub_pd(v, mu), k);
        const __m256d qi = _mm256_set1_pd(q[i]);
        _mm256_storeu_pd(a4 + 4 * i, _mm256_blendv_pd(qi, z, rows));
        _mm256_storeu_pd(b4 + 4 * i, _mm256_blendv_pd(z, qi, rows));
        const __m256d d = _mm256_max_pd(_mm256_max_pd(_mm256_sub_pd(z, _mm256_set1_pd(qU[i])),
                                                      _mm256_sub_pd(_mm256_set1_pd(qL[i]), z)), zero);
        tail = _mm256_add_pd(tail, _mm256_blendv_pd(_mm256_loadu_pd(terms4 + 4 * i), _mm256_mul_pd(d, d), rows));
        _mm256_storeu_pd(cbTail4 + 4 * i, tail);
    }
}

}  // namespace

void prepare4(const float* const x[4], std::size_t m, const double* mean, const double* inv, unsigned rowsWindow,
              const double* q, const double* qU, const double* qL, const double* terms4, double* a4, double* b4,
              double* cbTail4) {
    prepareOf4(x, m, mean, inv, rowsWindow, q, qU, qL, terms4, a4, b4, cbTail4);
}
void prepare4(const double* const x[4], std::size_t m, const double* mean, const double* inv, unsigned rowsWindow,
              const double* q, const double* qU, const double* qL, const double* terms4, double* a4, double* b4,
              double* cbTail4) {
    prepareOf4(x, m, mean, inv, rowsWindow, q, qU, qL, terms4, a4, b4, cbTail4);
}


void dtw4(const double* a4, const double* b4, std::size_t m, long w, const double* cbTail4, const double* limit4,
          double* rows, double* out) {
    const long n = long(m);
    if (w > n) w = n;
    const __m256d inf = _mm256_set1_pd(std::numeric_limits<double>::infinity());
    double* prev = rows;
    double* cur = rows + 4 * m;
    for (std::size_t k = 0; k < 8 * m; k += 4) _mm256_storeu_pd(rows + k, inf);
    const __m256d limit = _mm256_loadu_pd(limit4);
    unsigned dead = 0;
    auto at = [](const double* p, long j) { return _mm256_loadu_pd(p + 4 * j); };
    // window_search.cpp's dtwRows, lane by lane (its comment says why the edges need no tests).
    for (long i = 0; i < n; ++i) {
        const long lo = std::max(0L, i - w), hi = std::min(n - 1, i + w);
        const __m256d ai = at(a4, i);
        __m256d left;
        long j = lo;
        if (i == 0) {
            const __m256d d = _mm256_sub_pd(ai, at(b4, 0));
            left = _mm256_mul_pd(d, d);
            j = 1;
        } else if (lo == 0) {
            const __m256d d = _mm256_sub_pd(ai, at(b4, 0));
            left = _mm256_add_pd(_mm256_mul_pd(d, d), at(prev, 0));
            j = 1;
        } else {
            left = inf;
        }
        if (j == 1) _mm256_storeu_pd(cur, left);
        __m256d rowMin = left;
        for (; j <= hi; ++j) {
            const __m256d d = _mm256_sub_pd(ai, at(b4, j));
            // min(min(up, left), diag) as std::min: equal values are the same value.
            const __m256d v = _mm256_add_pd(_mm256_mul_pd(d, d), _mm256_min_pd(_mm256_min_pd(at(prev, j), left), at(prev, j - 1)));
            _mm256_storeu_pd(cur + 4 * j, v);
            left = v;
            rowMin = _mm256_min_pd(rowMin, v);
        }
        dead |= unsigned(_mm256_movemask_pd(_mm256_cmp_pd(_mm256_add_pd(rowMin, at(cbTail4, i + 1)), limit, _CMP_GT_OQ)));
        if (dead == 0xF) break;
        std::swap(prev, cur);
    }
    double last[4];
    _mm256_storeu_pd(last, at(prev, n - 1));
    for (unsigned l = 0; l < 4; ++l) out[l] = (dead >> l) & 1u ? std::numeric_limits<double>::infinity() : last[l];
}

}  // namespace warplab::compute::windowlanes
