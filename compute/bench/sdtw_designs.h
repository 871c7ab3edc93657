// The subsequence-search designs `warplab-cli bench --metric sdtw` and the Kernels view set
// side by side: WarpLab's fp32 pass at its chosen segment width and at each width the seeds
// sweep (rows per lane 2..32), at 2 and 4 columns per step against the chosen 8, the two-kernel
// z-normaliser against the fused one, the __half2 pass, and the two CPU paths. They are not registry kernels (a search is not a pairwise
// distance), so they have their own list; runBenchmark runs them by these names.
#pragma once
#include <string>
#include <vector>

namespace warplab::compute {

struct SdtwDesign {
    std::string name;         // "cuda.sdtw.r16" (hip.* in a HIP build), "cpu.simd", ...
    std::string description;  // one line for the Kernels view
    bool device = false;      // runs on the GPU
    int rowsPerLane = 0;      // device: segment width (0: chosen per batch)
    bool half2 = false;
    bool twoKernelNormaliser = false;
    int columnsPerStep = 0;   // device: reference columns per lane and step (0: chosen)
    int stretches = 0;        // device fp32: reference stretches per query (0: chosen, 1: whole)
};

// Every design, device ones first (present in builds without a GPU too: their rows then say why
// they did not run).
const std::vector<SdtwDesign>& sdtwDesigns();
// The design of that name, or nullptr.
const SdtwDesign* findSdtwDesign(const std::string& name);
// What runBenchmark runs when no design is named: the chosen fp32 pass and the CPU paths.
std::vector<std::string> defaultSdtwDesigns();

}  // namespace warplab::compute
