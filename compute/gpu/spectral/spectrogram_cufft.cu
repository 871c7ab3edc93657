// The spectrogram on the GPU (compute/spectral/spectrogram_device.h): the channel uploaded once,
// then chunks of frames: one block per frame removes the frame's mean (or line) and applies the
// periodic Hann window in double, cuFFT transforms the chunk (batched D2Z), and one thread per
// bin scales |X|^2 and doubles every bin but 0 and Nyquist, rounding to float32 as
// Periodogram::compute does. HIP: no FFT library in the distribution, so unavailable here.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "compute/gpu/runtime/gpu_runtime.h"
#include "compute/spectral/spectrogram_device.h"

#if WL_GPU_CUDA
#include <cufft.h>
#include <dlfcn.h>
#endif

namespace warplab::compute::spectral {

#if WL_GPU_HIP

std::string gpuSpectrogramUnavailable(int) {
    return "the HIP build has no FFT library (hipFFT is not packaged by the distribution); the spectrogram runs on "
           "the CPU (FFTW)";
}

Spectrogram gpuSpectrogram(std::span<const float>, double, const SpectrogramOptions&, long long, int device) {
    throw EngineError(EngineError::Kind::Device, "gpu", gpuSpectrogramUnavailable(device));
}

#else

namespace {

constexpr int kThreads = 256;

long long ceilDiv(long long a, long long b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
long long floorDiv(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// The index of the first sample that is not finite, or `n` (atomicMin over the channel).
__global__ void firstNotFinite(const float* x, unsigned long long n, unsigned long long* first) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        if (!isfinite(x[i])) atomicMin(first, i);
}

// Block sum of one double per thread (blockDim.x == kThreads).
__device__ double blockSum(double v, double* shared) {
    shared[threadIdx.x] = v;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
        __syncthreads();
    }
    const double total = shared[0];
    __syncthreads();
    return total;
}

// Frame f of the chunk (f < count; beyond it zeros): samples x[start .. start + n) with
// start = firstSample + f * hop, detrended (0 none, 1 constant, 2 linear) and windowed.
__global__ void windowFrames(const float* x, long long firstSample, long long hop, int n, int count, int detrend,
                             const double* window, double* frames) {
    __shared__ double shared[kThreads];
    const int f = blockIdx.x;
    double* out = frames + (long long)f * n;
    if (f >= count) {
        for (int i = threadIdx.x; i < n; i += kThreads) out[i] = 0;
        return;
    }
    const float* in = x + firstSample + (long long)f * hop;
    double mean = 0, slope = 0;
    if (detrend != 0) {
        double s = 0;
        for (int i = threadIdx.x; i < n; i += kThreads) s += double(in[i]);
        mean = blockSum(s, shared) / double(n);
        if (detrend == 2 && n > 1) {  // least-squares line over i = 0..n-1, as scipy's detrend "linear"
            const double tMean = double(n - 1) / 2;
            double sxy = 0, sxx = 0;
            for (int i = threadIdx.x; i < n; i += kThreads) {
                const double t = double(i) - tMean;
                sxy += t * (double(in[i]) - mean);
                sxx += t * t;
            }
            sxy = blockSum(sxy, shared);
            sxx = blockSum(sxx, shared);
            slope = sxy / sxx;
            mean -= slope * tMean;
        } else if (detrend == 2) {
            mean = double(in[0]);
        }
    }
    for (int i = threadIdx.x; i < n; i += kThreads) out[i] = (double(in[i]) - (mean + slope * double(i))) * window[i];
}

// |X|^2 * scale, doubled but for bin 0 and (even n) Nyquist, as float.
__global__ void framePower(const cufftDoubleComplex* spectra, long long cells, int bins, bool evenN, double scale,
                           float* power) {
    for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells; c += (long long)gridDim.x * blockDim.x) {
        const int k = int(c % bins);
        const cufftDoubleComplex z = spectra[c];
        double p = (z.x * z.x + z.y * z.y) * scale;
        if (!(k == 0 || (evenN && k == bins - 1))) p *= 2;
        power[c] = float(p);
    }
}

// cuFFT is opened when the first spectrogram asks for it rather than linked: loaded and set up
// at the start of every program that links the engine, its library (some 280 MB) cost each
// start about 3 ms of CPU, for a view most runs never draw; and a program whose machine lacks
// it still starts, its spectrogram on the CPU. WARPLAB_CUFFT_DIR, the toolkit's library folder
// at build time, is tried after the loader's own search.
struct Cufft {
    decltype(&cufftPlanMany) planMany = nullptr;
    decltype(&cufftSetStream) setStream = nullptr;
    decltype(&cufftExecD2Z) execD2Z = nullptr;
    decltype(&cufftDestroy) destroy = nullptr;
    std::string why;  // why it cannot be used; empty when it can
};

const Cufft& cufft() {
    static const Cufft c = [] {
        Cufft r;
        const std::string name = "libcufft.so." + std::to_string(CUFFT_VER_MAJOR);
        void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            const char* e = dlerror();
            r.why = "cuFFT cannot be loaded (" + (e ? std::string(e) : name) + ")";
#ifdef WARPLAB_CUFFT_DIR
            lib = dlopen((WARPLAB_CUFFT_DIR "/" + name).c_str(), RTLD_NOW | RTLD_LOCAL);
#endif
            if (!lib) return r;
            r.why.clear();
        }
        r.planMany = reinterpret_cast<decltype(r.planMany)>(dlsym(lib, "cufftPlanMany"));
        r.setStream = reinterpret_cast<decltype(r.setStream)>(dlsym(lib, "cufftSetStream"));
        r.execD2Z = reinterpret_cast<decltype(r.execD2Z)>(dlsym(lib, "cufftExecD2Z"));
        r.destroy = reinterpret_cast<decltype(r.destroy)>(dlsym(lib, "cufftDestroy"));
        if (!r.planMany || !r.setStream || !r.execD2Z || !r.destroy) r.why = name + " lacks cufftPlanMany, cufftSetStream, cufftExecD2Z or cufftDestroy";
        return r;
    }();
    return c;
}

