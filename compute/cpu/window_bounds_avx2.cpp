// window_bounds.h in AVX2 + FMA (flags set for this file in compute/CMakeLists.txt).
#include "compute/cpu/window_bounds.h"

#include <immintrin.h>

namespace warplab::compute::windowbounds {

namespace {

inline __m256d load4(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
inline __m256d load4(const double* p) { return _mm256_loadu_pd(p); }

template <class T>
unsigned quadOf(const T* x, std::size_t m, const double* q, const double* qU, const double* qL, const std::size_t* order,
                double limit, Quad<T>& L) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0), lim = _mm256_set1_pd(limit);
    // Statistics, as window_search.cpp's statsOf.
    const __m256d md = _mm256_set1_pd(double(m));
    const __m256d mu1 = _mm256_div_pd(_mm256_loadu_pd(L.sum1), md);
    const __m256d ms = _mm256_div_pd(_mm256_loadu_pd(L.sum2), md);
    const __m256d var = _mm256_sub_pd(ms, _mm256_mul_pd(mu1, mu1));
    const __m256d mean = _mm256_add_pd(_mm256_loadu_pd(L.anchor), mu1);
    const __m256d sd = _mm256_and_pd(_mm256_sqrt_pd(_mm256_max_pd(var, zero)), _mm256_cmp_pd(var, zero, _CMP_GT_OQ));
    const __m256d absMean = _mm256_andnot_pd(_mm256_set1_pd(-0.0), mean);
    const __m256d scale = _mm256_mul_pd(_mm256_set1_pd(1e-6), _mm256_max_pd(one, absMean));
    const __m256d ok = _mm256_cmp_pd(sd, scale, _CMP_GT_OQ);  // sd > 1e-6 * max(1, |mean|)
    const __m256d ill = _mm256_cmp_pd(ms, _mm256_mul_pd(_mm256_set1_pd(1e4), var), _CMP_GT_OQ);
    _mm256_storeu_pd(L.mean, mean);
    _mm256_storeu_pd(L.sd, sd);
    L.exact = unsigned(_mm256_movemask_pd(_mm256_or_pd(_mm256_xor_pd(ok, _mm256_castsi256_pd(_mm256_set1_epi64x(-1))), ill)));
    unsigned active = L.active & ~L.exact;
    L.kim = L.keoghQuery = L.keoghWindow = 0;
    if (!active) return 0;
    const __m256d inv = _mm256_div_pd(one, sd);  // lanes with sd 0 are exact, not bounded here
    auto zOf = [&](const T* p) { return _mm256_mul_pd(_mm256_sub_pd(load4(p), mean), inv); };
    auto zAt = [&](std::size_t i) { return zOf(x + i); };
    // LB_Kim: the first and the last cells lie on every path.
    const __m256d d0 = _mm256_sub_pd(_mm256_set1_pd(q[0]), zAt(0));
    __m256d lb = _mm256_mul_pd(d0, d0);
    if (m > 1) {
        const __m256d d1 = _mm256_sub_pd(_mm256_set1_pd(q[m - 1]), zAt(m - 1));
        lb = _mm256_add_pd(lb, _mm256_mul_pd(d1, d1));
    }
    auto over = [&](__m256d acc) { return unsigned(_mm256_movemask_pd(_mm256_cmp_pd(acc, lim, _CMP_GT_OQ))); };
    if (m >= 6 && (over(lb) & active) != active) {
        // The UCR Suite's LB_Kim hierarchy: a path leaves the corner (0, 0) through one of the
        // cells with max(i, j) == 1, then one with max(i, j) == 2, and reaches the far corner
        // through one with max(m-1-i, m-1-j) == 2, then == 1: the least cost of each such set
        // of cells adds to the bound (for m >= 6 the four sets and both corners are apart).
        // Cells outside the band are counted as if inside, which only lowers the bound.
        auto sq = [](__m256d a, __m256d b) {
            const __m256d d = _mm256_sub_pd(a, b);
            return _mm256_mul_pd(d, d);
        };
        auto mn = [](__m256d a, __m256d b) { return _mm256_min_pd(a, b); };
        const __m256d x0 = zAt(0), x1 = zAt(1), x2 = zAt(2), y0 = zAt(m - 1), y1 = zAt(m - 2), y2 = zAt(m - 3);
        const __m256d q0 = _mm256_set1_pd(q[0]), q1 = _mm256_set1_pd(q[1]), q2 = _mm256_set1_pd(q[2]);
        const __m256d p0 = _mm256_set1_pd(q[m - 1]), p1 = _mm256_set1_pd(q[m - 2]), p2 = _mm256_set1_pd(q[m - 3]);
        lb = _mm256_add_pd(lb, mn(mn(sq(x1, q0), sq(x0, q1)), sq(x1, q1)));
        lb = _mm256_add_pd(lb, mn(mn(sq(y1, p0), sq(y0, p1)), sq(y1, p1)));
        lb = _mm256_add_pd(lb, mn(mn(mn(sq(x0, q2), sq(x1, q2)), mn(sq(x2, q2), sq(x2, q1))), sq(x2, q0)));
        lb = _mm256_add_pd(lb, mn(mn(mn(sq(y0, p2), sq(y1, p2)), mn(sq(y2, p2), sq(y2, p1))), sq(y2, p0)));
    }
    const unsigned kimMask = over(lb) & active;
    L.kim = kimMask;
    active &= ~kimMask;
    if (!active) return 0;
    // LB_Keogh: the distance of z_j to [qL_j, qU_j] (one of the two maxima is 0), largest |q|
    // first; every 8 terms, stop when every active lane is over the limit.
    __m256d acc = zero;
    std::size_t idx = 0;
    while (idx < m) {
        const std::size_t stop = idx + 8 < m ? idx + 8 : m;
        for (; idx < stop; ++idx) {
            const std::size_t j = order[idx];
            const __m256d v = zAt(j);
            // The distance to [qL, qU]: at most one of v - qU and qL - v is positive (qL <= qU),
            // so the larger of them and 0 is the sum of their positive parts, one operation less.
            const __m256d d = _mm256_max_pd(_mm256_max_pd(_mm256_sub_pd(v, _mm256_set1_pd(qU[j])),
                                            _mm256_sub_pd(_mm256_set1_pd(qL[j]), v)), zero);
            const __m256d dd = _mm256_mul_pd(d, d);
            if (L.cbQuery) _mm256_storeu_pd(L.cbQuery + 4 * j, dd);
            acc = _mm256_add_pd(acc, dd);
        }
        if ((over(acc) & active) == active) {
            L.keoghQuery = active;
            return 0;
        }
    }
    L.keoghQuery = active & over(acc);
    active &= ~L.keoghQuery;
    _mm256_storeu_pd(L.lbQuery, acc);
    return active;
}

template <class T>
unsigned quadWindowOf(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<T>& L, unsigned active) {
    const __m256d zero = _mm256_setzero_pd(), lim = _mm256_set1_pd(limit);
    const __m256d mean = _mm256_loadu_pd(L.mean), inv = _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_loadu_pd(L.sd));
    auto zOf = [&](const T* p) { return _mm256_mul_pd(_mm256_sub_pd(load4(p), mean), inv); };
    auto over = [&](__m256d acc) { return unsigned(_mm256_movemask_pd(_mm256_cmp_pd(acc, lim, _CMP_GT_OQ))); };
    L.keoghWindow = 0;
    // LB_Keogh of the reference's envelope, z-normalised per lane, against the query.
    __m256d acc2 = zero;
    std::size_t idx = 0;
    while (idx < m) {
        const std::size_t stop = idx + 8 < m ? idx + 8 : m;
        for (; idx < stop; ++idx) {
            const std::size_t i = order[idx];
            const __m256d qi = _mm256_set1_pd(q[i]);
            const __m256d d = _mm256_max_pd(_mm256_max_pd(_mm256_sub_pd(qi, zOf(L.upper + i)),
                                            _mm256_sub_pd(zOf(L.lower + i), qi)), zero);
            const __m256d dd = _mm256_mul_pd(d, d);
            _mm256_storeu_pd(L.cbWindow + 4 * i, dd);
            acc2 = _mm256_add_pd(acc2, dd);
        }
        if ((over(acc2) & active) == active) {
            L.keoghWindow = active;
            return 0;
        }
    }
    L.keoghWindow = active & over(acc2);
    _mm256_storeu_pd(L.lbWindow, acc2);
    return active & ~L.keoghWindow;
}

