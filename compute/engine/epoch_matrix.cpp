#include "compute/engine/epoch_matrix.h"

#include <string>

#include "compute/core/error.h"

namespace warplab::compute {

std::vector<long long> epochStarts(const std::vector<Stretch>& stretches, long long samples, int e, int s) {
    using K = EngineError::Kind;
    if (e < 1 || s < 1) throw EngineError(K::BadParameter, e < 1 ? "epoch" : "stride", "must be >= 1");
    std::vector<long long> starts;
    long long end = 0;
    for (std::size_t i = 0; i < stretches.size(); ++i) {
        const Stretch& t = stretches[i];
        const std::string field = "stretches[" + std::to_string(i) + "]";
        if (t.length <= 0)
            throw EngineError(K::BadInput, field, "is empty (length " + std::to_string(t.length) + ")");
        if (t.offset < 0 || t.offset + t.length > samples)
            throw EngineError(K::BadInput, field,
                              "samples " + std::to_string(t.offset) + ".." + std::to_string(t.offset + t.length) +
                                  " lie outside the channel (" + std::to_string(samples) + " samples)");
        if (t.offset < end)
            throw EngineError(K::BadInput, field, "starts at sample " + std::to_string(t.offset) +
                                                      ", before the end of the stretch before it (" +
                                                      std::to_string(end) + "): stretches must be sorted and disjoint");
        end = t.offset + t.length;
        for (long long b = t.offset; b + e <= end; b += s) starts.push_back(b);
    }
    return starts;
}

}  // namespace warplab::compute
