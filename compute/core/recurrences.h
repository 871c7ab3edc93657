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

// Local cost of two samples of `dims` channels, accumulated in T: the squared Euclidean
// distance over the channels (sq), or the sum of |a_c - b_c| over the channels (abs; an L1
// choice, see compute/cpu/reference.h). One channel reduces to localCost.
template <typename T, typename S>
WL_HD T localCostN(const S* a, const S* b, int dims, bool absolute) {
    T s = T(0);
    for (int c = 0; c < dims; ++c) {
        T d = T(a[c]) - T(b[c]);
        s += absolute ? (d < T(0) ? -d : d) : d * d;
    }
    return s;
}

// TWED point distance |a - b|_p over the channels; `b == nullptr` stands for the zero sample
// that METRICS.md prepends (x(-1) = 0). One channel is |a - b| whatever p.
template <typename T, typename S>
WL_HD T pointDistP(const S* a, const S* b, int dims, T p) {
    if (dims == 1) {
        T d = T(a[0]) - (b ? T(b[0]) : T(0));
        return d < T(0) ? -d : d;
    }
    T s = T(0);
    for (int c = 0; c < dims; ++c) {
        T d = T(a[c]) - (b ? T(b[c]) : T(0));
        d = d < T(0) ? -d : d;
        s += p == T(2) ? d * d : pow(d, p);
    }
    return p == T(2) ? sqrt(s) : pow(s, T(1) / p);
}

// TWED cell from precomputed point distances (any number of channels):
// dx = |x_i - x_{i-1}|_p, dy = |y_j - y_{j-1}|_p, dmatch = |x_i - y_j|_p + |x_{i-1} - y_{j-1}|_p.
template <typename T>
WL_HD T twedCombine(T up, T left, T diag, T dx, T dy, T dmatch, T tai, T taim1, T tbj, T tbjm1,
                    T nu, T lambda) {
    T dt = tai - tbj, dtp = taim1 - tbjm1;
    dt = dt < T(0) ? -dt : dt;
    dtp = dtp < T(0) ? -dtp : dtp;
    T delX = up + dx + nu * (tai - taim1) + lambda;
    T delY = left + dy + nu * (tbj - tbjm1) + lambda;
    T match = diag + dmatch + nu * (dt + dtp);
    return min3(delX, delY, match);
}

}  // namespace warplab::compute::cell
