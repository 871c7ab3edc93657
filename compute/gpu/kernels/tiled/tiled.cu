// Tiled wavefront (see tiled.h).
//
// Cells are METRICS.md's 0-based (i, j) with D(-1, -1) = 0 and +inf elsewhere on row and column
// -1; that one boundary serves DTW, band DTW, soft-DTW and TWED (whose padded DP(i+1, j+1) is
// D(i, j)). Tile (tr, tc) holds rows r0 = tr*512 .. and columns c0 = tc*512 .. . Lane l holds rows
// r0 + 16l .. r0 + 16l + 15 and computes local column jj at step jj + l; the cell above its first
// row arrives by a shuffle from lane l-1, which computed it one step earlier. Before its first
// column a lane's "bottom" is the left boundary of its last row, so lane l+1 finds D(i0-1, c0-1)
// as its diagonal at jj = 0 without a case. Lane 0 takes its up and diagonal cells from the
// bottom row of the tile above (staged in shared memory) and the corner.
//
// Launch d computes the tiles tr + tc = d of every pair of the batch. A tile reads and rewrites
// its own columns of H (bottom rows: lane 0 reads column jj at step jj, lane 31 writes it at step
// jj + 31) and its own rows of V (right columns: read at the start, written at the end by the
// same lane), so tiles of one diagonal touch disjoint memory. The corner D(r0-1, c0-1) is the
// last cell of tile (tr-1, tc-1), written at launch d-2 into slot (d-2) % 3 of tile column tc-1;
// the only other writer of that entry, tile (tr, tc-1), writes slot (d-1) % 3.
// With a band, a tile none of whose cells is allowed is never swept, and a tile reads a
// neighbour's boundary only if that neighbour was swept (otherwise those cells are +inf).
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"

#include <algorithm>

#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/kernels/tiled/tiled.h"
#include "compute/gpu/kernels/tiled/tiled_steps.h"

