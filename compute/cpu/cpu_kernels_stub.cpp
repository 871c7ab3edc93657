// Temporary: replaced by the CPU kernels (cpu.reference, cpu.simd).
#include "compute/kernels/registry.h"
namespace warplab::compute {
void registerCpuKernels(KernelRegistry&) {}
}  // namespace warplab::compute