// Lane l gets v[0] + ... + v[l]: the prefix sums of the lanes.
inline __m256d prefix(__m256d v) {
    const __m256d zero = _mm256_setzero_pd();
    v = _mm256_add_pd(v, _mm256_blend_pd(_mm256_permute4x64_pd(v, 0x90), zero, 0x1));  // + [0, v0, v1, v2]
    return _mm256_add_pd(v, _mm256_permute2f128_pd(v, v, 0x08));                      // + [0, 0, v0, v1]
}

template <class T>
void sums4Of(const T* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2) {
    const __m256d a = _mm256_set1_pd(anchor);
    const __m256d eo = _mm256_sub_pd(load4(x - 1), a), en = _mm256_sub_pd(load4(x + m - 1), a);
    const __m256d d1 = _mm256_sub_pd(en, eo);
    const __m256d d2 = _mm256_sub_pd(_mm256_mul_pd(en, en), _mm256_mul_pd(eo, eo));
    _mm256_storeu_pd(sum1, _mm256_add_pd(_mm256_set1_pd(s1), prefix(d1)));
    _mm256_storeu_pd(sum2, _mm256_add_pd(_mm256_set1_pd(s2), prefix(d2)));
}

}  // namespace

void sums4(const float* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2) {
    sums4Of(x, m, anchor, s1, s2, sum1, sum2);
}
void sums4(const double* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2) {
    sums4Of(x, m, anchor, s1, s2, sum1, sum2);
}

unsigned quad(const float* x, std::size_t m, const double* q, const double* qU, const double* qL, const std::size_t* order,
              double limit, Quad<float>& lanes) {
    return quadOf(x, m, q, qU, qL, order, limit, lanes);
}

unsigned quadWindow(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<float>& lanes,
                    unsigned active) {
    return quadWindowOf(m, q, order, limit, lanes, active);
}

unsigned quadWindow(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<double>& lanes,
                    unsigned active) {
    return quadWindowOf(m, q, order, limit, lanes, active);
}

unsigned quad(const double* x, std::size_t m, const double* q, const double* qU, const double* qL, const std::size_t* order,
              double limit, Quad<double>& lanes) {
    return quadOf(x, m, q, qU, qL, order, limit, lanes);
}

}  // namespace warplab::compute::windowbounds
