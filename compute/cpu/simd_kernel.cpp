// cpu.simd tile loop. Targets go in the lanes and the query is broadcast: each run of `lanes`
// equal-length target columns is transposed once per tile and swept by every row. The cells
// that fit no such run (the diagonal tiles of a symmetric matrix, odd lengths, the remainder)
// are packed one pair per lane instead, so no batch runs mostly empty.
#include "compute/cpu/simd_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <tuple>

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"

namespace warplab::compute {

namespace {

// Grows on demand, 64-byte aligned (vector_aligned loads of AVX-512 registers).
class AlignedFloats {
public:
    float* get(std::size_t count) {
        if (count > size_) {
            std::size_t bytes = ((count * sizeof(float) + 63) / 64) * 64;
            data_.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
            size_ = bytes / sizeof(float);
        }
        return data_.get();
    }

private:
    struct Free { void operator()(float* p) const { std::free(p); } };
    std::unique_ptr<float, Free> data_;
    std::size_t size_ = 0;
};

struct Scratch {
    AlignedFloats q, t, t2, buf, out;
};

struct PairRef {
    std::size_t r, c;
};

// Whether fp32 lanes can hold this series' costs: one channel, and samples small enough that
// no squared difference or accumulated cost overflows fp32 (|v| <= 1e15 keeps a cost below
// 4e30 and a path of up to 1e7 cells below 4e37 < 3.4e38). Others go to the reference.
bool fitsLanes(const Series& s) {
    if (s.dims != 1) return false;
    for (float v : s.samples())
        if (std::fabs(v) > 1e15f) return false;
    return true;
}

}  // namespace

SimdKernel::SimdKernel(lanes::Isa isa) : isa_(isa) {}

SimdKernel SimdKernel::named(std::string name, lanes::Isa isa) {
    SimdKernel k(isa);
    k.name_ = std::move(name);
    return k;
}

std::string SimdKernel::description() const {
    const auto ops = lanes::opsFor(isa_);
    return std::string("Target series in fp32 SIMD lanes (") + ops.name + ", " + std::to_string(ops.lanes()) +
           " pairs per batch), band-aware; dtw, cdtw, sdtw, euclidean, twed";
}

std::string SimdKernel::unavailableReason() const {
    return lanes::supported(isa_) ? std::string() : std::string("this CPU lacks ") + lanes::opsFor(isa_).name;
}

void SimdKernel::computeTile(const TileTask& task) {
    const Tile& t = task.tile;
    const Params& p = task.params;
    const lanes::Ops ops = lanes::opsFor(isa_);
    const std::size_t L = ops.lanes();
    thread_local Scratch scratch;
    auto outAt = [&](std::size_t r, std::size_t c) -> double& {
        return task.out[(r - t.rowBegin) * t.cols() + (c - t.colBegin)];
    };
    auto laneFn = p.metric == Metric::Euclidean ? ops.euclidean
                  : p.metric == Metric::Twed    ? ops.twed
                  : p.metric == Metric::Sdtw    ? ops.sdtw
                                                : ops.dtw;
    auto run = [&](lanes::Batch& b, std::size_t m) {
        b.band = p.metric == Metric::Cdtw ? long(p.band) : -1L;
        b.absCost = p.cost == Cost::Absolute;
        b.nu = float(p.nu);
        b.lambda = float(p.lambda);
        b.rate = float(p.rate);
        b.scratch = scratch.buf.get((m + 1) * L);
        b.out = scratch.out.get(L);
        laneFn(b);
    };
    auto cancelled = [&] { return task.cancel && task.cancel->cancelled(); };

    // 1. Column chunks: the tile's univariate columns sorted by length, cut into runs of L
    //    columns of one length, each transposed once and shared by every row of the tile.
    std::vector<char> colFits(t.cols()), rowFits(t.rows());
    for (std::size_t c = t.colBegin; c < t.colEnd; ++c) colFits[c - t.colBegin] = fitsLanes(task.cols[c]);
    for (std::size_t r = t.rowBegin; r < t.rowEnd; ++r) rowFits[r - t.rowBegin] = fitsLanes(task.rows[r]);
    std::vector<std::size_t> colOrder;
    for (std::size_t c = t.colBegin; c < t.colEnd; ++c)
        if (colFits[c - t.colBegin]) colOrder.push_back(c);
    std::stable_sort(colOrder.begin(), colOrder.end(),
                     [&](std::size_t a, std::size_t b) { return task.cols[a].length < task.cols[b].length; });
    struct Chunk { std::size_t first, m, offset; };  // colOrder[first .. first+L), floats at offset
    std::vector<Chunk> chunks;
    std::size_t floats = 0;
    for (std::size_t k = 0; k + L <= colOrder.size();) {
        const std::size_t m = task.cols[colOrder[k]].length;
        if (task.cols[colOrder[k + L - 1]].length != m) {  // not L of one length from here
            ++k;
            continue;
        }
        chunks.push_back({k, m, floats});
        floats += m * L;
        k += L;
    }
    float* tchunks = scratch.t.get(std::max<std::size_t>(floats, 1));
    for (const Chunk& ch : chunks)
        for (std::size_t lane = 0; lane < L; ++lane) {
            const float* ts = task.cols[colOrder[ch.first + lane]].samples().data();
            for (std::size_t j = 0; j < ch.m; ++j) tchunks[ch.offset + j * L + lane] = ts[j];
        }

    // 2. Per row: whole chunks run with the query broadcast; every other needed cell is a
    //    leftover pair. Pairs the lanes cannot hold (multichannel, huge values) go to the
    //    reference.
    std::vector<PairRef> pairs;
    for (std::size_t r = t.rowBegin; r < t.rowEnd; ++r) {
        if (cancelled()) return;  // the engine reports Cancelled
        const Series& row = task.rows[r];
        std::vector<char> done(t.cols(), 0);
        const bool rowFitsLanes = rowFits[r - t.rowBegin];
        if (rowFitsLanes)
            for (const Chunk& ch : chunks) {
                bool whole = true;
                for (std::size_t lane = 0; lane < L && whole; ++lane)
                    whole = !task.upperOnly || colOrder[ch.first + lane] > r;
                if (!whole) continue;
                lanes::Batch b;
                b.q = row.samples().data();
                b.broadcastQuery = true;
                b.t = tchunks + ch.offset;
                b.n = long(row.length);
                b.m = long(ch.m);
                run(b, ch.m);
                for (std::size_t lane = 0; lane < L; ++lane) {
                    const std::size_t c = colOrder[ch.first + lane];
                    outAt(r, c) = b.out[lane];
                    done[c - t.colBegin] = 1;
                }
            }
        for (std::size_t c = t.colBegin; c < t.colEnd; ++c) {
            if (done[c - t.colBegin] || (task.upperOnly && c < r)) continue;
            if (task.upperOnly && c == r) { outAt(r, c) = 0; continue; }  // d(x, x) = 0 for these metrics
            if (!rowFitsLanes || !colFits[c - t.colBegin]) {
                outAt(r, c) = reference::rawDistance(row, task.cols[c], p);
                continue;
            }
            pairs.push_back({r, c});
        }
    }

    // 3. Leftover pairs, one pair per lane: grouped by (query length, target length), in
    //    batches of L (the last padded with copies of its first pair), both sides transposed.
    std::stable_sort(pairs.begin(), pairs.end(), [&](const PairRef& a, const PairRef& b) {
        return std::make_tuple(task.rows[a.r].length, task.cols[a.c].length) <
               std::make_tuple(task.rows[b.r].length, task.cols[b.c].length);
    });
    std::size_t k = 0;
    while (k < pairs.size()) {
        if (cancelled()) return;
        const std::size_t n = task.rows[pairs[k].r].length, m = task.cols[pairs[k].c].length;
        std::size_t end = k;
        while (end < pairs.size() && end - k < L && task.rows[pairs[end].r].length == n &&
               task.cols[pairs[end].c].length == m)
            ++end;
        float* q = scratch.q.get(n * L);
        float* tt = scratch.t2.get(m * L);
        for (std::size_t lane = 0; lane < L; ++lane) {
            const PairRef& pr = pairs[k + (lane < end - k ? lane : 0)];
            const float* qs = task.rows[pr.r].samples().data();
            const float* ts = task.cols[pr.c].samples().data();
            for (std::size_t i = 0; i < n; ++i) q[i * L + lane] = qs[i];
            for (std::size_t j = 0; j < m; ++j) tt[j * L + lane] = ts[j];
        }
        lanes::Batch b;
        b.q = q;
        b.t = tt;
        b.n = long(n);
        b.m = long(m);
        run(b, m);
        for (std::size_t lane = 0; lane < end - k; ++lane) outAt(pairs[k + lane].r, pairs[k + lane].c) = b.out[lane];
        k = end;
    }
}

}  // namespace warplab::compute
