// The message of an allocation a device refused, built in one place so that every GPU path
// (and the GUI's fault tests) names the device, the size asked and what was free alike.
#pragma once
#include <cstddef>
#include <cstdio>
#include <string>

#include "compute/core/error.h"

namespace warplab::compute {

inline std::string deviceBytesText(std::size_t bytes) {
    char buf[32];
    const double mib = double(bytes) / (1024.0 * 1024.0);
    if (mib >= 1024.0) std::snprintf(buf, sizeof buf, "%.2f GiB", mib / 1024.0);
    else std::snprintf(buf, sizeof buf, "%.1f MiB", mib);
    return buf;
}

// "out of device memory on GPU 0 (NVIDIA H100 80GB HBM3) in device allocation: 3.20 GiB asked,
// 1.10 GiB of 79.10 GiB free". `device` < 0 or an empty name: what is unknown is left out, as
// is the free memory when `totalBytes` is 0.
inline EngineError deviceOutOfMemory(int device, const std::string& name, std::size_t askedBytes, std::size_t freeBytes,
                                     std::size_t totalBytes, const std::string& what) {
    std::string on = device >= 0 ? "GPU " + std::to_string(device) : std::string("the GPU");
    if (!name.empty()) on += " (" + name + ")";
    std::string reason = "out of device memory on " + on + " in " + what + ": " + deviceBytesText(askedBytes) + " asked";
    if (totalBytes > 0) reason += ", " + deviceBytesText(freeBytes) + " of " + deviceBytesText(totalBytes) + " free";
    return EngineError(EngineError::Kind::Device, "gpu", reason);
}

}  // namespace warplab::compute
