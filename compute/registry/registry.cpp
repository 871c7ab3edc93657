#include "compute/registry/registry.h"

namespace warplab::compute {

KernelRegistry& KernelRegistry::instance() {
    static KernelRegistry* registry = [] {
        auto* r = new KernelRegistry();
        registerCpuKernels(*r);
        registerGpuKernels(*r);
        return r;
    }();
    return *registry;
}

void KernelRegistry::add(std::unique_ptr<Kernel> kernel) { kernels_.push_back(std::move(kernel)); }

Kernel* KernelRegistry::find(std::string_view name) const {
    for (const auto& k : kernels_)
        if (k->name() == name) return k.get();
    return nullptr;
}

std::vector<Kernel*> KernelRegistry::all() const {
    std::vector<Kernel*> out;
    for (const auto& k : kernels_) out.push_back(k.get());
    return out;
}

std::vector<Kernel*> KernelRegistry::forMetric(Metric m) const {
    std::vector<Kernel*> out;
    for (const auto& k : kernels_)
        if (k->supports(m)) out.push_back(k.get());
    return out;
}

}  // namespace warplab::compute
