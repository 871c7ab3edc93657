// window_bounds.h's bounds for eight windows (two Quads) in AVX-512 (flags set for this file in
// compute/CMakeLists.txt). Every lane computes what window_bounds_avx2.cpp computes for it,
// operation for operation (no FMA contraction), so each window gets the same statistics and
// bounds; a Quad whose lanes are all pruned early is carried on with the other one, which only
// adds terms to bounds already over the limit.
#include "compute/cpu/window_bounds.h"

#include <immintrin.h>

namespace warplab::compute::windowbounds {

namespace {

inline __m512d load8(const float* p) { return _mm512_cvtps_pd(_mm256_loadu_ps(p)); }
inline __m512d load8(const double* p) { return _mm512_loadu_pd(p); }
inline __m512d join(const double* lo, const double* hi) {
    return _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd(lo)), _mm256_loadu_pd(hi), 1);
}
inline void split(__m512d v, double* lo, double* hi) {
    _mm256_storeu_pd(lo, _mm512_castpd512_pd256(v));
    _mm256_storeu_pd(hi, _mm512_extractf64x4_pd(v, 1));
}

template <class T>
unsigned octOf(const T* x, std::size_t m, const double* q, const double* qU, const double* qL, const std::size_t* order,
               double limit, Quad<T>& A, Quad<T>& B) {
    const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1.0), lim = _mm512_set1_pd(limit);
    // Statistics, as window_search.cpp's statsOf.
    const __m512d md = _mm512_set1_pd(double(m));
    const __m512d mu1 = _mm512_div_pd(join(A.sum1, B.sum1), md);
    const __m512d ms = _mm512_div_pd(join(A.sum2, B.sum2), md);
    const __m512d var = _mm512_sub_pd(ms, _mm512_mul_pd(mu1, mu1));
    const __m512d mean = _mm512_add_pd(join(A.anchor, B.anchor), mu1);
    const __m512d sd = _mm512_maskz_sqrt_pd(_mm512_cmp_pd_mask(var, zero, _CMP_GT_OQ), _mm512_max_pd(var, zero));
    const __m512d scale = _mm512_mul_pd(_mm512_set1_pd(1e-6), _mm512_max_pd(one, _mm512_abs_pd(mean)));
    const unsigned ok = _mm512_cmp_pd_mask(sd, scale, _CMP_GT_OQ);  // sd > 1e-6 * max(1, |mean|)
    const unsigned ill = _mm512_cmp_pd_mask(ms, _mm512_mul_pd(_mm512_set1_pd(1e4), var), _CMP_GT_OQ);
    split(mean, A.mean, B.mean);
    split(sd, A.sd, B.sd);
    const unsigned exact = (~ok | ill) & 0xFFu;
    A.exact = exact & 0xFu;
    B.exact = exact >> 4;
    unsigned active = ((A.active & 0xFu) | (B.active & 0xFu) << 4) & ~exact;
    A.kim = A.keoghQuery = A.keoghWindow = B.kim = B.keoghQuery = B.keoghWindow = 0;
    if (!active) return 0;
    const __m512d inv = _mm512_div_pd(one, sd);  // lanes with sd 0 are exact, not bounded here
    auto zAt = [&](std::size_t i) { return _mm512_mul_pd(_mm512_sub_pd(load8(x + i), mean), inv); };
    auto over = [&](__m512d acc) { return unsigned(_mm512_cmp_pd_mask(acc, lim, _CMP_GT_OQ)); };
    // LB_Kim, as the AVX2 file (its comments say why).
    const __m512d d0 = _mm512_sub_pd(_mm512_set1_pd(q[0]), zAt(0));
    __m512d lb = _mm512_mul_pd(d0, d0);
    if (m > 1) {
        const __m512d d1 = _mm512_sub_pd(_mm512_set1_pd(q[m - 1]), zAt(m - 1));
        lb = _mm512_add_pd(lb, _mm512_mul_pd(d1, d1));
    }
    if (m >= 6 && (over(lb) & active) != active) {
        auto sq = [](__m512d a, __m512d b) {
            const __m512d d = _mm512_sub_pd(a, b);
            return _mm512_mul_pd(d, d);
        };
        auto mn = [](__m512d a, __m512d b) { return _mm512_min_pd(a, b); };
        const __m512d x0 = zAt(0), x1 = zAt(1), x2 = zAt(2), y0 = zAt(m - 1), y1 = zAt(m - 2), y2 = zAt(m - 3);
        const __m512d q0 = _mm512_set1_pd(q[0]), q1 = _mm512_set1_pd(q[1]), q2 = _mm512_set1_pd(q[2]);
        const __m512d p0 = _mm512_set1_pd(q[m - 1]), p1 = _mm512_set1_pd(q[m - 2]), p2 = _mm512_set1_pd(q[m - 3]);
        lb = _mm512_add_pd(lb, mn(mn(sq(x1, q0), sq(x0, q1)), sq(x1, q1)));
        lb = _mm512_add_pd(lb, mn(mn(sq(y1, p0), sq(y0, p1)), sq(y1, p1)));
        lb = _mm512_add_pd(lb, mn(mn(mn(sq(x0, q2), sq(x1, q2)), mn(sq(x2, q2), sq(x2, q1))), sq(x2, q0)));
        lb = _mm512_add_pd(lb, mn(mn(mn(sq(y0, p2), sq(y1, p2)), mn(sq(y2, p2), sq(y2, p1))), sq(y2, p0)));
    }
    const unsigned kimMask = over(lb) & active;
    A.kim = kimMask & 0xFu;
    B.kim = kimMask >> 4;
    active &= ~kimMask;
    if (!active) return 0;
    // LB_Keogh of the query envelope, largest |q| first; every 8 terms, stop when every active
    // lane is over the limit.
    __m512d acc = zero;
    std::size_t idx = 0;
    while (idx < m) {
        const std::size_t stop = idx + 8 < m ? idx + 8 : m;
        for (; idx < stop; ++idx) {
            const std::size_t j = order[idx];
            const __m512d v = zAt(j);
            const __m512d d = _mm512_max_pd(_mm512_max_pd(_mm512_sub_pd(v, _mm512_set1_pd(qU[j])),
                                            _mm512_sub_pd(_mm512_set1_pd(qL[j]), v)), zero);
            const __m512d dd = _mm512_mul_pd(d, d);
            if (A.cbQuery) split(dd, A.cbQuery + 4 * j, B.cbQuery + 4 * j);
            acc = _mm512_add_pd(acc, dd);
        }
        if ((over(acc) & active) == active) {
            A.keoghQuery = active & 0xFu;
            B.keoghQuery = active >> 4;
            return 0;
        }
    }
    const unsigned keogh = active & over(acc);
    A.keoghQuery = keogh & 0xFu;
    B.keoghQuery = keogh >> 4;
    split(acc, A.lbQuery, B.lbQuery);
    return active & ~keogh;
}

