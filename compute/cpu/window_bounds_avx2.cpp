// window_bounds.h in AVX2 + FMA (flags set for this file in compute/CMakeLists.txt).
#include "compute/cpu/window_bounds.h"

#include <immintrin.h>

namespace warplab::compute::windowbounds {

namespace {

inline __m256d load4(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
inline __m256d load4(const double* p) { return _mm256_loadu_pd(p); }

template <class T>
unsigned quadOf(const T* x, std::size_t m, const double* q, const double* qU, const double* qL, const std::size_t* order,
                const double* mean4, const double* inv4, double limit, unsigned active, unsigned* kim) {
    const __m256d mean = _mm256_loadu_pd(mean4), inv = _mm256_loadu_pd(inv4), lim = _mm256_set1_pd(limit);
    const __m256d zero = _mm256_setzero_pd();
    auto zAt = [&](std::size_t i) { return _mm256_mul_pd(_mm256_sub_pd(load4(x + i), mean), inv); };
    // LB_Kim: the first and the last cells lie on every path.
    const __m256d d0 = _mm256_sub_pd(_mm256_set1_pd(q[0]), zAt(0));
    __m256d lb = _mm256_mul_pd(d0, d0);
    if (m > 1) {
        const __m256d d1 = _mm256_sub_pd(_mm256_set1_pd(q[m - 1]), zAt(m - 1));
        lb = _mm256_add_pd(lb, _mm256_mul_pd(d1, d1));
    }
    const unsigned kimMask = unsigned(_mm256_movemask_pd(_mm256_cmp_pd(lb, lim, _CMP_GT_OQ))) & active;
    *kim = kimMask;
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
            const __m256d d = _mm256_add_pd(_mm256_max_pd(_mm256_sub_pd(v, _mm256_set1_pd(qU[j])), zero),
                                            _mm256_max_pd(_mm256_sub_pd(_mm256_set1_pd(qL[j]), v), zero));
            acc = _mm256_add_pd(acc, _mm256_mul_pd(d, d));
        }
        const unsigned over = unsigned(_mm256_movemask_pd(_mm256_cmp_pd(acc, lim, _CMP_GT_OQ)));
        if ((over & active) == active) return 0;
    }
    return active & ~unsigned(_mm256_movemask_pd(_mm256_cmp_pd(acc, lim, _CMP_GT_OQ)));
}

}  // namespace

unsigned quad(const float* x, std::size_t m, const double* q, const double* qU, const double* qL, const std::size_t* order,
              const double* mean, const double* inv, double limit, unsigned active, unsigned* kim) {
    return quadOf(x, m, q, qU, qL, order, mean, inv, limit, active, kim);
}

unsigned quad(const double* x, std::size_t m, const double* q, const double* qU, const double* qL, const std::size_t* order,
              const double* mean, const double* inv, double limit, unsigned active, unsigned* kim) {
    return quadOf(x, m, q, qU, qL, order, mean, inv, limit, active, kim);
}

}  // namespace warplab::compute::windowbounds
