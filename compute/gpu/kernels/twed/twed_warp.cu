// Register-tiled TWED (see twed_warp.h).
//
// Schedule: lane l of a group holds rows i = l*R + k (k < R) and computes column j = t - l at
// step t; the cell above its first row (the bottom row of lane l-1) was computed one step
// earlier and arrives by a shuffle. One step of a lane, for its R rows:
//   bottom-up:  D[k] = min(D(i-1, j-1) + match(i, j), D(i, j-1) + delY(j))   (old D[k-1], D[k])
//   top-down:   D[k] = min(D[k], D(i-1, j) + delX(i))                         (the only chain)
// so the in-place update needs no copies (as in the shuffle DTW kernel).
//
// METRICS.md terms, with the padding x(-1) = y(-1) = 0 and t(-1) = 0:
//   delX(i) = |x_i - x_{i-1}| + nu*(ta_i - ta_{i-1}) + lambda   (per row, kept in registers)
//   delY(j) = |y_j - y_{j-1}| + nu*(tb_j - tb_{j-1}) + lambda   (per column, once per step)
//   match   = |x_i - y_j| + |x_{i-1} - y_{j-1}| + nu*(|ta_i - tb_j| + |ta_{i-1} - tb_{j-1}|)
// The point term |x_i - y_j| of row k is kept for the next column, where row k+1 needs it as
// |x_{i-1} - y_{j-1}|; the padding samples are zeros, so the first row and column need no case.
// The time term is 2*nu*dt*|i - j| for i, j >= 1 (dt = 1, or 1/rate). For i = 0 or j = 0 the
// true term differs (ta(-1) = 0), but there the diagonal predecessor D(i-1, j-1) is +inf for
// every cell except (0, 0), where both give 0: no correction is needed.
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>

#include "compute/gpu/kernels/twed/twed_warp.h"

