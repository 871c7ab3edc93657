#include "compute/spectral/spectrogram.h"

#include "compute/core/error.h"

namespace warplab::compute::spectral {

struct SpectrogramCache::State {};

Spectrogram spectrogram(std::span<const float>, double, const SpectrogramOptions&, long long) {
    throw EngineError(EngineError::Kind::Internal, "spectrogram", "not implemented yet");
}
SpectrogramCache::SpectrogramCache(std::size_t) : state_(std::make_unique<State>()) {}
SpectrogramCache::~SpectrogramCache() = default;
Spectrogram SpectrogramCache::window(const std::string&, double, const SpectrogramOptions&, long long, long long,
                                     long long, const Reader&) {
    throw EngineError(EngineError::Kind::Internal, "spectrogram", "not implemented yet");
}
void SpectrogramCache::forget(const std::string&) {}
void SpectrogramCache::clear() {}
std::size_t SpectrogramCache::bytes() const { return 0; }
std::size_t SpectrogramCache::blocksComputed() const { return 0; }

}  // namespace warplab::compute::spectral
