// Registers the CPU kernels, the reference first so that lists start with it.
#include <memory>

#include "compute/cpu/reference_kernel.h"
#include "compute/cpu/simd_kernel.h"
#include "compute/registry/registry.h"

namespace warplab::compute {

void registerCpuKernels(KernelRegistry& registry) {
    registry.add(std::make_unique<ReferenceKernel>());
    registry.add(std::make_unique<SimdKernel>());
}

}  // namespace warplab::compute
