// One windowed segment's one-sided periodogram through FFTW, shared by welch() and
// spectrogram(): a Hann window (scipy's periodic "hann"), the segment detrended, scaled to
// density (1 / (rate * sum w^2)) or spectrum (1 / (sum w)^2), and every bin but 0 and Nyquist
// doubled. FFTW plans are made once per segment length (planning is not thread-safe in FFTW,
// so it is done under a lock) and executed on the caller's buffers (that is thread-safe).
#pragma once
#include <cstddef>
#include <vector>

#include "compute/spectral/welch.h"

namespace warplab::compute::spectral {

class Periodogram {
public:
    // Throws EngineError(BadParameter) for n == 0 or a rate that is not > 0.
    Periodogram(std::size_t n, double rateHz, Detrend detrend, Scaling scaling);
    ~Periodogram();
    Periodogram(const Periodogram&) = delete;
    Periodogram& operator=(const Periodogram&) = delete;

    std::size_t length() const { return n_; }
    std::size_t bins() const { return n_ / 2 + 1; }
    // Adds (accumulate) or writes the periodogram of x[0..n) into out[0..bins()).
    void compute(const float* x, double* out, bool accumulate);

private:
    std::size_t n_;
    Detrend detrend_;
    double scale_ = 1;
    std::vector<double> window_, buffer_;
    void* spectrum_ = nullptr;  // fftw_complex[bins]
    void* plan_ = nullptr;      // fftw_plan
};

}  // namespace warplab::compute::spectral
