// Lane kernels (dtw, cdtw, sdtw, euclidean, twed) for one instruction set. Included by dtw_lanes_<isa>.cpp inside the namespace
// of that instruction set, compiled with its flags; so this file must use no standard-library
// template that other files also instantiate (the linker would pick one copy for all ISAs):
// only <experimental/simd>, whose types carry the ISA in their ABI tag, and raw pointers.
//
// Layout: lanes = G registers of W floats. The DP keeps one row buffer (m + 1 vectors per
// group, column -1 first and always +inf) updated in place; the diagonal and the left
// neighbour live in registers. Without a band, R query rows are swept together (a strip), so
// each column's buffer load and store serves R cells and the R x G chains give the core
// independent min/add work to hide their latency. With a band, one row at a time over exactly
// the band's columns, so no cell outside the band is ever computed.

namespace stdx = std::experimental;
using V = stdx::native_simd<float>;
constexpr long W = long(V::size());
constexpr long G = 4;          // registers (groups of W lanes) per batch
constexpr long L = G * W;      // lanes per batch
constexpr long R = 2;          // query rows per strip without a band

#define WL_LANE_INLINE inline __attribute__((always_inline))

static WL_LANE_INLINE V loadv(const float* p) { return V(p, stdx::vector_aligned); }
static WL_LANE_INLINE void storev(const V& v, float* p) { v.copy_to(p, stdx::vector_aligned); }

template <bool Abs>
static WL_LANE_INLINE V costv(const V& a, const V& b) {
    V d = a - b;
    if constexpr (Abs) return stdx::abs(d);
    else return d * d;
}

// Sample i of the lanes' queries: one query broadcast to every lane, or one per lane.
template <bool Bcast>
static WL_LANE_INLINE V queryv(const float* q, long i, long g) {
    if constexpr (Bcast) return V(q[i]);
    else return loadv(q + i * L + g * W);
}

static WL_LANE_INLINE V minv(const V& a, const V& b) { return stdx::min(a, b); }

// Rows i0 .. i0+RR-1 over all m columns. buf holds D(i0-1, j) on entry, D(i0+RR-1, j) on exit.
template <bool Abs, bool Bcast, long RR>
static WL_LANE_INLINE void strip(const Batch& b, long i0, float* buf) {
    const V inf(__builtin_inff());
    V q[RR][G], left[RR][G], diag[G];
    for (long r = 0; r < RR; ++r)
        for (long g = 0; g < G; ++g) {
            q[r][g] = queryv<Bcast>(b.q, i0 + r, g);
            left[r][g] = inf;  // D(i, -1)
        }
    for (long g = 0; g < G; ++g) diag[g] = i0 == 0 ? V(0.0f) : inf;  // D(-1,-1) = 0 starts the path
    // Locals, so that the stores into buf cannot be taken to alias the batch's fields.
    const float* const tp = b.t;
    const long m = b.m;
    for (long j = 0; j < m; ++j) {
        float* col = buf + (j + 1) * L;
        const float* tj = tp + j * L;
        for (long g = 0; g < G; ++g) {
            const V t = loadv(tj + g * W);
            V up = loadv(col + g * W);
            V d = diag[g];
            diag[g] = up;
            for (long r = 0; r < RR; ++r) {
                const V v = minv(minv(up, d), left[r][g]) + costv<Abs>(q[r][g], t);
                d = left[r][g];
                left[r][g] = v;
                up = v;
            }
            storev(up, col + g * W);
        }
    }
}

// Subseq: subsequence DTW (METRICS.md sdtw). Its row 0 is c(x0, y_j) with no accumulation,
// which is DTW's recurrence under a virtual row -1 of zeros; the result is the last row's minimum.
template <bool Abs, bool Bcast, bool Subseq = false>
static void dtwFull(const Batch& b) {
    float* buf = b.scratch;
    const V start(Subseq ? 0.0f : __builtin_inff());
    const V inf(__builtin_inff());
    for (long g = 0; g < G; ++g) storev(inf, buf + g * W);  // column -1
    for (long j = 1; j <= b.m; ++j)
        for (long g = 0; g < G; ++g) storev(start, buf + j * L + g * W);
    long i = 0;
    for (; i + R <= b.n; i += R) strip<Abs, Bcast, R>(b, i, buf);
    for (; i < b.n; ++i) strip<Abs, Bcast, 1>(b, i, buf);
    if constexpr (Subseq) {
        for (long g = 0; g < G; ++g) {
            V best = inf;
            for (long j = 1; j <= b.m; ++j) best = minv(best, loadv(buf + j * L + g * W));
            best.copy_to(b.out + g * W, stdx::element_aligned);
        }
    } else {
        for (long k = 0; k < L; ++k) b.out[k] = buf[b.m * L + k];
    }
}

template <bool Abs, bool Bcast>
static void dtwBand(const Batch& b) {
    const long n = b.n, m = b.m;
    const long up = b.band + (m > n ? m - n : 0), lo = b.band + (n > m ? n - m : 0);
    float* buf = b.scratch;
    const V inf(__builtin_inff());
    for (long g = 0; g < G; ++g) storev(inf, buf + g * W);  // column -1
    long prevLo = 0, prevHi = -1;
    for (long i = 0; i < n; ++i) {
        const long jlo = i - lo > 0 ? i - lo : 0;
        const long jhi = i + up < m - 1 ? i + up : m - 1;
        // Columns the previous row never reached are +inf for this row's "up".
        for (long j = prevHi + 1; j <= jhi; ++j)
            for (long g = 0; g < G; ++g) storev(inf, buf + (j + 1) * L + g * W);
        V q[G], left[G], diag[G];
        for (long g = 0; g < G; ++g) {
            q[g] = queryv<Bcast>(b.q, i, g);
            left[g] = inf;
            // D(i-1, jlo-1): valid only if that column was inside the previous row's band.
            diag[g] = i == 0 ? V(0.0f) : (jlo > prevLo ? loadv(buf + jlo * L + g * W) : inf);
        }
        const float* const tp = b.t;
        for (long j = jlo; j <= jhi; ++j) {
            float* col = buf + (j + 1) * L;
            const float* tj = tp + j * L;
            for (long g = 0; g < G; ++g) {
                const V upv = loadv(col + g * W);
                const V v = minv(minv(upv, diag[g]), left[g]) + costv<Abs>(q[g], loadv(tj + g * W));
                diag[g] = upv;
                left[g] = v;
                storev(v, col + g * W);
            }
        }
        prevLo = jlo;
        prevHi = jhi;
    }
    for (long k = 0; k < L; ++k) b.out[k] = buf[m * L + k];
}

