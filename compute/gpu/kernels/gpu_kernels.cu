// The registered GPU kernels: cuda.antidiagonal (fp32), cuda.antidiagonal_fp64 and
// cuda.shuffle (dtw, cdtw, softdtw), cuda.band and cuda.band_dpx (cdtw), cuda.twed and cuda.twed_fp64 (twed),
// cuda.tiled, cuTimeWarp's soft-DTW designs as cuda.softdtw.* and cuTWED's layout as
// cuda.twed.diagonals (hip.* when built as HIP).
// "No device" is reported by unavailableReason().
#include "compute/gpu/runtime/gpu_runtime.h"

#include <memory>
#include <optional>

#include "compute/gpu/runtime/gpu_device.h"
#include "compute/gpu/runtime/matrix_runner.h"
#include "compute/registry/registry.h"

namespace warplab::compute {

namespace {

#if WL_GPU_HIP
constexpr const char* kPrefix = "hip.";
constexpr Backend kBackend = Backend::Hip;
#else
constexpr const char* kPrefix = "cuda.";
constexpr Backend kBackend = Backend::Cuda;
#endif

class GpuMatrixKernel final : public Kernel {
public:
    // only: the design computes more metrics, but this entry is registered for one of them, as
    // a published design's name (cuda.softdtw.tiled, cuTimeWarp's fifth design, is cuda.tiled
    // for softdtw; cuda.twed.diagonals, cuTWED's layout, is cuda.antidiagonal for twed).
    GpuMatrixKernel(std::string suffix, std::string description, gpu::Design design, bool fp64, int priority,
                    std::optional<Metric> only = std::nullopt)
        : name_(std::string(kPrefix) + suffix), description_(std::move(description)), design_(design),
          fp64_(fp64), only_(only), priority_(priority), runner_(design, fp64) {}

    std::string name() const override { return name_; }
    std::string description() const override { return description_; }
    Backend backend() const override { return kBackend; }
    bool supports(Metric m) const override {
        if (only_) return m == *only_;
        if (isSoftDtwDesign(design_)) return m == Metric::SoftDtw;
        if (design_ == gpu::Design::Shuffle) return m == Metric::Dtw || m == Metric::Cdtw || m == Metric::SoftDtw;
        if (design_ == gpu::Design::ShuffleDpx || design_ == gpu::Design::ShuffleWave)
            return m == Metric::Dtw || m == Metric::Cdtw;
        if (design_ == gpu::Design::Band || design_ == gpu::Design::BandDpx) return m == Metric::Cdtw;
        if (design_ == gpu::Design::TwedWarp) return m == Metric::Twed;
        if (design_ == gpu::Design::Tiled)
            return m == Metric::Dtw || m == Metric::Cdtw || m == Metric::SoftDtw || m == Metric::Twed;
        return m != Metric::Sdtw;
    }
    std::string unavailableReason() const override { return gpu::unavailableReason(); }
    int priority() const override { return priority_; }
    // One tile is one launch of about a million pairs: enough to fill the device.
    std::size_t preferredTileRows() const override { return 1024; }
    std::size_t preferredTileCols() const override { return 1024; }
    // One tile per lane of the runner: uploads, kernels and downloads of different tiles overlap.
    // Several devices: the engine multiplies this by their number (RunOptions::devices).
    int tilesInFlight() const override { return gpu::tileStreamLimit(); }
    void computeTile(const TileTask& task) override { runner_.run(task); }
    gpu::Design design() const { return design_; }
    bool fp64() const { return fp64_; }

private:
    static bool isSoftDtwDesign(gpu::Design d) {
        return d == gpu::Design::SoftNaive || d == gpu::Design::SoftDiagonal || d == gpu::Design::SoftStencil ||
               d == gpu::Design::SoftBanded;
    }

