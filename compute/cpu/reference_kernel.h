// cpu.reference: the scalar reference (compute/cpu/reference.h) behind the Kernel interface.
#pragma once
#include "compute/registry/kernel.h"

namespace warplab::compute {

class ReferenceKernel final : public Kernel {
public:
    std::string name() const override { return "cpu.reference"; }
    std::string description() const override {
        return "Scalar reference in double, one pair at a time (all metrics)";
    }
    Backend backend() const override { return Backend::Cpu; }
    bool supports(Metric) const override { return true; }
    int priority() const override { return 0; }
    std::size_t preferredTileRows() const override { return 4; }
    std::size_t preferredTileCols() const override { return 4; }
    void computeTile(const TileTask& task) override;
};

}  // namespace warplab::compute
