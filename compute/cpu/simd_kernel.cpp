// cpu.simd tile loop: collects the tile's pairs, groups them by (query length, target length),
// packs each group into batches of `lanes` pairs (the last batch padded with copies of its
// first pair), transposes them lane-minor and runs the lane kernel of the chosen ISA.
#include "compute/cpu/simd_kernel.h"

#include <algorithm>
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
    AlignedFloats q, t, buf, out;
};

struct PairRef {
    std::size_t r, c;
};

}  // namespace

SimdKernel::SimdKernel(lanes::Isa isa) : isa_(isa) {}

SimdKernel SimdKernel::named(std::string name, lanes::Isa isa) {
    SimdKernel k(isa);
    k.name_ = std::move(name);
    return k;
}

std::string SimdKernel::description() const {
    const auto ops = lanes::opsFor(isa_);
    return std::string("Pairs in fp32 SIMD lanes (") + ops.name + ", " + std::to_string(ops.lanes()) +
           " pairs per batch), band-aware; dtw, cdtw, euclidean";
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

    std::vector<PairRef> pairs;
    pairs.reserve(t.cells());
    for (std::size_t r = t.rowBegin; r < t.rowEnd; ++r)
        for (std::size_t c = t.colBegin; c < t.colEnd; ++c) {
            if (task.upperOnly && c < r) continue;
            if (task.upperOnly && c == r) { outAt(r, c) = 0; continue; }  // d(x, x) = 0 for these metrics
            if (task.rows[r].dims != 1) {  // multivariate: the lanes hold one channel
                outAt(r, c) = reference::rawDistance(task.rows[r], task.cols[c], p);
                continue;
            }
            pairs.push_back({r, c});
        }
    // Group equal shapes so that a batch's lanes share n and m.
    std::stable_sort(pairs.begin(), pairs.end(), [&](const PairRef& a, const PairRef& b) {
        return std::make_tuple(task.rows[a.r].length, task.cols[a.c].length) <
               std::make_tuple(task.rows[b.r].length, task.cols[b.c].length);
    });

    const bool euclid = p.metric == Metric::Euclidean;
    const long band = p.metric == Metric::Cdtw ? long(p.band) : -1L;
    std::size_t k = 0;
    while (k < pairs.size()) {
        if (task.cancel && task.cancel->cancelled()) return;
        const std::size_t n = task.rows[pairs[k].r].length, m = task.cols[pairs[k].c].length;
        std::size_t end = k;
        while (end < pairs.size() && end - k < L && task.rows[pairs[end].r].length == n &&
               task.cols[pairs[end].c].length == m)
            ++end;
        float* q = scratch.q.get(n * L);
        float* tt = scratch.t.get(m * L);
        for (std::size_t lane = 0; lane < L; ++lane) {
            const PairRef& pr = pairs[k + (lane < end - k ? lane : 0)];
            const float* qs = task.rows[pr.r].values.data();
            const float* ts = task.cols[pr.c].values.data();
            for (std::size_t i = 0; i < n; ++i) q[i * L + lane] = qs[i];
            for (std::size_t j = 0; j < m; ++j) tt[j * L + lane] = ts[j];
        }
        lanes::Batch b;
        b.q = q;
        b.t = tt;
        b.n = long(n);
        b.m = long(m);
        b.band = band;
        b.absCost = p.cost == Cost::Absolute;
        b.scratch = scratch.buf.get((m + 1) * L);
        b.out = scratch.out.get(L);
        (euclid ? ops.euclidean : ops.dtw)(b);
        for (std::size_t lane = 0; lane < end - k; ++lane) outAt(pairs[k + lane].r, pairs[k + lane].c) = b.out[lane];
        k = end;
    }
}

}  // namespace warplab::compute
