#include "compute/patterns/epoch_starts.h"

#include <algorithm>

namespace warplab::compute {

std::vector<unsigned char> ictalEpochsAt(const std::vector<SampleSpan>& seizures, const std::vector<long long>& starts,
                                         long long epoch) {
    std::vector<unsigned char> ictal(starts.size(), 0);
    std::size_t first = 0;  // starts rise, spans are sorted: walk them together
    for (std::size_t j = 0; j < starts.size(); ++j) {
        const long long b = starts[j], e = b + epoch;
        while (first < seizures.size() && seizures[first].end <= b) ++first;
        long long overlap = 0;
        for (std::size_t k = first; k < seizures.size() && seizures[k].begin < e; ++k)
            overlap += std::min(e, seizures[k].end) - std::max(b, seizures[k].begin);
        ictal[j] = 2 * overlap >= epoch ? 1 : 0;
    }
    return ictal;
}

}  // namespace warplab::compute
