// A build without a GPU library: no GPU kernels are registered.
#include "compute/registry/registry.h"

namespace warplab::compute {
void registerGpuKernels(KernelRegistry&) {}
}  // namespace warplab::compute