namespace warplab::compute::gpu {

namespace {

constexpr int kBlock = 128;

template <typename T>
__device__ __forceinline__ T tmin(T a, T b) {
    if constexpr (sizeof(T) == 4) return fminf(a, b);
    else return fmin(a, b);
}
template <typename T>
__device__ __forceinline__ T tabs(T a) {
    if constexpr (sizeof(T) == 4) return fabsf(a);
    else return fabs(a);
}

template <typename T, int R, int G, bool NU>
__global__ void __launch_bounds__(kBlock) twedWarpKernel(SetView rows, SetView cols, PairsView pairs, int n, int m,
                                                         T nu, T lambda, T dt) {
    static_assert(G <= kWarpSize && kWarpSize % G == 0, "a group must fit in a warp");
    constexpr int GPW = kWarpSize / G;
    const int lane = threadIdx.x % G;
    const int gidx = (threadIdx.x % kWarpSize) / G;
    const int warpGlobal = int((blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / kWarpSize);
    const int warpsTotal = int(gridDim.x * std::size_t(blockDim.x) / kWarpSize);
    const T inf = T(INFINITY);
    const T c2 = T(2) * nu * dt;
    const T nudt = nu * dt;
    const int i0 = lane * R;
    const int lastLane = (n - 1) / R, lastK = (n - 1) % R;
    constexpr bool kKeepA = sizeof(T) == 4;
    // The loop bounds are the same for every lane of the warp (one n, one m), so the shuffles
    // below always see the whole warp.
    for (int base = warpGlobal * GPW; base < pairs.count; base += warpsTotal * GPW) {
        const int p = base + gidx;
        const bool real = p < pairs.count;
        const int src = real ? p : base;  // a missing pair recomputes the warp's first
        const int r = pairs.row[src], c = pairs.col[src];
        const float* x = rows.values + rows.offsets[r];
        const float* y = cols.values + cols.offsets[c];
        T xr[R], dx[R], D[R], ap[R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
            const int i = i0 + k;
            const T xi = i < n ? T(x[i]) : T(0);
            const T xim1 = (i >= 1 && i - 1 < n) ? T(x[i - 1]) : T(0);
            xr[k] = xi;
            dx[k] = tabs(xi - xim1) + (i > 0 ? nudt : T(0)) + lambda;
            D[k] = inf;         // D(i, -1)
            ap[k] = kKeepA ? tabs(xi) : T(0);  // |x_i - y(-1)|
        }
        const T xAbove = (i0 >= 1 && i0 - 1 < n) ? T(x[i0 - 1]) : T(0);
        T bottom = inf, rawPrev = inf, yPrev = T(0);
        const int steps = m + G - 1;
        for (int t = 0; t < steps; ++t) {
            const int j = t - lane;
            const T raw = WL_SHFL_UP(bottom, 1, G);  // D(i0 - 1, j)
            if (j >= 0 && j < m) {
                const T up = lane == 0 ? inf : raw;
                const T diag = lane == 0 ? (j == 0 ? T(0) : inf) : rawPrev;
                const T yj = T(y[j]);
                const T dy = tabs(yj - yPrev) + (j > 0 ? nudt : T(0)) + lambda;
                const T q = T(j - i0);
                const T aTop = tabs(xAbove - yPrev);
#pragma unroll
                for (int k = R - 1; k >= 0; --k) {
                    const T a = tabs(xr[k] - yj);
                    // fp64 has no registers to keep the point terms: it recomputes |x_{i-1} - y_{j-1}|.
                    const T aPrev = k == 0 ? aTop : kKeepA ? ap[k - 1] : tabs(xr[k - 1] - yPrev);
                    T match = (k > 0 ? D[k - 1] : diag) + (a + aPrev);
                    if constexpr (NU) match += c2 * tabs(T(k) - q);
                    D[k] = tmin(match, D[k] + dy);
                    if constexpr (kKeepA) ap[k] = a;
                }
                T above = up;
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    D[k] = tmin(D[k], above + dx[k]);
                    above = D[k];
                }
                bottom = D[R - 1];
                if (real && lane == lastLane && j == m - 1) {
                    T v = D[0];
#pragma unroll
                    for (int k = 1; k < R; ++k) if (k == lastK) v = D[k];
                    pairs.out[std::size_t(r) * pairs.outCols + c] = double(v);
                }
                yPrev = yj;
            } else {
                bottom = inf;
            }
            rawPrev = raw;
        }
    }
}

int nextPow2(int v) { int p = 1; while (p < v && p < 32) p *= 2; return p; }

template <typename T, int R, bool NU>
void launchG(int G, int grid, SetView rv, SetView cv, const PairsView& pairs, int n, int m, T nu, T lambda, T dt,
             gpuStream_t s) {
    switch (G) {
#define WL_CASE(g) case g: twedWarpKernel<T, R, g, NU><<<grid, kBlock, 0, s>>>(rv, cv, pairs, n, m, nu, lambda, dt); break;
        WL_CASE(1) WL_CASE(2) WL_CASE(4) WL_CASE(8) WL_CASE(16) WL_CASE(32)
#undef WL_CASE
        default: throw EngineError(EngineError::Kind::Internal, "twed", "unsupported group width");
    }
    checkLaunch("twed warp kernel");
}

}  // namespace

bool twedWarpApplies(const PackedDevice& rows, const PackedDevice& cols, const Params& params) {
    return params.metric == Metric::Twed && rows.dims == 1 && cols.dims == 1 && rows.count > 0 && cols.count > 0 &&
           rows.minLength == rows.maxLength && cols.minLength == cols.maxLength && rows.maxLength >= 1 &&
           rows.maxLength <= kTwedWarpMaxRows && cols.maxLength >= 1;
}

template <typename T>
void launchTwedWarp(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs,
                    const Params& params, gpuStream_t s) {
    if (!twedWarpApplies(rows, cols, params))
        throw EngineError(EngineError::Kind::Internal, "twed",
                          "the TWED warp kernel takes univariate rows of one length <= 1024");
    if (pairs.count == 0) return;
    const int n = rows.maxLength, m = cols.maxLength;
    const T dt = params.rate > 0 ? T(1.0 / params.rate) : T(1);
    const T nu = T(params.nu), lambda = T(params.lambda);
    // 32 rows per lane for long queries; 16 rows per lane and as few lanes as cover n for
    // shorter ones (several pairs per warp, so that no lane idles through the whole sweep).
    const int R = n > 512 ? 32 : 16;
    const int G = R == 32 ? 32 : nextPow2((n + 15) / 16);
    const long groupsPerBlock = kBlock / G;
    const int grid = int((long(pairs.count) + groupsPerBlock - 1) / groupsPerBlock);
    const bool useNu = params.nu != 0;
    if (R == 32) {  // always a full warp of lanes
        if (useNu) twedWarpKernel<T, 32, 32, true><<<grid, kBlock, 0, s>>>(view(rows), view(cols), pairs, n, m, nu, lambda, dt);
        else twedWarpKernel<T, 32, 32, false><<<grid, kBlock, 0, s>>>(view(rows), view(cols), pairs, n, m, nu, lambda, dt);
        checkLaunch("twed warp kernel");
    } else {
        if (useNu) launchG<T, 16, true>(G, grid, view(rows), view(cols), pairs, n, m, nu, lambda, dt, s);
        else launchG<T, 16, false>(G, grid, view(rows), view(cols), pairs, n, m, nu, lambda, dt, s);
    }
}

template void launchTwedWarp<float>(const PackedDevice&, const PackedDevice&, const PairsView&, const Params&,
                                    gpuStream_t);
template void launchTwedWarp<double>(const PackedDevice&, const PackedDevice&, const PairsView&, const Params&,
                                     gpuStream_t);

}  // namespace warplab::compute::gpu
