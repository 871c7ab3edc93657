// energyBoardsOf (energy_boards.h): the runtime's PCI bus id of each device.
#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/gpu/bench/energy_boards.h"

#include <string>

namespace warplab::compute::gpu {

EnergyBoards energyBoardsOf(const std::vector<int>& devices) {
    EnergyBoards out;
#if WL_GPU_HIP
    (void)devices;
    out.reason = "HIP: no NVML (AMD)";
#else
    for (int d : devices) {
        char busId[32] = {};
        if (const cudaError_t e = cudaDeviceGetPCIBusId(busId, int(sizeof busId), d); e != cudaSuccess) {
            (void)cudaGetLastError();
            out.boards.clear();
            out.reason = "no PCI bus id for CUDA device " + std::to_string(d) + " (" + cudaGetErrorString(e) + ")";
            return out;
        }
        out.boards.push_back(EnergyBoard{busId, unsigned(d)});
    }
    if (out.boards.empty()) out.reason = "no CUDA device";
    else out.reason.clear();
#endif
    return out;
}

EnergyBoards currentEnergyBoard() {
    int dev = 0;
    if (gpuGetDevice(&dev) != gpuSuccess) {
        (void)gpuGetLastError();
        EnergyBoards none;
        none.reason = "no current " WL_GPU_RUNTIME_NAME " device";
        return none;
    }
    return energyBoardsOf({dev});
}

}  // namespace warplab::compute::gpu
