// The GPUs this program can use, in words, for views that show where a job runs (the Metric
// panel). Empty without a GPU backend or a usable device; then `gpuUnavailableReason` says why.
#pragma once
#include <string>
#include <thread>
#include <vector>

namespace warplab::compute {

// "GPU 0 (NVIDIA H200)", ... for every visible device (RunOptions::devices indices).
std::vector<std::string> gpuDeviceLabels();
std::string gpuUnavailableReason();

// Starts the GPU runtime on `devices` (RunOptions::devices; empty: every visible GPU), one
// thread per device, and returns at once; the returned thread finishes when all are ready.
// A command calls it before reading its input, so that creating contexts (a good part of a
// second per device) overlaps the reading instead of adding to the job. Never throws: errors
// (no device, a bad index) are the job's to report.
std::jthread warmUpGpus(std::vector<int> devices);

}  // namespace warplab::compute