template <bool Abs, bool Bcast>
static void euclideanLanes(const Batch& b) {
    V acc[G];
    for (long g = 0; g < G; ++g) acc[g] = V(0.0f);
    for (long i = 0; i < b.n; ++i)
        for (long g = 0; g < G; ++g) acc[g] += costv<Abs>(queryv<Bcast>(b.q, i, g), loadv(b.t + i * L + g * W));
    for (long g = 0; g < G; ++g) acc[g].copy_to(b.out + g * W, stdx::element_aligned);
}

// TWED (METRICS.md) for one channel: the padding sample x(-1) = 0 at t = 0, timestamps i or
// i / rate. Row by row over all columns; the timestamp terms are the same in every lane.
template <bool Bcast>
static void twedLanes(const Batch& b) {
    const long n = b.n, m = b.m;
    const float nu = b.nu, lambda = b.lambda;
    auto stamp = [&](long i) { return i < 0 ? 0.0f : (b.rate > 0 ? float(i) / b.rate : float(i)); };
    float* buf = b.scratch;  // buf[(j + 1) * L] = DP(i, j + 1) of the previous row
    const V inf(__builtin_inff());
    for (long j = 0; j <= m; ++j)
        for (long g = 0; g < G; ++g) storev(inf, buf + j * L + g * W);  // DP(0, j) = +inf, j > 0
    const float* const tp = b.t;
    for (long i = 0; i < n; ++i) {
        const float tai = stamp(i), taim1 = stamp(i - 1);
        V xi[G], xim1[G], delXConst[G], left[G], diag[G];
        for (long g = 0; g < G; ++g) {
            xi[g] = queryv<Bcast>(b.q, i, g);
            xim1[g] = i > 0 ? queryv<Bcast>(b.q, i - 1, g) : V(0.0f);
            delXConst[g] = stdx::abs(xi[g] - xim1[g]) + V(nu * (tai - taim1) + lambda);
            left[g] = inf;                          // DP(i+1, 0)
            diag[g] = i == 0 ? V(0.0f) : inf;       // DP(i, 0): DP(0,0) = 0
        }
        for (long j = 0; j < m; ++j) {
            const float tbj = stamp(j), tbjm1 = stamp(j - 1);
            const float dti = tai - tbj, dtp = taim1 - tbjm1;
            const V matchConst(nu * ((dti < 0 ? -dti : dti) + (dtp < 0 ? -dtp : dtp)));
            const V delYConst(nu * (tbj - tbjm1) + lambda);
            float* col = buf + (j + 1) * L;
            for (long g = 0; g < G; ++g) {
                const V yj = loadv(tp + j * L + g * W);
                const V yjm1 = j > 0 ? loadv(tp + (j - 1) * L + g * W) : V(0.0f);
                const V up = loadv(col + g * W);
                const V delX = up + delXConst[g];
                const V delY = left[g] + stdx::abs(yj - yjm1) + delYConst;
                const V match = diag[g] + stdx::abs(xi[g] - yj) + stdx::abs(xim1[g] - yjm1) + matchConst;
                const V v = minv(match, minv(delX, delY));
                diag[g] = up;
                left[g] = v;
                storev(v, col + g * W);
            }
        }
    }
    for (long k = 0; k < L; ++k) b.out[k] = buf[m * L + k];
}

std::size_t lanes() { return std::size_t(L); }

void dtw(const Batch& b) {
    // A band that admits every cell is plain DTW, which the faster strip sweep computes.
    const long up = b.band + (b.m > b.n ? b.m - b.n : 0), lo = b.band + (b.n > b.m ? b.n - b.m : 0);
    const bool banded = b.band >= 0 && (up < b.m - 1 || lo < b.n - 1);
    if (banded) {
        if (b.broadcastQuery) b.absCost ? dtwBand<true, true>(b) : dtwBand<false, true>(b);
        else b.absCost ? dtwBand<true, false>(b) : dtwBand<false, false>(b);
    } else {
        if (b.broadcastQuery) b.absCost ? dtwFull<true, true>(b) : dtwFull<false, true>(b);
        else b.absCost ? dtwFull<true, false>(b) : dtwFull<false, false>(b);
    }
}

void sdtw(const Batch& b) {
    if (b.broadcastQuery) b.absCost ? dtwFull<true, true, true>(b) : dtwFull<false, true, true>(b);
    else b.absCost ? dtwFull<true, false, true>(b) : dtwFull<false, false, true>(b);
}

void twed(const Batch& b) { b.broadcastQuery ? twedLanes<true>(b) : twedLanes<false>(b); }

void euclidean(const Batch& b) {
    if (b.broadcastQuery) b.absCost ? euclideanLanes<true, true>(b) : euclideanLanes<false, true>(b);
    else b.absCost ? euclideanLanes<true, false>(b) : euclideanLanes<false, false>(b);
}