template <class T>
unsigned octWindowOf(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<T>& A, Quad<T>& B,
                     unsigned active) {
    const __m512d zero = _mm512_setzero_pd(), lim = _mm512_set1_pd(limit);
    const __m512d mean = join(A.mean, B.mean), inv = _mm512_div_pd(_mm512_set1_pd(1.0), join(A.sd, B.sd));
    auto zOf = [&](const T* p) { return _mm512_mul_pd(_mm512_sub_pd(load8(p), mean), inv); };
    auto over = [&](__m512d acc) { return unsigned(_mm512_cmp_pd_mask(acc, lim, _CMP_GT_OQ)); };
    A.keoghWindow = B.keoghWindow = 0;
    // LB_Keogh of the reference's envelope (B's starts four samples after A's: one load of
    // eight from A's), z-normalised per lane, against the query.
    __m512d acc2 = zero;
    std::size_t idx = 0;
    while (idx < m) {
        const std::size_t stop = idx + 8 < m ? idx + 8 : m;
        for (; idx < stop; ++idx) {
            const std::size_t i = order[idx];
            const __m512d qi = _mm512_set1_pd(q[i]);
            const __m512d d = _mm512_max_pd(_mm512_max_pd(_mm512_sub_pd(qi, zOf(A.upper + i)),
                                            _mm512_sub_pd(zOf(A.lower + i), qi)), zero);
            const __m512d dd = _mm512_mul_pd(d, d);
            split(dd, A.cbWindow + 4 * i, B.cbWindow + 4 * i);
            acc2 = _mm512_add_pd(acc2, dd);
        }
        if ((over(acc2) & active) == active) {
            A.keoghWindow = active & 0xFu;
            B.keoghWindow = active >> 4;
            return 0;
        }
    }
    const unsigned keogh = active & over(acc2);
    A.keoghWindow = keogh & 0xFu;
    B.keoghWindow = keogh >> 4;
    split(acc2, A.lbWindow, B.lbWindow);
    return active & ~keogh;
}

// Lane l gets v[l - 1] + v[l - 2] + ... + v[0] + v[l]: the prefix sums of the lanes.
inline __m512d prefix(__m512d v) {
    const __m512i zero = _mm512_setzero_si512();
    v = _mm512_add_pd(v, _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(v), zero, 7)));
    v = _mm512_add_pd(v, _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(v), zero, 6)));
    return _mm512_add_pd(v, _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(v), zero, 4)));
}

template <class T>
void sums8Of(const T* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2) {
    const __m512d a = _mm512_set1_pd(anchor);
    const __m512d eo = _mm512_sub_pd(load8(x - 1), a), en = _mm512_sub_pd(load8(x + m - 1), a);
    const __m512d d1 = _mm512_sub_pd(en, eo);
    const __m512d d2 = _mm512_sub_pd(_mm512_mul_pd(en, en), _mm512_mul_pd(eo, eo));
    _mm512_storeu_pd(sum1, _mm512_add_pd(_mm512_set1_pd(s1), prefix(d1)));
    _mm512_storeu_pd(sum2, _mm512_add_pd(_mm512_set1_pd(s2), prefix(d2)));
}

}  // namespace

void sums8(const float* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2) {
    sums8Of(x, m, anchor, s1, s2, sum1, sum2);
}
void sums8(const double* x, std::size_t m, double anchor, double s1, double s2, double* sum1, double* sum2) {
    sums8Of(x, m, anchor, s1, s2, sum1, sum2);
}

unsigned oct(const float* x, std::size_t m, const double* q, const double* qU, const double* qL, const std::size_t* order,
             double limit, Quad<float>& a, Quad<float>& b) {
    return octOf(x, m, q, qU, qL, order, limit, a, b);
}
unsigned oct(const double* x, std::size_t m, const double* q, const double* qU, const double* qL, const std::size_t* order,
             double limit, Quad<double>& a, Quad<double>& b) {
    return octOf(x, m, q, qU, qL, order, limit, a, b);
}
unsigned octWindow(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<float>& a,
                   Quad<float>& b, unsigned active) {
    return octWindowOf(m, q, order, limit, a, b, active);
}
unsigned octWindow(std::size_t m, const double* q, const std::size_t* order, double limit, Quad<double>& a,
                   Quad<double>& b, unsigned active) {
    return octWindowOf(m, q, order, limit, a, b, active);
}

}  // namespace warplab::compute::windowbounds
