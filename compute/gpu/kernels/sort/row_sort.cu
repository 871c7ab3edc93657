// Device row sort (row_sort.h): one stable radix sort of the whole block with 64-bit keys
// (row << 32 | order-preserving bits of the float), so that a block of 32 rows is one large
// sort that fills the GPU rather than 32 small ones. Only the low 32 + log2(rows) bits are
// sorted; the columns ride along as values, in column order before the sort.
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/kernels/sort/row_sort.h"

#if WL_GPU_CUDA
#include <cub/device/device_radix_sort.cuh>

namespace warplab::compute::gpu {

namespace {

__global__ void makeKeys(const double* __restrict__ in, std::size_t n, std::size_t cols, std::uint64_t* __restrict__ key,
                         std::uint32_t* __restrict__ column, int* notFloat) {
    for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < n; k += std::size_t(gridDim.x) * blockDim.x) {
        const double v = in[k];
        const float f = float(v);
        if (double(f) != v) *notFloat = 1;
        // The same map as quality.cpp's orderedBits32: flip the sign bit of positives, every
        // bit of negatives.
        const std::uint32_t u = __float_as_uint(f);
        const std::uint32_t bits = (u >> 31) ? ~u : (u | 0x80000000u);
        const std::size_t row = k / cols;
        key[k] = (std::uint64_t(row) << 32) | bits;
        column[k] = std::uint32_t(k - row * cols);
    }
}

__global__ void readKeys(const std::uint64_t* __restrict__ key, std::size_t n, float* __restrict__ distance) {
    for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < n; k += std::size_t(gridDim.x) * blockDim.x) {
        const std::uint32_t bits = std::uint32_t(key[k]);
        distance[k] = __uint_as_float((bits >> 31) ? (bits & 0x7fffffffu) : ~bits);
    }
}

int gridFor(std::size_t n) { return int(std::min<std::size_t>((n + 255) / 256, 65535)); }

}  // namespace

RowSorter::RowSorter(std::size_t maxRows, std::size_t cols) : maxRows_(maxRows), cols_(cols) {
    while ((std::size_t(1) << rowBits_) < maxRows_) ++rowBits_;
    const std::size_t n = maxRows_ * cols_;
    keyA_.resize(n);
    keyB_.resize(n);
    colA_.resize(n);
    colB_.resize(n);
    cub::DoubleBuffer<std::uint64_t> keys(keyA_.get(), keyB_.get());
    cub::DoubleBuffer<std::uint32_t> vals(colA_.get(), colB_.get());
    check(cub::DeviceRadixSort::SortPairs(nullptr, tempBytes_, keys, vals, n, 0, 32 + rowBits_), "row sort sizing");
    temp_.resize(std::max<std::size_t>(tempBytes_, 1));
}

void RowSorter::sort(const double* in, std::size_t rows, float* distance, std::uint32_t* column, int* notFloat,
                     gpuStream_t s) {
    const std::size_t n = std::min(rows, maxRows_) * cols_;
    if (n == 0) return;
    makeKeys<<<gridFor(n), 256, 0, s>>>(in, n, cols_, keyA_.get(), colA_.get(), notFloat);
    checkLaunch("row sort keys");
    cub::DoubleBuffer<std::uint64_t> keys(keyA_.get(), keyB_.get());
    cub::DoubleBuffer<std::uint32_t> vals(colA_.get(), colB_.get());
    std::size_t bytes = tempBytes_;
    check(cub::DeviceRadixSort::SortPairs(temp_.get(), bytes, keys, vals, n, 0, 32 + rowBits_, s), "row sort");
    readKeys<<<gridFor(n), 256, 0, s>>>(keys.Current(), n, distance);
    checkLaunch("row sort distances");
    check(gpuMemcpyAsync(column, vals.Current(), n * sizeof(std::uint32_t), gpuMemcpyDeviceToDevice, s), "row sort columns");
}

}  // namespace warplab::compute::gpu
#endif
