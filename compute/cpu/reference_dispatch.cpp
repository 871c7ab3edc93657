// Dispatch from Params to the reference function of each metric, for one pair.
#include <cmath>
#include <limits>

#include "compute/core/error.h"
#include "compute/core/recurrences.h"
#include "compute/cpu/reference.h"

namespace warplab::compute::reference {

namespace {
long bandOf(const Params& p) { return p.metric == Metric::Cdtw ? long(p.band) : -1L; }
}  // namespace

double rawDistance(const Series& x, const Series& y, const Params& p) {
    const bool absCost = p.cost == Cost::Absolute;
    switch (p.metric) {
        case Metric::Euclidean: return euclidean(x, y, absCost);
        case Metric::Dtw:
        case Metric::Cdtw: return dtw(x, y, absCost, bandOf(p));
        case Metric::Sdtw: return sdtw(x, y, absCost);
        case Metric::SoftDtw: return softDtw(x, y, absCost, p.gamma);
        case Metric::Twed: return twed(x, y, p.nu, p.lambda, p.degree, p.rate);
    }
    throw EngineError(EngineError::Kind::Internal, "metric", "unknown metric");
}

Alignment align(const Series& x, const Series& y, const Params& p, bool withMatrix, const RowHook& onRow) {
    const bool absCost = p.cost == Cost::Absolute;
    const std::size_t n = x.length, m = y.length;
    Alignment a;
    a.n = n;
    a.m = m;
    std::vector<double> acc;
    switch (p.metric) {
        case Metric::Euclidean: {
            a.distance = euclidean(x, y, absCost);
            for (std::size_t i = 0; i < n; ++i) a.path.emplace_back(i, i);
            if (onRow) onRow(n, n);  // linear work: one report (and cancel check) at the end
            if (withMatrix) {
                // Running sum along the diagonal; off-diagonal cells are not part of the metric.
                acc.assign(n * m, std::numeric_limits<double>::infinity());
                double s = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    s += cell::localCostN<double>(x.sample(i), y.sample(i), int(x.dims), absCost);
                    acc[i * m + i] = s;
                }
            }
            break;
        }
        case Metric::Dtw:
        case Metric::Cdtw:
            acc = dtwMatrix(x, y, absCost, bandOf(p), onRow);
            a.distance = acc[n * m - 1];
            a.path = backtrack(acc, n, m);
            break;
        case Metric::Sdtw: {
            acc = sdtwMatrix(x, y, absCost, onRow);
            std::size_t end = 0;
            for (std::size_t j = 1; j < m; ++j)
                if (acc[(n - 1) * m + j] < acc[(n - 1) * m + end]) end = j;
            a.distance = acc[(n - 1) * m + end];
            a.path = sdtwBacktrack(acc, n, m, end);
            break;
        }
        case Metric::SoftDtw:
            acc = softDtwMatrix(x, y, absCost, p.gamma, onRow);
            a.distance = acc[n * m - 1];
            a.path = backtrack(acc, n, m);  // the hard path through the soft matrix
            break;
        case Metric::Twed:
            acc = twedMatrix(x, y, p.nu, p.lambda, p.degree, p.rate, onRow);
            a.distance = acc[n * m - 1];
            a.path = twedBacktrack(x, y, acc, p.nu, p.lambda, p.degree, p.rate);
            break;
    }
    if (withMatrix) a.matrix = std::move(acc);
    return a;
}

}  // namespace warplab::compute::reference
