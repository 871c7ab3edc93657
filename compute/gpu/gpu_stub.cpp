// Placeholder until the GPU backend lands: no GPU kernels are registered.
#include "compute/kernels/registry.h"

namespace warplab::compute {
void registerGpuKernels(KernelRegistry&) {}
}  // namespace warplab::compute