void checkFft(cufftResult r, const char* what) {
    if (r != CUFFT_SUCCESS)
        throw EngineError(EngineError::Kind::Device, "gpu", std::string("cuFFT ") + what + " failed (cufftResult " + std::to_string(int(r)) + ")");
}

struct Plan {
    cufftHandle h = 0;
    bool made = false;
    ~Plan() {
        if (made) cufft().destroy(h);
    }
};

struct Stream {
    gpuStream_t s = nullptr;
    Stream() { gpu::check(gpuStreamCreate(&s), "stream"); }
    ~Stream() { (void)gpuStreamDestroy(s); }
};

}  // namespace

std::string gpuSpectrogramUnavailable(int device) {
    int count = 0;
    if (gpuGetDeviceCount(&count) != gpuSuccess || count == 0) {
        (void)gpuGetLastError();
        return "no CUDA device";
    }
    if (device < 0 || device >= count) return "no CUDA device " + std::to_string(device) + " (" + std::to_string(count) + " present)";
    return cufft().why;
}

Spectrogram gpuSpectrogram(std::span<const float> x, double rateHz, const SpectrogramOptions& options, long long offset,
                           int device) {
    if (options.segmentLength == 0) throw EngineError(EngineError::Kind::BadParameter, "nperseg", "must be at least 1");
    if (options.hop == 0 || options.hop > options.segmentLength)
        throw EngineError(EngineError::Kind::BadParameter, "hop",
                          "must be 1..nperseg (" + std::to_string(options.segmentLength) + "), got " + std::to_string(options.hop));
    if (!(rateHz > 0) || !std::isfinite(rateHz))
        throw EngineError(EngineError::Kind::BadParameter, "rate", "must be > 0 Hz for a spectrum, got " + std::to_string(rateHz));
    if (const std::string why = gpuSpectrogramUnavailable(device); !why.empty())
        throw EngineError(EngineError::Kind::Device, "gpu", why);
    const int n = int(options.segmentLength);
    Spectrogram s;
    s.bins = options.segmentLength / 2 + 1;
    s.segmentLength = options.segmentLength;
    s.hop = options.hop;
    s.rateHz = rateHz;
    const long long hop = (long long)options.hop;
    s.firstFrame = ceilDiv(offset, hop);
    const long long last = floorDiv(offset + (long long)x.size() - n, hop);
    gpu::check(gpuSetDevice(device), "select device");
    Stream stream;
    gpu::DeviceBuffer<float> samples;
    samples.upload(x.data(), x.size(), stream.s);
    // Refused as on the CPU: the first sample that is not finite, by its index.
    gpu::DeviceBuffer<unsigned long long> first(1);
    const unsigned long long none = x.size();
    first.upload(&none, 1, stream.s);
    if (!x.empty()) {
        firstNotFinite<<<int(std::min<std::size_t>(4096, (x.size() + kThreads - 1) / kThreads)), kThreads, 0, stream.s>>>(
            samples.get(), x.size(), first.get());
        gpu::checkLaunch("spectrogram finite check");
    }
    unsigned long long bad = none;
    first.download(&bad, 1, stream.s);
    gpu::check(gpuStreamSynchronize(stream.s), "spectrogram finite check");
    if (bad < none) throw EngineError(EngineError::Kind::BadInput, "x", "sample " + std::to_string(bad) + " is not a finite number");
    if (last < s.firstFrame) return s;
    s.frames = std::size_t(last - s.firstFrame + 1);
    s.power.resize(s.frames * s.bins);

    // The window and scale of Periodogram (periodic Hann; hann(1) = [1]).
    std::vector<double> window(static_cast<std::size_t>(n));
    double sum = 0, sumSq = 0;
    for (int i = 0; i < n; ++i) {
        window[std::size_t(i)] = 0.5 - 0.5 * std::cos(2 * M_PI * double(i) / double(n));
        sum += window[std::size_t(i)];
        sumSq += window[std::size_t(i)] * window[std::size_t(i)];
    }
    if (n == 1) window[0] = sum = sumSq = 1;
    const double scale = options.scaling == Scaling::Density ? 1.0 / (rateHz * sumSq) : 1.0 / (sum * sum);
    gpu::DeviceBuffer<double> win;
    win.upload(window.data(), window.size(), stream.s);

    // Chunks of frames within about a quarter of the free memory (at most 1 GiB): the windowed
    // frames, their spectra and the float power of each.
    const std::size_t perFrame = std::size_t(n) * sizeof(double) + s.bins * (sizeof(cufftDoubleComplex) + sizeof(float));
    const std::size_t budget = std::min<std::size_t>(gpu::memInfo().first / 4, std::size_t(1) << 30);
    const int chunk = int(std::clamp<std::size_t>(budget / perFrame, 1, std::min<std::size_t>(s.frames, 1 << 20)));
    gpu::DeviceBuffer<double> frames(std::size_t(chunk) * std::size_t(n));
    gpu::DeviceBuffer<cufftDoubleComplex> spectra(std::size_t(chunk) * s.bins);
    gpu::DeviceBuffer<float> power(std::size_t(chunk) * s.bins);
    Plan plan;
    int length = n, inEmbed = n, outEmbed = int(s.bins);
    const Cufft& fft = cufft();
    checkFft(fft.planMany(&plan.h, 1, &length, &inEmbed, 1, n, &outEmbed, 1, int(s.bins), CUFFT_D2Z, chunk), "plan");
    plan.made = true;
    checkFft(fft.setStream(plan.h, stream.s), "stream");
    const int detrend = options.detrend == Detrend::None ? 0 : options.detrend == Detrend::Constant ? 1 : 2;
    for (std::size_t f0 = 0; f0 < s.frames; f0 += std::size_t(chunk)) {
        const int count = int(std::min<std::size_t>(std::size_t(chunk), s.frames - f0));
        const long long firstSample = (s.firstFrame + (long long)f0) * hop - offset;
        windowFrames<<<chunk, kThreads, 0, stream.s>>>(samples.get(), firstSample, hop, n, count, detrend, win.get(), frames.get());
        gpu::checkLaunch("spectrogram frames");
        checkFft(fft.execD2Z(plan.h, frames.get(), spectra.get()), "transform");
        const long long cells = (long long)count * (long long)s.bins;
        framePower<<<int(std::min<long long>(65535, (cells + kThreads - 1) / kThreads)), kThreads, 0, stream.s>>>(
            spectra.get(), cells, int(s.bins), n % 2 == 0, scale, power.get());
        gpu::checkLaunch("spectrogram power");
        power.download(s.power.data() + f0 * s.bins, std::size_t(cells), stream.s);
        gpu::check(gpuStreamSynchronize(stream.s), "spectrogram");
    }
    return s;
}

#endif

}  // namespace warplab::compute::spectral
