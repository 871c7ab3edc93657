// The GPUs this program can use, in words, for views that show where a job runs (the Metric
// panel). Empty without a GPU backend or a usable device; then `gpuUnavailableReason` says why.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace warplab::compute {

// "GPU 0 (NVIDIA H200)", ... for every visible device (RunOptions::devices indices).
std::vector<std::string> gpuDeviceLabels();
std::string gpuUnavailableReason();
// Throws the EngineError a GPU job on `devices` (empty: every visible GPU) would meet first: no
// GPU backend in this build, no usable device, an index this process does not see.
void checkGpus(const std::vector<int>& devices);

// Starts the GPU runtime on `devices` (RunOptions::devices; empty: every visible GPU), one
// thread per device, then enables peer access between them where they have it, and returns at
// once; the returned thread finishes when all are ready.
// A command calls it before reading its input, so that creating contexts (a good part of a
// second per device) overlaps the reading instead of adding to the job. Never throws: errors
// (no device, a bad index) are the job's to report.
std::jthread warmUpGpus(std::vector<int> devices);

// Pins host memory into the pinned cache (compute/gpu/runtime/pinned_host.h) for a GPU run
// about to start on `devices` (empty: every visible GPU): on each device, `perDevice` slots of
// two buffers of bytesFor(number of devices) bytes and a small one, pinned and handed back to the
// cache, so that the run finds them there. Pinning costs about 0.3 s per GB and the driver
// serialises it with the run's copies and launches: done while the input is read or generated,
// it is off the run's path. Returns at once; never throws (the run reports its own errors).
std::jthread prewarmPinned(std::vector<int> devices, std::function<std::size_t(int devices)> bytesFor, int perDevice);

}  // namespace warplab::compute
