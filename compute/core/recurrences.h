// The per-cell recurrences of METRICS.md, written once and shared by the CPU reference, the CPU
// SIMD path and the GPU kernels, so that every backend computes the same numbers.
#pragma once
#include <cmath>

#include "compute/core/hostdevice.h"

namespace warplab::compute::cell {

// Local cost of one sample pair (univariate). `absolute` selects |a-b| instead of (a-b)^2.
template <typename T>
WL_HD T localCost(T a, T b, bool absolute) {
    T d = a - b;
    return absolute ? (d < T(0) ? -d : d) : d * d;
}

template <typename T>
WL_HD T min3(T a, T b, T c) {
    T m = a < b ? a : b;
    return m < c ? m : c;
}

// DTW: D(i,j) = c + min(D(i-1,j), D(i,j-1), D(i-1,j-1)).
template <typename T>
WL_HD T dtwStep(T cost, T up, T left, T diag) {
    return cost + min3(up, left, diag);
}

// Sakoe-Chiba band of METRICS.md: (i,j) allowed iff j-i <= w + max(0,m-n) and i-j <= w + max(0,n-m).
WL_HD bool inBand(long i, long j, long n, long m, long w) {
    long up = w + (m > n ? m - n : 0);
    long lo = w + (n > m ? n - m : 0);
    return (j - i) <= up && (i - j) <= lo;
}

// Stable soft-min: -gamma * log(sum exp(-v/gamma)), subtracting the max of -v/gamma.
template <typename T>
WL_HD T softmin3(T a, T b, T c, T gamma) {
    T na = -a / gamma, nb = -b / gamma, nc = -c / gamma;
    T mx = na > nb ? na : nb;
    mx = mx > nc ? mx : nc;
    if (mx == -INFINITY) return T(INFINITY);  // all three neighbours unreachable
    T s = exp(na - mx) + exp(nb - mx) + exp(nc - mx);
    return -gamma * (log(s) + mx);
}

template <typename T>
WL_HD T softDtwStep(T cost, T up, T left, T diag, T gamma) {
    return cost + softmin3(diag, up, left, gamma);
}

// TWED (univariate; |.|_p over one channel is |a-b|). Padded 1-based indices as METRICS.md.
// xi, xim1: x_i and x_{i-1}; yj, yjm1 likewise; ta*, tb* the timestamps.
template <typename T>
WL_HD T twedStep(T up, T left, T diag, T xi, T xim1, T yj, T yjm1, T tai, T taim1, T tbj,
                 T tbjm1, T nu, T lambda) {
    auto absd = [](T a, T b) { T d = a - b; return d < T(0) ? -d : d; };
    T delX = up + absd(xi, xim1) + nu * (tai - taim1) + lambda;
    T delY = left + absd(yj, yjm1) + nu * (tbj - tbjm1) + lambda;
    T match = diag + absd(xi, yj) + absd(xim1, yjm1) + nu * (absd(tai, tbj) + absd(taim1, tbjm1));
    return min3(delX, delY, match);
}

}  // namespace warplab::compute::cell