namespace warplab::compute::gpu {

namespace {

using namespace tiled;

constexpr int R = kTiledRowsPerLane, G = kTiledLanes, TR = kTiledRows, TC = kTiledCols;
constexpr int kBlock = 128;
constexpr int kGroups = kBlock / G;  // tiles per block (a wave64 holds two groups)

enum Kind { kDtw, kSoft, kTwed };

// One launch: tile diagonal `diag`, whose tile rows are trLo .. trLo + tilesPerPair - 1 in the
// grid of the batch's longest series; and the boundary buffers of the batch.
struct Launch {
    int diag, trLo, tilesPerPair;
    int ntcMax;             // corner slots per pair: 3 * ntcMax
    long long hStride;      // floats per pair in H (0: one tile row, no H)
    long long vStride;      // floats per pair in V (0: one tile column, no V)
    float* H;
    float* V;
    float* C;
};

struct CellArgs {
    long band;              // < 0: none
    float ig, g2;           // soft-DTW: 1 / (gamma ln 2) and its inverse
    float nudt, c2, lambda; // TWED: nu * dt, 2 * nu * dt, lambda
};

// Band half-widths of METRICS.md for n x m: cell (i, j) is allowed iff -wlo <= j - i <= wup.
__device__ __forceinline__ void bandEdges(long band, int n, int m, int& wup, int& wlo) {
    if (band < 0) { wup = m; wlo = n; return; }
    const long cap = long(n) + m;
    wup = int(std::min(cap, band + (m > n ? m - n : 0)));
    wlo = int(std::min(cap, band + (n > m ? n - m : 0)));
}

// Whether tile (tr, tc) exists for n x m and holds at least one allowed cell.
__device__ __forceinline__ bool liveTile(int tr, int tc, int n, int m, int wup, int wlo) {
    if (tr < 0 || tc < 0) return false;
    const long r0 = long(tr) * TR, c0 = long(tc) * TC;
    if (r0 >= n || c0 >= m) return false;
    const long r1 = std::min(r0 + TR, long(n)) - 1, c1 = std::min(c0 + TC, long(m)) - 1;
    return c0 - r1 <= wup && c1 - r0 >= -long(wlo);
}

// OPT: absolute cost (dtw, softdtw) or a non-zero stiffness nu (twed).
template <int K, bool OPT>
__global__ void __launch_bounds__(kBlock) tiledKernel(SetView rows, SetView cols, PairsView pairs, Launch L,
                                                      CellArgs a) {
    __shared__ float ysAll[kGroups][TC + 1];  // y_{c0-1} .. y_{c0+TC-1} (y_{-1} = 0)
    __shared__ float hsAll[kGroups][TC];      // bottom row of the tile above, then of this tile
    const int g = threadIdx.x / G, lane = threadIdx.x % G;
    float* ys = ysAll[g];
    float* hs = hsAll[g];
    const long long items = (long long)pairs.count * L.tilesPerPair;
    // The loop bounds and the barriers are the same for the whole block; everything between
    // two barriers is uniform within a group (one tile), so the shuffles see all 32 lanes.
    for (long long base = (long long)blockIdx.x * kGroups; base < items; base += (long long)gridDim.x * kGroups) {
        const long long item = base + g;
        bool active = item < items;
        int p = 0, tr = 0, tc = 0, n = 1, m = 1, wup = 0, wlo = 0;
        const float* x = nullptr;
        const float* y = nullptr;
        std::size_t outIdx = 0;
        if (active) {
            p = int(item / L.tilesPerPair);
            tr = L.trLo + int(item % L.tilesPerPair);
            tc = L.diag - tr;
            const int r = pairs.row[p], c = pairs.col[p];
            n = rows.lengths[r];
            m = cols.lengths[c];
            x = rows.values + rows.offsets[r];
            y = cols.values + cols.offsets[c];
            outIdx = std::size_t(r) * pairs.outCols + c;
            bandEdges(a.band, n, m, wup, wlo);
            active = liveTile(tr, tc, n, m, wup, wlo);
        }
        const int ntr = (n + TR - 1) / TR, ntc = (m + TC - 1) / TC;
        const int r0 = tr * TR, c0 = tc * TC;
        const int tcEff = m - c0 < TC ? m - c0 : TC;
        // Null where the batch's grid has a single tile row / column: never dereferenced then.
        float* H = L.H ? L.H + std::size_t(p) * L.hStride : nullptr;
        if (active) {
            const bool upLive = liveTile(tr - 1, tc, n, m, wup, wlo);
            for (int jj = lane; jj <= tcEff; jj += G) ys[jj] = c0 + jj >= 1 ? y[c0 + jj - 1] : 0.f;
            for (int jj = lane; jj < tcEff; jj += G) hs[jj] = upLive ? H[c0 + jj] : INFINITY;
        }
        __syncthreads();
        if (active) {
            float* V = L.V ? L.V + std::size_t(p) * L.vStride : nullptr;
            float* C = L.C ? L.C + std::size_t(p) * 3 * L.ntcMax : nullptr;
            const bool leftLive = liveTile(tr, tc - 1, n, m, wup, wlo);
            const int rowBase = r0 + lane * R;
            float corner = INFINITY;
            if (tr == 0 && tc == 0) corner = 0.f;
            else if (lane == 0 && tr > 0 && tc > 0 && liveTile(tr - 1, tc - 1, n, m, wup, wlo))
                corner = C[((L.diag - 2) % 3) * L.ntcMax + tc - 1];
            float xr[R], D[R], dx[R], ap[R];
#pragma unroll
            for (int k = 0; k < R; ++k) {
                const int i = rowBase + k;
                xr[k] = i < n ? x[i] : 0.f;
                D[k] = leftLive && i < n ? V[i] : INFINITY;
            }
            float xAbove = 0.f;
            if constexpr (K == kTwed) {
                xAbove = rowBase >= 1 && rowBase - 1 < n ? x[rowBase - 1] : 0.f;
                float xim1 = xAbove;
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    const int i = rowBase + k;
                    dx[k] = fabsf(xr[k] - xim1) + (i > 0 ? a.nudt : 0.f) + a.lambda;
                    ap[k] = fabsf(xr[k] - ys[0]);
                    xim1 = xr[k];
                }
            }
            float bottom = D[R - 1], rawPrev = INFINITY, upPrev = corner;
            const int steps = tcEff + G - 1;
            for (int t = 0; t < steps; ++t) {
                const float raw = WL_SHFL_UP(bottom, 1, G);  // D(i0-1, jj) from lane l-1
                const int jj = t - lane;
                if (jj >= 0 && jj < tcEff) {
                    float up = raw, dg = rawPrev;
                    if (lane == 0) {
                        up = hs[jj];
                        dg = upPrev;
                        upPrev = up;
                    }
                    const float yj = ys[jj + 1];
                    const int q = c0 + jj - rowBase;  // j - i0
                    if constexpr (K == kDtw) {
                        const int kLo = q - wup, kHi = q + wlo;
                        if (kLo <= 0 && kHi >= R - 1) dtwColumn<R, OPT>(xr, D, yj, up, dg);
                        else dtwColumnMasked<R, OPT>(xr, D, yj, up, dg, kLo, kHi);
                    } else if constexpr (K == kSoft) {
                        softColumn<R, OPT>(xr, D, yj, up, dg, a.ig, a.g2);
                    } else {
                        const float yPrev = ys[jj];
                        const float dy = fabsf(yj - yPrev) + (c0 + jj > 0 ? a.nudt : 0.f) + a.lambda;
                        twedColumn<R, OPT>(xr, dx, ap, D, yj, dy, up, dg, fabsf(xAbove - yPrev), float(q), a.c2);
                    }
                    bottom = D[R - 1];
                    if (lane == G - 1) hs[jj] = bottom;
                }
                rawPrev = raw;
            }
            if (tc + 1 < ntc) {
#pragma unroll
                for (int k = 0; k < R; ++k)
                    if (rowBase + k < n) V[rowBase + k] = D[k];
            }
            if (lane == G - 1 && tr + 1 < ntr && tc + 1 < ntc) C[(L.diag % 3) * L.ntcMax + tc] = bottom;
            if (tr == ntr - 1 && tc == ntc - 1) {
                const int last = n - 1 - r0;
                if (lane == last / R) pairs.out[outIdx] = double(registerAt<R>(D, last % R));
            }
        }
        __syncthreads();
        // The same lane reads hs[jj] here and writes it when staging the next tile: no barrier.
        if (active && tr + 1 < ntr)
            for (int jj = lane; jj < tcEff; jj += G) H[c0 + jj] = hs[jj];
    }
}

template <int K, bool OPT>
void launchOne(int grid, gpuStream_t s, const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs,
               const Launch& L, const CellArgs& a) {
    tiledKernel<K, OPT><<<grid, kBlock, 0, s>>>(view(rows), view(cols), pairs, L, a);
}

}  // namespace

