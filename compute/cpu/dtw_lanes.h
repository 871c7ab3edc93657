// The lane kernels of cpu.simd (dtw, cdtw, sdtw, euclidean, twed): L pairs of equal shape (query length n, target length m) in the
// L lanes of a few SIMD registers, fp32. Built once per instruction set (baseline x86-64, AVX2 +
// FMA, AVX-512F/BW/DQ/VL) from dtw_lanes_impl.h with per-file flags, and chosen at run time.
// This header holds no SIMD types, so that baseline code may include it.
#pragma once
#include <cstddef>

namespace warplab::compute::lanes {

// Targets transposed lane-minor: t[j * lanes + k] is sample j of lane k's target. Queries
// likewise, or, with broadcastQuery, one query of n samples shared by every lane.
struct Batch {
    const float* q = nullptr;
    bool broadcastQuery = false;
    const float* t = nullptr;
    long n = 0, m = 0;
    long band = -1;          // Sakoe-Chiba half-width (METRICS.md rule), < 0 = none
    bool absCost = false;    // |a-b| instead of (a-b)^2
    float nu = 0, lambda = 0;  // TWED stiffness and edit penalty
    float rate = 0;            // TWED timestamps: 0 = sample index, else i / rate
    float* scratch = nullptr;  // (m + 1) * lanes floats, 64-byte aligned
    float* out = nullptr;      // lanes results
};

enum class Isa { Baseline, Avx2, Avx512 };

struct Ops {
    Isa isa;
    const char* name;             // "baseline", "avx2", "avx512"
    std::size_t (*lanes)();       // pairs per batch
    void (*dtw)(const Batch&);    // dtw / cdtw (band >= 0), never touching cells outside the band
    void (*euclidean)(const Batch&);  // n == m
    void (*twed)(const Batch&);       // one channel (|.|_p is |a - b|)
    void (*sdtw)(const Batch&);       // best subsequence cost of each query inside its target
};

namespace baseline {
std::size_t lanes();
void dtw(const Batch&);
void euclidean(const Batch&);
void twed(const Batch&);
void sdtw(const Batch&);
}  // namespace baseline
namespace avx2 {
std::size_t lanes();
void dtw(const Batch&);
void euclidean(const Batch&);
void twed(const Batch&);
void sdtw(const Batch&);
}  // namespace avx2
namespace avx512 {
std::size_t lanes();
void dtw(const Batch&);
void euclidean(const Batch&);
void twed(const Batch&);
void sdtw(const Batch&);
}  // namespace avx512

// Whether this CPU (and OS) can run `isa`.
bool supported(Isa isa);
// The functions of `isa` (which must be supported).
Ops opsFor(Isa isa);
// The best supported instruction set; the environment variable WARPLAB_SIMD=baseline|avx2|avx512
// lowers it (for comparisons and tests), never above what the CPU supports.
Isa bestIsa();

}  // namespace warplab::compute::lanes