    std::string name_, description_;
    gpu::Design design_;
    bool fp64_;
    std::optional<Metric> only_;
    int priority_;
    gpu::MatrixRunner runner_;
};

}  // namespace

bool gpu::registeredDesign(const Kernel& kernel, Design& design, bool& fp64) {
    const auto* k = dynamic_cast<const GpuMatrixKernel*>(&kernel);
    if (!k) return false;
    design = k->design();
    fp64 = k->fp64();
    return true;
}

void registerGpuKernels(KernelRegistry& registry) {
    registry.add(std::make_unique<GpuMatrixKernel>(
        "antidiagonal", "one block per pair, threads along anti-diagonals, fp32 (all matrix metrics)",
        gpu::Design::Antidiagonal, false, 10));
    registry.add(std::make_unique<GpuMatrixKernel>(
        "antidiagonal_fp64", "one block per pair, threads along anti-diagonals, fp64 (all matrix metrics)",
        gpu::Design::Antidiagonal, true, 5));
    registry.add(std::make_unique<GpuMatrixKernel>(
        "shuffle", "register-tiled rows per lane, warp shuffles, band-aware, fp32 (dtw, cdtw, softdtw)",
        gpu::Design::Shuffle, false, 20));
    // Full DTW on series of one length (<= 1024 rows): two columns per step, whole rounds of pairs
    // per group; other inputs go where cuda.band_dpx / cuda.band would send them. Above shuffle
    // (the engine's default for dtw, about 1.5 times shuffle's throughput), below band_dpx (cdtw: the same kernels either way).
#if !WL_GPU_HIP  // DPX is Hopper's: on AMD this kernel would be shuffle_wave under another name
    registry.add(std::make_unique<GpuMatrixKernel>(
        "shuffle_dpx", "dtw, rows of one length <= 1024: lanes of 32 rows, two columns per step, DPX minimum (else as band_dpx)",
        gpu::Design::ShuffleDpx, false, 22));
#endif
    registry.add(std::make_unique<GpuMatrixKernel>(
        "shuffle_wave", "as shuffle_dpx with two fminf per cell instead of DPX (else as band)",
        gpu::Design::ShuffleWave, false, 21));
    // Above shuffle, so that the engine's default GPU kernel for cdtw is one of these two (the DPX
    // one, about 11 % faster at band 16, length 1024); bands over
    // 32, unequal lengths and several channels go to the shuffle kernel inside them.
    registry.add(std::make_unique<GpuMatrixKernel>(
        "band", "cdtw, band <= 32, one length: one thread per pair, the band in registers (else as shuffle)",
        gpu::Design::Band, false, 29));
#if !WL_GPU_HIP  // as above: on AMD the same code as band
    registry.add(std::make_unique<GpuMatrixKernel>(
        "band_dpx", "as band, the three-input minimum as one Hopper DPX integer operation (sm_90)",
        gpu::Design::BandDpx, false, 30));
#endif
    // Above the anti-diagonal kernels for twed (the engine's default); rows of several lengths,
    // rows over 1024 samples and several channels go to the anti-diagonal kernel inside it.
    registry.add(std::make_unique<GpuMatrixKernel>(
        "twed", "twed, rows of one length <= 1024: lanes of 16-32 rows, warp shuffles, fp32 (else anti-diagonal)",
        gpu::Design::TwedWarp, false, 25));
    registry.add(std::make_unique<GpuMatrixKernel>(
        "twed_fp64", "twed as cuda.twed, accumulated in fp64 (else anti-diagonal fp64)",
        gpu::Design::TwedWarp, true, 8));
    // For very long series (1e5 samples and more), chosen by name: a short pair is one tile and
    // runs no faster than on the anti-diagonal kernel, so it is never the engine's default.
    registry.add(std::make_unique<GpuMatrixKernel>(
        "tiled", "long series: 512 x 512 tiles, one per 32 lanes, one launch per tile diagonal, fp32 "
                 "(dtw, cdtw, softdtw, twed; several channels: anti-diagonal)",
        gpu::Design::Tiled, false, 1));
    // cuTimeWarp's soft-DTW designs (softdtw_designs.h), for comparing layouts side by side in
    // the Kernels view and `bench`; chosen by name only, so below every kernel above.
    registry.add(std::make_unique<GpuMatrixKernel>(
        "softdtw.naive", "cuTimeWarp's naive soft-DTW: one thread per pair, whole R matrix row-major in global memory, fp32",
        gpu::Design::SoftNaive, false, -2));
    registry.add(std::make_unique<GpuMatrixKernel>(
        "softdtw.diagonal", "cuTimeWarp's diagonal-major soft-DTW: one block per pair, R anti-diagonals contiguous in global memory, fp32",
        gpu::Design::SoftDiagonal, false, -1));
    registry.add(std::make_unique<GpuMatrixKernel>(
        "softdtw.stencil", "cuTimeWarp's shared-memory stencil soft-DTW: 3 anti-diagonals and both series in shared memory, fp32 "
                           "(too long for 48 KiB: as softdtw.diagonal)",
        gpu::Design::SoftStencil, false, 0));
    registry.add(std::make_unique<GpuMatrixKernel>(
        "softdtw.banded", "cuTimeWarp's Sakoe-Chiba banded soft-DTW: softdtw.stencil over cells within --band only, "
                          "outside +inf (unbanded soft-DTW only if band >= length)",
        gpu::Design::SoftBanded, false, -4));
    registry.add(std::make_unique<GpuMatrixKernel>(
        "softdtw.tiled", "cuTimeWarp's tiled wavefront for long series: tiled (512 x 512 tiles, one launch per tile diagonal) for softdtw, fp32",
        gpu::Design::Tiled, false, -3, Metric::SoftDtw));
    // cuTWED's layout (Tumanov et al.), the seed of the anti-diagonal family, under its name.
    registry.add(std::make_unique<GpuMatrixKernel>(
        "twed.diagonals", "cuTWED's layout: one block per pair, three rotating anti-diagonals in linear memory, fp32 "
                          "(the antidiagonal kernel, for twed)",
        gpu::Design::Antidiagonal, false, -3, Metric::Twed));
}

}  // namespace warplab::compute