bool tiledApplies(const PackedDevice& rows, const PackedDevice& cols, const Params& params) {
    const Metric m = params.metric;
    return (m == Metric::Dtw || m == Metric::Cdtw || m == Metric::SoftDtw || m == Metric::Twed) && rows.dims == 1 &&
           cols.dims == 1 && rows.count > 0 && cols.count > 0 && rows.minLength >= 1 && cols.minLength >= 1;
}

int tiledDiagonals(int maxRows, int maxCols) {
    return (maxRows + TR - 1) / TR + (maxCols + TC - 1) / TC - 1;
}

void launchTiled(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs, const Params& params,
                 DeviceBuffer<float>& scratch, gpuStream_t s) {
    if (!tiledApplies(rows, cols, params))
        throw EngineError(EngineError::Kind::Internal, "tiled",
                          "the tiled kernel takes dtw, cdtw, softdtw or twed on univariate series");
    if (pairs.count == 0) return;
    const int ntr = (rows.maxLength + TR - 1) / TR, ntc = (cols.maxLength + TC - 1) / TC;
    // Buffers only where the grid has more than one tile row (H) / column (V) / both (corners).
    const long long hStride = ntr > 1 ? cols.maxLength : 0;
    const long long vStride = ntc > 1 ? rows.maxLength : 0;
    const long long cStride = ntr > 1 && ntc > 1 ? 3LL * ntc : 0;
    const long long perPair = hStride + vStride + cStride;
    int batch = pairs.count;
    if (perPair > 0) {
        const std::size_t fit = std::max<std::size_t>(1, memInfo().first / 4 / (std::size_t(perPair) * sizeof(float)));
        batch = int(std::min<std::size_t>(std::size_t(batch), fit));
        scratch.resize(std::size_t(batch) * std::size_t(perPair));
    }
    CellArgs a{};
    a.band = params.metric == Metric::Cdtw ? long(params.band) : -1;
    a.ig = float(1.0 / (params.gamma * 0.69314718055994530942));
    a.g2 = float(params.gamma * 0.69314718055994530942);
    const double dt = params.rate > 0 ? 1.0 / params.rate : 1.0;
    a.nudt = float(params.nu * dt);
    a.c2 = float(2.0 * params.nu * dt);
    a.lambda = float(params.lambda);
    const bool absCost = params.cost == Cost::Absolute;
    const int sms = std::max(1, multiprocessorCount());
    for (int p0 = 0; p0 < pairs.count; p0 += batch) {
        PairsView sub{pairs.row + p0, pairs.col + p0, std::min(batch, pairs.count - p0), pairs.outCols, pairs.out};
        Launch L{};
        L.ntcMax = ntc;
        L.hStride = hStride;
        L.vStride = vStride;
        L.H = hStride ? scratch.get() : nullptr;
        L.V = vStride ? scratch.get() + std::size_t(batch) * hStride : nullptr;
        L.C = cStride ? scratch.get() + std::size_t(batch) * (hStride + vStride) : nullptr;
        for (int d = 0; d <= ntr + ntc - 2; ++d) {
            L.diag = d;
            L.trLo = std::max(0, d - ntc + 1);
            L.tilesPerPair = std::min(d, ntr - 1) - L.trLo + 1;
            const long long items = (long long)sub.count * L.tilesPerPair;
            const int grid = int(std::min<long long>((items + kGroups - 1) / kGroups, (long long)sms * 32));
            switch (params.metric) {
                case Metric::SoftDtw:
                    if (absCost) launchOne<kSoft, true>(grid, s, rows, cols, sub, L, a);
                    else launchOne<kSoft, false>(grid, s, rows, cols, sub, L, a);
                    break;
                case Metric::Twed:
                    if (params.nu != 0) launchOne<kTwed, true>(grid, s, rows, cols, sub, L, a);
                    else launchOne<kTwed, false>(grid, s, rows, cols, sub, L, a);
                    break;
                default:
                    if (absCost) launchOne<kDtw, true>(grid, s, rows, cols, sub, L, a);
                    else launchOne<kDtw, false>(grid, s, rows, cols, sub, L, a);
                    break;
            }
            checkLaunch("tiled kernel");
        }
    }
}

}  // namespace warplab::compute::gpu
