// Distributed `patterns` (mpi_patterns.h).
#include "app/cli/mpi_patterns.h"

#include <algorithm>
#include <cstdint>

#include "app/cli/mpi_job.h"

namespace warplab::cli {

namespace {
// What rank 0 needs of a score to print and rank it.
struct WireScore {
    std::uint64_t index;
    double quality;
    std::int64_t querySample, recordingSample;
    double startS, meanIctal, meanInterictal;
};
}  // namespace

std::vector<compute::PatternRanking> findPatternsMpi(std::vector<compute::PatternRequest> requests,
                                                     compute::RunOptions options) {
    const auto K = std::size_t(mpi::size()), me = std::size_t(mpi::rank());
    for (auto& r : requests) {
        const std::size_t n = compute::validatePatternRequest(r).patterns;
        r.patternBegin = n * me / K;
        r.patternEnd = n * (me + 1) / K;
        if (r.patternEnd == r.patternBegin) r.patternBegin = r.patternEnd = n;  // an empty share, not "all"
        r.keepMatrix = false;
        r.keepMatrixUpToBytes = 0;
    }
    mpi::ProgressRelay relay(me == 0 ? options.progress : compute::ProgressFn{});
    options.progress = relay.fn();
    std::vector<compute::PatternRanking> rankings;
    mpi::step(
        [&] {
            mpi::injectFailure("patterns");
            rankings = compute::findPatterns(requests, options);
        },
        [&] { relay.finish(); });
    for (auto& ranking : rankings) {
        if (me != 0) {
            std::vector<WireScore> wire;
            for (const auto& s : ranking.ranked)
                wire.push_back({s.index, s.quality, s.querySample, s.recordingSample, s.startS, s.meanIctal, s.meanInterictal});
            mpi::sendVector(wire, 0);
            ranking.ranked.clear();
            continue;
        }
        for (int r = 1; r < mpi::size(); ++r) {
            for (const WireScore& w : mpi::recvVector<WireScore>(r)) {
                compute::PatternScore s;
                s.index = std::size_t(w.index);
                s.quality = w.quality;
                s.querySample = w.querySample;
                s.recordingSample = w.recordingSample;
                s.startS = w.startS;
                s.meanIctal = w.meanIctal;
                s.meanInterictal = w.meanInterictal;
                ranking.ranked.push_back(std::move(s));
            }
        }
        // The pipeline's order, over every rank's patterns.
        std::stable_sort(ranking.ranked.begin(), ranking.ranked.end(), [](const auto& a, const auto& b) {
            return a.quality > b.quality || (a.quality == b.quality && a.index < b.index);
        });
    }
    if (me != 0) rankings.clear();
    return rankings;
}

}  // namespace warplab::cli
