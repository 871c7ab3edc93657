// Device-side benchmark of the GPU kernels: inputs resident on the device, kernel time alone
// from device events (no packing, transfers or engine overhead), the median of several runs,
// and the largest relative error against the scalar reference on a sample of pairs. This is
// what the published kernels report, so it is the figure compared with them; the engine path
// (transfers included) is what compute/bench/bench.h's runBench measures.
#pragma once
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/gpu/kernels/softdtw/softdtw_grad.h"
#include <string>
#include <vector>

#include "compute/bench/bench.h"

namespace warplab::compute::gpu {

// One row per (GPU kernel of config.kernels, length): `pairs` distances as a queries x targets
// block of sqrt(pairs) x sqrt(pairs) series. Kernels that are not GPU kernels are skipped.
BenchTable runDeviceBench(const BenchConfig& config);

// Subsequence search: `queries` random queries of `queryLength` in a reference of
// `referenceLength`, top-k; the row's pairs are queries, cells n*m per query.
// half2: the half-precision search (its note adds the cost-row error against fp32 on 16
// queries and how many top-k ends differ from the fp32 search).
BenchRow runSdtwBench(int queries, int queryLength, int referenceLength, int topk, int repeats,
                      bool znorm, std::uint64_t seed, bool half2 = false, const SdtwOptions& options = {});

// Soft-DTW forward + gradient (fp64, or fp32 with `fp32`) of `pairs` random pairs of `length`;
// cells n*m per pair.
// fp32: the fp32 kernels at `shape` (0 x 0: the chosen one; the row's kernel name gives it).
BenchRow runSoftDtwGradBench(int pairs, int length, int repeats, double gamma, std::uint64_t seed, bool fp32 = false,
                             GradientShape shape = {});

// The same work on the CPU through the engine (best CPU kernel, all cores) on a subset of the
// rows small enough to finish in about a second; cells/s are for that subset.
BenchRow runCpuComparison(const Params& params, std::size_t length, std::size_t pairs, std::uint64_t seed,
                          int threads);

}  // namespace warplab::compute::gpu
