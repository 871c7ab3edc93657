#include "compute/spectral/periodogram.h"

#include <fftw3.h>

#include <cmath>
#include <mutex>
#include <string>

#include "compute/core/error.h"

namespace warplab::compute::spectral {

namespace {
std::mutex& planLock() {
    static std::mutex m;
    return m;
}
}  // namespace

Periodogram::Periodogram(std::size_t n, double rateHz, Detrend detrend, Scaling scaling) : n_(n), detrend_(detrend) {
    if (n == 0) throw EngineError(EngineError::Kind::BadParameter, "nperseg", "a segment needs at least 1 sample");
    if (!(rateHz > 0) || !std::isfinite(rateHz))
        throw EngineError(EngineError::Kind::BadParameter, "rate", "must be > 0 Hz for a spectrum, got " + std::to_string(rateHz));
    window_.resize(n);
    double sum = 0, sumSq = 0;
    for (std::size_t i = 0; i < n; ++i) {
        window_[i] = 0.5 - 0.5 * std::cos(2 * M_PI * double(i) / double(n));
        sum += window_[i];
        sumSq += window_[i] * window_[i];
    }
    if (n == 1) {  // scipy's hann(1) is [1]
        window_[0] = 1;
        sum = sumSq = 1;
    }
    scale_ = scaling == Scaling::Density ? 1.0 / (rateHz * sumSq) : 1.0 / (sum * sum);
    buffer_.resize(n);
    spectrum_ = fftw_malloc(sizeof(fftw_complex) * bins());
    std::lock_guard lock(planLock());
    plan_ = fftw_plan_dft_r2c_1d(int(n), buffer_.data(), static_cast<fftw_complex*>(spectrum_), FFTW_ESTIMATE);
    if (!plan_) throw EngineError(EngineError::Kind::Internal, "fft", "FFTW made no plan for " + std::to_string(n) + " samples");
}

Periodogram::~Periodogram() {
    std::lock_guard lock(planLock());
    if (plan_) fftw_destroy_plan(static_cast<fftw_plan>(plan_));
    fftw_free(spectrum_);
}

void Periodogram::compute(const float* x, double* out, bool accumulate) {
    const std::size_t n = n_;
    double mean = 0, slope = 0;
    if (detrend_ == Detrend::Constant) {
        for (std::size_t i = 0; i < n; ++i) mean += x[i];
        mean /= double(n);
    } else if (detrend_ == Detrend::Linear && n > 1) {
        // Least-squares line over i = 0..n-1 (scipy.signal.detrend "linear").
        const double tMean = double(n - 1) / 2;
        double sxy = 0, sxx = 0;
        for (std::size_t i = 0; i < n; ++i) mean += x[i];
        mean /= double(n);
        for (std::size_t i = 0; i < n; ++i) {
            const double t = double(i) - tMean;
            sxy += t * (double(x[i]) - mean);
            sxx += t * t;
        }
        slope = sxy / sxx;
        mean -= slope * tMean;  // intercept at i = 0
    } else if (detrend_ == Detrend::Linear) {
        mean = x[0];
    }
    for (std::size_t i = 0; i < n; ++i) buffer_[i] = (double(x[i]) - (mean + slope * double(i))) * window_[i];
    fftw_execute(static_cast<fftw_plan>(plan_));
    const auto* c = static_cast<const fftw_complex*>(spectrum_);
    const std::size_t nb = bins();
    for (std::size_t k = 0; k < nb; ++k) {
        double p = (c[k][0] * c[k][0] + c[k][1] * c[k][1]) * scale_;
        const bool single = k == 0 || (n % 2 == 0 && k == nb - 1);
        if (!single) p *= 2;
        out[k] = accumulate ? out[k] + p : p;
    }
}

}  // namespace warplab::compute::spectral
