// Subsequence DTW on the GPU: many queries against one long reference (METRICS.md sdtw),
// with the z-normaliser fused on the device and the top-k matches (start, end, cost) chosen
// on the device. Engine::search (or a batch caller) can call this when the backend is CUDA.
#pragma once
#include <vector>

#include "compute/core/params.h"
#include "compute/core/results.h"
#include "compute/core/series.h"

namespace warplab::compute::gpu {

struct SdtwTiming {
    double kernelSeconds = 0;  // z-normalise + DP + top-k on the device (events)
    double totalSeconds = 0;   // including packing and transfers
    unsigned long long cells = 0;  // DP cells computed (sum over queries of n * m)
};

// Top params.topk matches of each query in `reference`, raw costs (no --sqrt), z-normalised
// per series on the device when params.znorm. Univariate series only. Throws EngineError
// (BadInput for NaN/empty/multichannel input, Device for no device or out of memory).
std::vector<std::vector<Match>> sdtwSearchBatch(const SeriesSet& queries, const Series& reference,
                                                const Params& params, SdtwTiming* timing = nullptr);

}  // namespace warplab::compute::gpu
