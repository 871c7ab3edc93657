// Which GPU this process can use: whether one exists, its name and size. "No device" is a
// normal state (kernels report it through unavailableReason()), never a crash.
#pragma once
#include <string>

namespace warplab::compute::gpu {

// Empty when a device can run kernels, else why not ("no CUDA device found", driver error).
const std::string& unavailableReason();
bool available();
std::string deviceName();       // "NVIDIA H100 80GB HBM3", or "" without a device
int multiprocessorCount();      // 0 without a device

}  // namespace warplab::compute::gpu
