// Four subsequence-DTW pieces in the four lanes of AVX2 doubles (sdtw_lanes.h). Lane l holds
// column begin[l] + t of its piece; rows run down the query as in sdtw_stretch.cpp's step.
#include "compute/cpu/sdtw_lanes.h"

#include <immintrin.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "compute/core/error.h"

namespace warplab::compute::reference::lanes {

void sweep4(const Series& x, const Series& y, bool absCost, const std::size_t begin[4], std::size_t len,
            SdtwStretch out[4], const CancelToken* cancel, ProgressCounter* progress) {
    const std::size_t n = x.length;
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> xd(x.samples().begin(), x.samples().end());
    // Columns j-1 (prev) and j (cur) of the four lanes, row-major: [4 i + l].
    std::vector<double> prevCost(4 * n, inf), curCost(4 * n);
    std::vector<std::int64_t> prevStart(4 * n, 0), curStart(4 * n);
    for (int l = 0; l < 4; ++l) {
        out[l].begin = begin[l];
        out[l].end = begin[l] + len;
        out[l].lastCost.resize(len);
        out[l].lastStart.resize(len);
    }
    const __m256d signBit = _mm256_set1_pd(-0.0);
    auto localCost = [&](double xi, __m256d yv) {
        const __m256d d = _mm256_sub_pd(_mm256_set1_pd(xi), yv);
        return absCost ? _mm256_andnot_pd(signBit, d) : _mm256_mul_pd(d, d);
    };
    const float* yv0 = y.samples().data();
    for (std::size_t t = 0; t < len; ++t) {
        if (t % 4096 == 0) {
            if (cancel && cancel->cancelled()) throw EngineError(EngineError::Kind::Cancelled, "", "cancelled");
            if (progress && t > 0) progress->add(4 * 4096);
        }
        const std::size_t j0 = begin[0] + t, j1 = begin[1] + t, j2 = begin[2] + t, j3 = begin[3] + t;
        const __m256d yv = _mm256_set_pd(double(yv0[j3]), double(yv0[j2]), double(yv0[j1]), double(yv0[j0]));
        const __m256i jv = _mm256_set_epi64x(std::int64_t(j3), std::int64_t(j2), std::int64_t(j1), std::int64_t(j0));
        // Row 0: a match may start here.
        __m256d up = localCost(xd[0], yv);
        __m256d upStart = _mm256_castsi256_pd(jv);
        _mm256_storeu_pd(&curCost[0], up);
        _mm256_storeu_pd(reinterpret_cast<double*>(&curStart[0]), upStart);
        // The previous column's row i-1 (diagonal) is the row i-1 loaded as `left` before.
        __m256d diag = _mm256_loadu_pd(&prevCost[0]);
        __m256d diagStart = _mm256_loadu_pd(reinterpret_cast<const double*>(&prevStart[0]));
        for (std::size_t i = 1; i < n; ++i) {
            const __m256d c = localCost(xd[i], yv);
            const __m256d left = _mm256_loadu_pd(&prevCost[4 * i]);
            const __m256d leftStart = _mm256_loadu_pd(reinterpret_cast<const double*>(&prevStart[4 * i]));
            // diag <= up && diag <= left: diagonal; else up <= left: up; else left.
            const __m256d takeDiag = _mm256_and_pd(_mm256_cmp_pd(diag, up, _CMP_LE_OQ), _mm256_cmp_pd(diag, left, _CMP_LE_OQ));
            const __m256d takeUp = _mm256_cmp_pd(up, left, _CMP_LE_OQ);
            __m256d best = _mm256_blendv_pd(left, up, takeUp);
            __m256d bestStart = _mm256_blendv_pd(leftStart, upStart, takeUp);
            best = _mm256_blendv_pd(best, diag, takeDiag);
            bestStart = _mm256_blendv_pd(bestStart, diagStart, takeDiag);
            up = _mm256_add_pd(c, best);
            upStart = bestStart;
            _mm256_storeu_pd(&curCost[4 * i], up);
            _mm256_storeu_pd(reinterpret_cast<double*>(&curStart[4 * i]), upStart);
            diag = left;
            diagStart = leftStart;
        }
        for (int l = 0; l < 4; ++l) {
            out[l].lastCost[t] = curCost[4 * (n - 1) + std::size_t(l)];
            out[l].lastStart[t] = std::size_t(curStart[4 * (n - 1) + std::size_t(l)]);
        }
        prevCost.swap(curCost);
        prevStart.swap(curStart);
    }
    if (progress && len > 0) progress->add(4 * ((len - 1) % 4096 + 1));  // the columns since the last add
    for (int l = 0; l < 4; ++l) {
        SdtwColumn& e = out[l].endColumn;
        e.cost.resize(n);
        e.start.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            e.cost[i] = prevCost[4 * i + std::size_t(l)];
            e.start[i] = std::size_t(prevStart[4 * i + std::size_t(l)]);
        }
    }
}

}  // namespace warplab::compute::reference::lanes
