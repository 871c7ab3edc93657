#include "app/cli/gpu_start_up.h"

#include "app/cli/devices_option.h"
#include "app/cli/process_exit.h"
#include "compute/core/error.h"
#include "compute/engine/device_list.h"

namespace warplab::cli {

GpuStartUp::GpuStartUp(const RunFlags& run) {
    if (run.backend == compute::Backend::Cpu) return;
    try {
        devices_ = parseDevices(run.devices);
    } catch (const compute::EngineError&) {
        return;  // toRunOptions reports it
    }
    started_ = true;
    warm_ = std::jthread([devices = devices_, done = contexts_, t0 = std::chrono::steady_clock::now()] {
        compute::warmUpGpus(devices).join();
        if (compute::gpuUnavailableReason().empty())  // else no GPU started: nothing to tell
            done->store(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    });
}

GpuStartUp::~GpuStartUp() {
    if (fullTeardownAtExit()) return;  // the threads are joined
    // Their work holds only copies and shared state, nothing of this object.
    if (warm_.joinable()) warm_.detach();
    if (pin_.joinable()) pin_.detach();
}

void GpuStartUp::pin(std::function<std::size_t(int devices)> bytesFor, int perDevice) {
    if (!started_) return;
    pin_ = compute::prewarmPinned(devices_, std::move(bytesFor), perDevice);
}

double GpuStartUp::wait() {
    const auto t0 = std::chrono::steady_clock::now();
    if (warm_.joinable()) warm_.join();
    if (pin_.joinable()) pin_.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace warplab::cli
