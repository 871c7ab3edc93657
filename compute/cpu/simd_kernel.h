// cpu.simd: dtw, cdtw, sdtw (distance matrices), euclidean and twed with several pairs in the lanes of SIMD registers (fp32),
// for the best instruction set of this CPU. Multivariate pairs go to the scalar reference.
#pragma once
#include "compute/cpu/dtw_lanes.h"
#include "compute/registry/kernel.h"

namespace warplab::compute {

class SimdKernel final : public Kernel {
public:
    explicit SimdKernel(lanes::Isa isa = lanes::bestIsa());
    std::string name() const override { return name_; }
    std::string description() const override;
    Backend backend() const override { return Backend::Cpu; }
    bool supports(Metric m) const override {
        return m != Metric::SoftDtw;
    }
    std::string unavailableReason() const override;
    int priority() const override { return 10; }
    std::size_t preferredTileRows() const override { return 16; }
    std::size_t preferredTileCols() const override { return 64; }
    void computeTile(const TileTask& task) override;

    // The registry holds "cpu.simd" (best instruction set); tests build one per set.
    static SimdKernel named(std::string name, lanes::Isa isa);

private:
    lanes::Isa isa_;
    std::string name_ = "cpu.simd";
};

}  // namespace warplab::compute
