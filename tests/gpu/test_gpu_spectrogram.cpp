// The cuFFT spectrogram (compute/spectral/spectrogram_device.h) against the FFTW one, frame for
// frame and bin for bin: |gpu - cpu| <= 1e-6 |cpu| + 1e-10 * (the frame's largest bin). Both
// compute in double and round to float32, so most bins agree to the last float bit; the rest
// differ by the transforms' rounding. Real EEG (the Bonn segments joined), a random walk an hour
// long at 256 Hz, every detrend and scaling, an odd segment length, an offset grid, hop 1 over
// enough frames for several chunks, and a sample that is not finite (refused by its index).
#include <cstdio>
#include <random>
#include <string>

#include "compute/core/error.h"
#include "compute/spectral/spectrogram.h"
#include "compute/spectral/spectrogram_device.h"
#include "gpu_test_util.h"

using namespace warplab;
using namespace warplab::gputest;
namespace sp = compute::spectral;

namespace {

void compare(const std::string& what, const std::vector<float>& x, double rate, const sp::SpectrogramOptions& o,
             long long offset = 0) {
    const sp::Spectrogram cpu = sp::spectrogram(x, rate, o, offset);
    const sp::Spectrogram gpu = sp::gpuSpectrogram(x, rate, o, offset);
    bool ok = cpu.frames == gpu.frames && cpu.bins == gpu.bins && cpu.firstFrame == gpu.firstFrame && cpu.frames > 0;
    double worst = 0;
    std::size_t differing = 0;
    for (std::size_t f = 0; ok && f < cpu.frames; ++f) {
        double top = 0;
        for (std::size_t b = 0; b < cpu.bins; ++b) top = std::max(top, double(cpu.at(f, b)));
        for (std::size_t b = 0; b < cpu.bins; ++b) {
            const double c = cpu.at(f, b), g = gpu.at(f, b);
            if (c != g) ++differing;
            const double err = std::fabs(g - c);
            if (!(err <= 1e-6 * std::fabs(c) + 1e-10 * top)) ok = false;
            if (c > 1e-10 * top) worst = std::max(worst, err / std::fabs(c));
        }
    }
    report(ok, what + " (" + std::to_string(cpu.frames) + " frames, " + std::to_string(differing) + " bins not bit-equal)",
           worst);
}

}  // namespace

int main() {
    if (const std::string why = sp::gpuSpectrogramUnavailable(); !why.empty()) {
        std::printf("SKIP: GPU spectrogram tests not run: %s\n", why.c_str());
        return 77;
    }
    const std::vector<float> bonn = bonnJoined(WARPLAB_TEST_DATA, {"Z", "S"});
    if (!bonn.empty()) {
        compare("Bonn Z+S joined, 173.61 Hz, nperseg 256 hop 128", bonn, 173.61, {});
        compare("Bonn, nperseg 512 hop 64, linear, spectrum", bonn, 173.61,
                {512, 64, sp::Detrend::Linear, sp::Scaling::Spectrum});
        compare("Bonn, nperseg 255 (odd) hop 100, no detrend", bonn, 173.61, {255, 100, sp::Detrend::None, sp::Scaling::Density});
    } else {
        std::printf("note: the Bonn segments are missing under %s; real-EEG cases not run\n", WARPLAB_TEST_DATA);
    }
    std::mt19937 rng(34);
    const std::vector<float> hour = randomSeries(rng, 3600 * 256).values;
    compare("random walk 1 h at 256 Hz", hour, 256, {});
    compare("random walk, grid offset 1000 samples", hour, 256, {256, 128, sp::Detrend::Constant, sp::Scaling::Density}, 1000);
    const std::vector<float> part(hour.begin(), hour.begin() + 300000);
    compare("hop 1 (several chunks of frames)", part, 256, {256, 1, sp::Detrend::Constant, sp::Scaling::Density});
    compare("nperseg 1", std::vector<float>(hour.begin(), hour.begin() + 1000), 256, {1, 1, sp::Detrend::None, sp::Scaling::Density});
    const sp::Spectrogram none = sp::gpuSpectrogram(std::vector<float>(100, 1.f), 256);
    report(none.frames == 0 && none.power.empty() && none.bins == 129, "shorter than a segment: no frame", 0);
    // A sample that is not finite is refused by its index, as on the CPU.
    std::vector<float> bad(hour.begin(), hour.begin() + 50000);
    bad[12345] = std::nanf("");
    bool refused = false;
    try {
        sp::gpuSpectrogram(bad, 256);
    } catch (const compute::EngineError& e) {
        refused = e.kind() == compute::EngineError::Kind::BadInput && std::string(e.what()).find("sample 12345") != std::string::npos;
    }
    report(refused, "a NaN at sample 12345 refused by its index", 0);
    return finish();
}
