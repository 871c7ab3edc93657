// A build without a GPU library: the GPU spectrogram is never available (spectrogramOn runs FFTW).
#include "compute/core/error.h"
#include "compute/spectral/spectrogram_device.h"

namespace warplab::compute::spectral {

std::string gpuSpectrogramUnavailable(int) { return "no GPU backend in this build"; }

Spectrogram gpuSpectrogram(std::span<const float>, double, const SpectrogramOptions&, long long, int) {
    throw EngineError(EngineError::Kind::Device, "gpu", "no GPU backend in this build");
}

}  // namespace warplab::compute::spectral
