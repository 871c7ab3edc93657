// Euclidean reference: the sum of local costs along the diagonal (no root unless --sqrt).
#include "compute/core/recurrences.h"
#include "compute/cpu/reference.h"

namespace warplab::compute::reference {

double euclidean(const Series& x, const Series& y, bool absCost) {
    const int d = int(x.dims);
    double s = 0;
    for (std::size_t i = 0; i < x.length; ++i)
        s += cell::localCostN<double>(x.sample(i), y.sample(i), d, absCost);
    return s;
}

}  // namespace warplab::compute::reference
