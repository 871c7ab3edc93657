// The kernel registry: every kernel by name, so that listing and choosing need no special cases.
#pragma once
#include <memory>
#include <string_view>
#include <vector>

#include "compute/registry/kernel.h"

namespace warplab::compute {

class KernelRegistry {
public:
    static KernelRegistry& instance();  // filled on first use with the CPU and GPU kernels built in

    void add(std::unique_ptr<Kernel> kernel);
    Kernel* find(std::string_view name) const;
    std::vector<Kernel*> all() const;
    std::vector<Kernel*> forMetric(Metric m) const;

private:
    KernelRegistry() = default;
    std::vector<std::unique_ptr<Kernel>> kernels_;
};

// Defined by compute/cpu and compute/gpu (a stub when no GPU backend is built).
void registerCpuKernels(KernelRegistry& registry);
void registerGpuKernels(KernelRegistry& registry);

}  // namespace warplab::compute
