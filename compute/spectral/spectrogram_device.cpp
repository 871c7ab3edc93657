#include "compute/spectral/spectrogram_device.h"

#include "compute/core/error.h"

namespace warplab::compute::spectral {

Spectrogram spectrogramOn(Backend backend, std::span<const float> x, double rateHz, const SpectrogramOptions& options,
                          long long offset, int device) {
    if (backend == Backend::Cpu) return spectrogram(x, rateHz, options, offset);
    if (backend == Backend::Auto && !gpuSpectrogramUnavailable(device).empty()) return spectrogram(x, rateHz, options, offset);
    return gpuSpectrogram(x, rateHz, options, offset, device);
}

}  // namespace warplab::compute::spectral
