// Which board each GPU device is, for the energy counter of compute/bench/energy_meter.h:
// NVML numbers boards its own way (all of them, in PCI order), the runtime numbers the visible
// devices (CUDA_VISIBLE_DEVICES narrows and reorders them), so a device is named by its PCI
// bus id, which both agree on.
#pragma once
#include <vector>

#include "compute/bench/energy_meter.h"

namespace warplab::compute::gpu {

// The boards of runtime devices `devices`; in a HIP build none, with the reason (NVML is
// NVIDIA's; AMD's counter would come from rocm-smi, which is not read here).
EnergyBoards energyBoardsOf(const std::vector<int>& devices);

// The board of the calling thread's current device.
EnergyBoards currentEnergyBoard();

}  // namespace warplab::compute::gpu
