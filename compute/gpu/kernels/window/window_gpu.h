// Window search (compute/cpu/window_search.h's definition) on a GPU, batched:
//   1. one thread per window: exact two-pass z statistics in double, LB_Kim and LB_Keogh (query
//      envelope) in double, stored rounded down to float (still a lower bound);
//   2. per exclusion slot (2*floor(m/2)+1 starts) the smallest bound; the host takes the slots
//      of each parity with the smallest bounds and the device computes their exact DTW: k
//      same-parity slots give a bound B >= the k-th selected cost (window_search.h);
//   3. the windows whose bound is <= B (+ the CPU path's slack) are compacted into a list;
//   4. one thread per survivor: exact z and band DTW in double with the same operation order
//      as the CPU (no fused multiply-add: __dmul_rn/__dadd_rn), abandoned when a row's minimum
//      exceeds the best-so-far, which for k = 1 is shared by all blocks through an atomic.
// The host selects the top-k of the survivors with selectWindowTopK, so the matches equal
// cpu.reference's bit for bit.
#pragma once
#include <vector>

#include "compute/core/results.h"
#include "compute/core/series.h"
#include "compute/cpu/window_search.h"

namespace warplab::compute::gpu {

struct WindowGpuTiming {
    double boundsMs = 0, selectMs = 0, dtwMs = 0, totalMs = 0;  // device events / host clock
    std::size_t survivors = 0;
};

// qz: the z-normalised query (m doubles, znormWindow). Reference uploaded, then searched, on
// `devices` (RunOptions::devices: empty = every visible GPU): with several, each takes an equal
// share of the starts on a thread of its own and uploads only the samples its windows cover,
// and their candidates (below) are selected together, so the matches are one device's bit for
// bit. `timing` is filled on one device only; `stats` sums the devices'.
std::vector<Match> windowSearch(const double* qz, std::size_t m, const Series& reference, const WindowSearchParams& p,
                                WindowSearchStats* stats, WindowGpuTiming* timing = nullptr,
                                const std::vector<int>& devices = {});

// The candidates windowSearch selects its matches from (window_search.h's
// windowSearchCandidates): every window of the stretch whose cost was computed in full, which
// includes every window of cost <= the stretch's bound B, so that a distributed search merges
// stretches exactly with selectWindowTopK over the union. A window is left out only when its
// lower bound exceeds B + slack or its DTW was abandoned above a real cost of the stretch (for
// k = 1, the best so far), neither of which the union's top-k can pick. Costs are bit for bit
// the CPU's.
std::vector<WindowCandidate> windowCandidates(const double* qz, std::size_t m, const Series& reference,
                                              const WindowSearchParams& p, WindowSearchStats* stats,
                                              WindowGpuTiming* timing = nullptr, const std::vector<int>& devices = {});

// The same on a reference already in device memory (float, N samples; the current device): for
// references generated on the device and for benchmarks without the upload.
std::vector<Match> windowSearchDevice(const double* qz, std::size_t m, const float* deviceReference, std::size_t N,
                                      const WindowSearchParams& p, WindowSearchStats* stats,
                                      WindowGpuTiming* timing = nullptr);
std::vector<WindowCandidate> windowCandidatesDevice(const double* qz, std::size_t m, const float* deviceReference,
                                                    std::size_t N, const WindowSearchParams& p,
                                                    WindowSearchStats* stats, WindowGpuTiming* timing = nullptr);

}  // namespace warplab::compute::gpu
