#include "compute/spectral/spectrogram.h"

#include <algorithm>
#include <cmath>
#include <list>
#include <map>
#include <mutex>
#include <tuple>

#include "compute/core/error.h"
#include "compute/spectral/periodogram.h"

namespace warplab::compute::spectral {

namespace {

// Frames per cached block: 32 frames at hop 128 are 16 s at 256 Hz, so a 60 s window touches
// four or five blocks, a scroll of a second usually none new, and a jump computes little more
// than it shows.
constexpr long long kBlockFrames = 32;

long long ceilDiv(long long a, long long b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
long long floorDiv(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

void checkOptions(const SpectrogramOptions& o) {
    if (o.segmentLength == 0) throw EngineError(EngineError::Kind::BadParameter, "nperseg", "must be at least 1");
    if (o.hop == 0 || o.hop > o.segmentLength)
        throw EngineError(EngineError::Kind::BadParameter, "hop",
                          "must be 1..nperseg (" + std::to_string(o.segmentLength) + "), got " + std::to_string(o.hop));
}

// Frames [k0, k1] of the grid from samples x, where x[0] is sample `offset`.
void computeFrames(Periodogram& pg, const float* x, long long offset, long long k0, long long k1, std::size_t hop,
                   float* out) {
    std::vector<double> row(pg.bins());
    for (long long k = k0; k <= k1; ++k) {
        pg.compute(x + (k * (long long)hop - offset), row.data(), false);
        float* dst = out + std::size_t(k - k0) * pg.bins();
        for (std::size_t b = 0; b < row.size(); ++b) dst[b] = float(row[b]);
    }
}

}  // namespace

Spectrogram spectrogram(std::span<const float> x, double rateHz, const SpectrogramOptions& options, long long offset) {
    checkOptions(options);
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!std::isfinite(x[i]))
            throw EngineError(EngineError::Kind::BadInput, "x", "sample " + std::to_string(i) + " is not a finite number");
    Periodogram pg(options.segmentLength, rateHz, options.detrend, options.scaling);
    Spectrogram s;
    s.bins = pg.bins();
    s.segmentLength = options.segmentLength;
    s.hop = options.hop;
    s.rateHz = rateHz;
    const long long hop = (long long)options.hop, n = (long long)options.segmentLength;
    const long long end = offset + (long long)x.size();
    s.firstFrame = ceilDiv(offset, hop);
    const long long last = floorDiv(end - n, hop);
    if (last < s.firstFrame) return s;
    s.frames = std::size_t(last - s.firstFrame + 1);
    s.power.resize(s.frames * s.bins);
    computeFrames(pg, x.data(), offset, s.firstFrame, last, options.hop, s.power.data());
    return s;
}

struct SpectrogramCache::State {
    using Key = std::tuple<std::string, double, std::size_t, std::size_t, int, int, long long>;  // channel, rate, options, block
    struct Block {
        std::vector<float> power;  // frames x bins
        std::size_t frames = 0;
        std::list<Key>::iterator use;
    };
    mutable std::mutex lock;
    std::size_t maxBytes = 0, bytes = 0, computed = 0;
    std::map<Key, Block> blocks;
    std::list<Key> recent;  // most recently used first

