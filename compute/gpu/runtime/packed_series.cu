// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/runtime/packed_series.h"

#include <algorithm>
#include <cmath>

namespace warplab::compute::gpu {

PackedHost packSeries(const SeriesSet& set, std::size_t begin, std::size_t end, const std::string& field) {
    using K = EngineError::Kind;
    PackedHost h;
    if (begin >= end) return h;
    h.dims = int(set[begin].dims);
    std::size_t total = 0;
    for (std::size_t i = begin; i < end; ++i) total += set[i].samples().size();
    h.values.reserve(total);
    h.minLength = set[begin].length > 0 ? int(set[begin].length) : 0;
    for (std::size_t i = begin; i < end; ++i) {
        const Series& s = set[i];
        const std::string name = field + "[" + std::to_string(i) + "]";
        if (s.length == 0) throw EngineError(K::BadInput, name, "empty series");
        if (int(s.dims) != h.dims)
            throw EngineError(K::BadInput, name, "has " + std::to_string(s.dims) + " channels, expected " + std::to_string(h.dims));
        if (s.length > std::size_t(1) << 30) throw EngineError(K::BadInput, name, "longer than 2^30 samples");
        for (std::size_t k = 0; k < s.samples().size(); ++k)
            if (!std::isfinite(s.samples()[k]))
                throw EngineError(K::BadInput, name, "sample " + std::to_string(k / s.dims) + " is " +
                                                         (std::isnan(s.samples()[k]) ? "NaN" : "infinite"));
        h.offsets.push_back(static_cast<long long>(h.values.size()));
        h.lengths.push_back(int(s.length));
        h.values.insert(h.values.end(), s.samples().begin(), s.samples().end());
        h.maxLength = std::max(h.maxLength, int(s.length));
        h.minLength = std::min(h.minLength, int(s.length));
    }
    return h;
}

void PackedDevice::upload(const PackedHost& h, gpuStream_t s) {
    values.upload(h.values.data(), h.values.size(), s);
    offsets.upload(h.offsets.data(), h.offsets.size(), s);
    lengths.upload(h.lengths.data(), h.lengths.size(), s);
    count = int(h.count());
    dims = h.dims;
    maxLength = h.maxLength;
    minLength = h.minLength;
}

PairList tilePairs(const Tile& tile, bool upperOnly) {
    PairList p;
    p.row.reserve(tile.cells());
    p.col.reserve(tile.cells());
    for (std::size_t r = 0; r < tile.rows(); ++r)
        for (std::size_t c = 0; c < tile.cols(); ++c) {
            if (upperOnly && tile.colBegin + c < tile.rowBegin + r) continue;
            p.row.push_back(int(r));
            p.col.push_back(int(c));
        }
    return p;
}

}  // namespace warplab::compute::gpu
