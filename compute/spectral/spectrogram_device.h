// The spectrogram of a whole channel on a GPU, for full-recording spectrograms: the frames of
// spectrogram() (spectrogram.h), each detrended and Hann-windowed on the device and transformed
// by cuFFT in double precision (batched real-to-complex, as FFTW does it on the CPU), the power
// rounded to float32 as on the CPU. The FFTW path stays the reference: tests/gpu checks this one
// against it. The view under the traces keeps the CPU cache (SpectrogramCache), whose blocks are
// 32 frames. A HIP build has no FFT library (the distribution packages no hipFFT): there the
// GPU spectrogram is unavailable and spectrogramOn() runs FFTW.
#pragma once
#include <span>
#include <string>

#include "compute/core/job.h"
#include "compute/spectral/spectrogram.h"

namespace warplab::compute::spectral {

// "" when gpuSpectrogram can run on `device`, else why not (no GPU library in this build, no FFT
// library in a HIP build, no such device).
std::string gpuSpectrogramUnavailable(int device = 0);

// The same frames as spectrogram(x, rateHz, options, offset), computed on `device`. Throws as
// spectrogram() does (BadParameter, BadInput naming the first sample that is not finite) and
// EngineError(Device) when the device cannot run it (gpuSpectrogramUnavailable).
Spectrogram gpuSpectrogram(std::span<const float> x, double rateHz, const SpectrogramOptions& options = {},
                           long long offset = 0, int device = 0);

// By backend, as other work chooses: Cpu runs FFTW; Cuda and Hip the GPU (throwing when it cannot
// run there); Auto the GPU when one can run it, else FFTW.
Spectrogram spectrogramOn(Backend backend, std::span<const float> x, double rateHz, const SpectrogramOptions& options = {},
                          long long offset = 0, int device = 0);

}  // namespace warplab::compute::spectral
