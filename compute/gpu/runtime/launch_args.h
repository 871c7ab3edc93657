// What every matrix kernel launch needs: the packed rows and columns of a tile, the pairs to
// compute and where each result goes, and the metric's parameters in the accumulation type.
#pragma once
#include "compute/core/params.h"
#include "compute/gpu/runtime/packed_series.h"

namespace warplab::compute::gpu {

struct PairsView {
    const int* row;      // index into the packed rows
    const int* col;      // index into the packed cols
    int count;
    int outCols;         // result of pair p goes to out[row[p] * outCols + col[p]]
    double* out;
};

template <typename T>
struct MetricArgs {
    int dims = 1;
    bool absCost = false;
    long band = -1;      // Sakoe-Chiba half-width; < 0 = no band
    T gamma = 1, nu = 0, lambda = 0, degree = 2, rate = 0;
};

template <typename T>
MetricArgs<T> metricArgs(const Params& p, int dims) {
    MetricArgs<T> a;
    a.dims = dims;
    a.absCost = p.cost == Cost::Absolute;
    a.band = p.metric == Metric::Cdtw ? long(p.band) : -1;
    a.gamma = T(p.gamma);
    a.nu = T(p.nu);
    a.lambda = T(p.lambda);
    a.degree = T(p.degree);
    a.rate = T(p.rate);
    return a;
}

}  // namespace warplab::compute::gpu
