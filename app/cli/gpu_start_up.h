// The GPUs' start-up of a command (contexts, peer access, pinned buffers), begun before the
// command reads its input so that the two overlap (compute::warmUpGpus, prewarmPinned), and
// awaited when the job is about to start: the job then finds the devices ready instead of
// meeting their start-up half-way through its first device calls.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "app/cli/common_options.h"

namespace warplab::cli {

class GpuStartUp {
public:
    // Starts the contexts of the devices `run` names, unless its backend is the CPU's (a bad
    // --devices is left for the job to report).
    explicit GpuStartUp(const RunFlags& run);
    // A command that fails before its job (bad input) is left before the contexts are up: the
    // start-up goes on in the background and ends with the process, which leaves without its
    // teardown (process_exit.h), so that the error is reported at once. With the full teardown
    // the start-up is waited for, as the runtime must not be torn down under it.
    ~GpuStartUp();
    GpuStartUp(const GpuStartUp&) = delete;
    GpuStartUp& operator=(const GpuStartUp&) = delete;
    bool started() const { return started_; }
    // Pins `perDevice` slots of bytesFor(number of devices) bytes per device for a pattern run
    // (compute::prewarmPinned), in the background too.
    void pin(std::function<std::size_t(int devices)> bytesFor, int perDevice);
    // Waits for all of it; returns the seconds waited (0 when it was done already).
    double wait();
    // How long the contexts and peer access took from the start; -1 before they are done, or
    // when no GPU was there to start.
    double contextSeconds() const { return contexts_->load(); }

private:
    bool started_ = false;
    std::vector<int> devices_;
    std::shared_ptr<std::atomic<double>> contexts_ = std::make_shared<std::atomic<double>>(-1.0);
    std::jthread warm_, pin_;
};

}  // namespace warplab::cli
