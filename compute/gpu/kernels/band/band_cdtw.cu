// Host side of the narrow-band cdtw kernel (see band_cdtw.h): picks the instantiation for the
// band's half-width. One thread per pair, so a launch needs thousands of pairs to fill the
// device; the engine's tiles (up to 1024 x 1024 pairs) give that.
// gpu_runtime.h first: hipcc needs its runtime header before the engine's headers.
#include "compute/gpu/runtime/gpu_runtime.h"

#include <array>
#include <utility>

#include "compute/gpu/kernels/band/band_cdtw.h"

namespace warplab::compute::gpu {

namespace {

using LaunchFn = void (*)(bool, bool, SetView, SetView, PairsView, int, gpuStream_t);

template <int... Ws>
constexpr auto table(std::integer_sequence<int, Ws...>) {
    return std::array<LaunchFn, sizeof...(Ws)>{&launchBandWidth<Ws>...};
}

}  // namespace

bool bandKernelApplies(const PackedDevice& rows, const PackedDevice& cols, const Params& params) {
    return params.metric == Metric::Cdtw && rows.dims == 1 && cols.dims == 1 && params.band >= 0 &&
           params.band <= kMaxBandKernelHalfWidth && rows.count > 0 && cols.count > 0 &&
           rows.minLength == rows.maxLength && cols.minLength == cols.maxLength &&
           rows.maxLength == cols.maxLength && rows.maxLength > 0;
}

void launchBandCdtw(const PackedDevice& rows, const PackedDevice& cols, const PairsView& pairs,
                    const Params& params, gpuStream_t s, bool dpx) {
    if (!bandKernelApplies(rows, cols, params))
        throw EngineError(EngineError::Kind::Internal, "band",
                          "the band kernel takes cdtw with band <= 32 on series of one length");
    static constexpr auto launchers = table(std::make_integer_sequence<int, kMaxBandKernelHalfWidth + 1>{});
    launchers[std::size_t(params.band)](params.cost == Cost::Absolute, dpx, view(rows), view(cols), pairs,
                                        rows.maxLength, s);
}

}  // namespace warplab::compute::gpu
