// Series of one tile, packed for the device: all samples in one float array with offsets and
// lengths, so that one upload carries a whole tile. Packing also rejects NaN and infinite
// samples with a message naming the series and sample (the kernels would silently spread them).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "compute/core/series.h"
#include "compute/core/tile.h"
#include "compute/gpu/runtime/gpu_runtime.h"

namespace warplab::compute::gpu {

struct PackedHost {
    std::vector<float> values;        // sample-major, dims floats per sample
    std::vector<long long> offsets;   // first float of each series
    std::vector<int> lengths;         // samples per series
    int dims = 1;
    int maxLength = 0;
    int minLength = 0;
    std::size_t count() const { return lengths.size(); }
};

// Series [begin, end) of `set`; `field` names the set in errors ("rows", "queries").
PackedHost packSeries(const SeriesSet& set, std::size_t begin, std::size_t end, const std::string& field);

struct PackedDevice {
    DeviceBuffer<float> values;
    DeviceBuffer<long long> offsets;
    DeviceBuffer<int> lengths;
    int count = 0, dims = 1, maxLength = 0, minLength = 0;
    void upload(const PackedHost& h, gpuStream_t s);
};

// The (row, col) pairs of a tile to compute, as indices into the packed rows and cols, and the
// output index row * tile.cols() + col. With upperOnly, only global col >= global row.
struct PairList {
    std::vector<int> row, col;
    std::size_t size() const { return row.size(); }
};
PairList tilePairs(const Tile& tile, bool upperOnly);

// Device view of one packed set, passed to kernels by value.
struct SetView {
    const float* values;
    const long long* offsets;
    const int* lengths;
};
inline SetView view(const PackedDevice& d) { return {d.values.get(), d.offsets.get(), d.lengths.get()}; }

}  // namespace warplab::compute::gpu
