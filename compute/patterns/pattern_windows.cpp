#include "compute/patterns/pattern_windows.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <tbb/parallel_for.h>

namespace warplab::compute {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

void computeWindowRows(const WindowRowsInput& in, const RunOptions& options, PatternRanking& out) {
    const PatternRequest& r = in.request;
    const std::size_t e = std::size_t(r.epoch), s = std::size_t(r.stride);
    const auto tRead = std::chrono::steady_clock::now();
    // The channel as one buffer: the caller's view as it is, or read once through the reader
    // (a 164-hour channel at 256 Hz is 604 MB of floats, uploaded once).
    std::vector<float> owned;
    const long long n = r.samples.empty() ? r.sampleCount : (long long)r.samples.size();
    if (r.samples.empty()) {
        owned.resize(std::size_t(n));
        in.read(0, n, owned.data());
    } else {
        // A view is checked in parallel slices (the same finite test the reader path applies).
        const std::size_t slice = std::size_t(1) << 22;
        tbb::parallel_for(std::size_t(0), (std::size_t(n) + slice - 1) / slice, [&](std::size_t k) {
            const long long a = (long long)(k * slice), c = std::min<long long>(n - a, (long long)slice);
            std::vector<float> tmp(static_cast<std::size_t>(c));
            in.read(a, c, tmp.data());
        });
    }
    WindowMatrixRequest q;
    std::vector<float> patterns(in.patterns * e);
    for (std::size_t i = 0; i < in.patterns; ++i)
        std::memcpy(patterns.data() + i * e, in.query.data() + i * s, e * sizeof(float));
    q.queries = patterns.data();
    q.queryCount = in.patterns;
    q.samples = r.samples.empty() ? owned.data() : r.samples.data();
    q.sampleCount = n;
    if (in.starts) {
        q.starts = *in.starts;
    } else {
        q.starts.resize(in.epochs);
        for (std::size_t j = 0; j < in.epochs; ++j) q.starts[j] = (long long)(j * s);
    }
    q.e = r.epoch;
    q.params = in.params;
    q.dpx = in.dpx;
    q.rowBlock = in.rowBlock;
    out.epochSeconds += secondsSince(tRead);

    const auto tCall = std::chrono::steady_clock::now();
    double rank = 0;
    gpuWindowMatrix(q, [&](std::size_t r0, std::size_t r1, const double* rows) {
        const auto tRank = std::chrono::steady_clock::now();
        std::vector<PatternScore> scores(r1 - r0);
        tbb::parallel_for(r0, r1, [&](std::size_t i) {
            scores[i - r0] = in.score(i, std::span<const double>(rows + (i - r0) * in.epochs, in.epochs));
        });
        for (auto& sc : scores) out.ranked.push_back(std::move(sc));
        if (r.matrixSink) r.matrixSink(Tile{r0, r1, 0, in.epochs}, rows);
        rank += secondsSince(tRank);
    }, options);
    out.engineSeconds += secondsSince(tCall) - rank;
    out.rankSeconds += rank;
}

}  // namespace warplab::compute
