// The GPU search options shared by the engine's searches (engine.cpp, engine_window.cpp).
#pragma once
#if WARPLAB_HAVE_GPU
#include "compute/engine/engine.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/gpu/runtime/device_set.h"

namespace warplab::compute::detail {

// The run's devices (all listed, or every one) and processes (over processes, process 0 gets
// the matches, the others none). The engine has run checkSeries on the reference before any
// search, so the device search does not scan its samples a second time.
inline gpu::SdtwOptions gpuSearchOptions(const RunOptions& options) {
    gpu::SdtwOptions o;
    o.devices = gpu::resolveDevices(options.devices);
    o.processes = options.processes;
    o.referenceChecked = true;
    return o;
}

}  // namespace warplab::compute::detail
#endif
