// The GPUs this program can use, in words, for views that show where a job runs (the Metric
// panel). Empty without a GPU backend or a usable device; then `gpuUnavailableReason` says why.
#pragma once
#include <string>
#include <vector>

namespace warplab::compute {

// "GPU 0 (NVIDIA H200)", ... for every visible device (RunOptions::devices indices).
std::vector<std::string> gpuDeviceLabels();
std::string gpuUnavailableReason();

}  // namespace warplab::compute