    void evict() {
        while (bytes > maxBytes && !recent.empty()) {
            auto it = blocks.find(recent.back());
            bytes -= it->second.power.size() * sizeof(float);
            blocks.erase(it);
            recent.pop_back();
        }
    }
};

SpectrogramCache::SpectrogramCache(std::size_t maxBytes) : state_(std::make_unique<State>()) { state_->maxBytes = maxBytes; }
SpectrogramCache::~SpectrogramCache() = default;

Spectrogram SpectrogramCache::window(const std::string& channel, double rateHz, const SpectrogramOptions& options,
                                     long long startSample, long long endSample, long long channelSamples,
                                     const Reader& read) {
    checkOptions(options);
    Periodogram pg(options.segmentLength, rateHz, options.detrend, options.scaling);
    const long long hop = (long long)options.hop, n = (long long)options.segmentLength;
    startSample = std::max(0LL, startSample);
    endSample = std::min(endSample, channelSamples);
    Spectrogram s;
    s.bins = pg.bins();
    s.segmentLength = options.segmentLength;
    s.hop = options.hop;
    s.rateHz = rateHz;
    s.firstFrame = ceilDiv(startSample, hop);
    const long long last = floorDiv(endSample - n, hop);
    if (last < s.firstFrame) return s;
    s.frames = std::size_t(last - s.firstFrame + 1);
    s.power.resize(s.frames * s.bins);
    const long long lastInChannel = floorDiv(channelSamples - n, hop);  // the channel's last whole frame

    auto keyOf = [&](long long block) {
        return State::Key{channel, rateHz, options.segmentLength, options.hop, int(options.detrend), int(options.scaling), block};
    };
    for (long long block = floorDiv(s.firstFrame, kBlockFrames); block <= floorDiv(last, kBlockFrames); ++block) {
        const State::Key key = keyOf(block);
        const long long b0 = block * kBlockFrames, b1 = std::min(b0 + kBlockFrames - 1, lastInChannel);
        std::vector<float> fresh;
        const std::vector<float>* power = nullptr;
        {
            std::lock_guard g(state_->lock);
            if (auto it = state_->blocks.find(key); it != state_->blocks.end()) {
                state_->recent.splice(state_->recent.begin(), state_->recent, it->second.use);
                fresh = it->second.power;  // a copy: another thread may evict the block meanwhile
                power = &fresh;
            }
        }
        if (!power) {  // read and compute outside the lock
            const long long from = b0 * hop, count = (b1 - b0) * hop + n;
            std::vector<float> x = read(from, count);
            if ((long long)x.size() != count)
                throw EngineError(EngineError::Kind::BadInput, channel,
                                  "the reader gave " + std::to_string(x.size()) + " samples for " + std::to_string(count));
            for (std::size_t i = 0; i < x.size(); ++i)
                if (!std::isfinite(x[i]))
                    throw EngineError(EngineError::Kind::BadInput, channel,
                                      "sample " + std::to_string(from + (long long)i) + " is not a finite number");
            fresh.resize(std::size_t(b1 - b0 + 1) * s.bins);
            computeFrames(pg, x.data(), from, b0, b1, options.hop, fresh.data());
            std::lock_guard g(state_->lock);
            ++state_->computed;
            if (!state_->blocks.count(key)) {
                state_->recent.push_front(key);
                State::Block& b = state_->blocks[key];
                b.power = fresh;
                b.frames = std::size_t(b1 - b0 + 1);
                b.use = state_->recent.begin();
                state_->bytes += b.power.size() * sizeof(float);
                state_->evict();
            }
            power = &fresh;
        }
        const long long f0 = std::max(b0, s.firstFrame), f1 = std::min(b1, last);
        std::copy(power->begin() + std::ptrdiff_t((f0 - b0) * (long long)s.bins),
                  power->begin() + std::ptrdiff_t((f1 - b0 + 1) * (long long)s.bins),
                  s.power.begin() + std::ptrdiff_t((f0 - s.firstFrame) * (long long)s.bins));
    }
    return s;
}

void SpectrogramCache::forget(const std::string& channel) {
    std::lock_guard g(state_->lock);
    for (auto it = state_->blocks.begin(); it != state_->blocks.end();) {
        if (std::get<0>(it->first) == channel) {
            state_->bytes -= it->second.power.size() * sizeof(float);
            state_->recent.erase(it->second.use);
            it = state_->blocks.erase(it);
        } else {
            ++it;
        }
    }
}

void SpectrogramCache::clear() {
    std::lock_guard g(state_->lock);
    state_->blocks.clear();
    state_->recent.clear();
    state_->bytes = 0;
}

std::size_t SpectrogramCache::bytes() const {
    std::lock_guard g(state_->lock);
    return state_->bytes;
}

std::size_t SpectrogramCache::blocksComputed() const {
    std::lock_guard g(state_->lock);
    return state_->computed;
}

}  // namespace warplab::compute::spectral
