// Agglomerative clustering with nearest-neighbour caching: each active cluster keeps its
// nearest neighbour among the clusters of larger index, so that a step costs O(n) for the
// search plus rescans of the few clusters whose neighbour changed (O(n^2) typical, O(n^3)
// worst case) instead of the naive O(n^2) scan per step. The tie rule is the header's.
#include "compute/cluster/hierarchical_clustering.h"

#include <cmath>
#include <limits>
#include <string>

#include "compute/core/error.h"

namespace warplab::compute {

std::string_view linkageName(Linkage l) {
    switch (l) {
    case Linkage::Single: return "single";
    case Linkage::Complete: return "complete";
    case Linkage::Average: return "average";
    }
    return "average";
}

Dendrogram clusterHierarchical(const double* d, std::size_t n, Linkage linkage) {
    if (n == 0) throw EngineError(EngineError::Kind::BadInput, "matrix", "no rows to cluster");
    // Working copy of the symmetrised matrix; only i < j entries (slot indices) are used.
    std::vector<double> w(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const double v = d[i * n + j] == d[j * n + i] ? d[i * n + j] : (d[i * n + j] + d[j * n + i]) / 2;
            if (!std::isfinite(v) || v < 0)
                throw EngineError(EngineError::Kind::BadInput, "matrix",
                                  "cell (" + std::to_string(i) + ", " + std::to_string(j) + ") is " + std::to_string(v) +
                                      ": clustering needs finite, non-negative distances");
            w[i * n + j] = v;
        }
    auto at = [&](std::size_t a, std::size_t b) -> double& { return a < b ? w[a * n + b] : w[b * n + a]; };

    std::vector<char> active(n, 1);
    std::vector<std::size_t> size(n, 1), id(n), nn(n, n);
    std::vector<double> nnd(n, std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < n; ++i) id[i] = i;
    // Nearest active neighbour of slot i among slots > i; the smallest index on ties.
    auto rescan = [&](std::size_t i) {
        nn[i] = n;
        nnd[i] = std::numeric_limits<double>::infinity();
        for (std::size_t j = i + 1; j < n; ++j)
            if (active[j] && (nn[i] == n || at(i, j) < nnd[i])) {
                nn[i] = j;
                nnd[i] = at(i, j);
            }
    };
    for (std::size_t i = 0; i < n; ++i) rescan(i);

    Dendrogram out;
    out.leaves = n;
    // Children of each merged cluster, for the leaf order.
    std::vector<std::size_t> leftChild(n, 0), rightChild(n, 0);
    for (std::size_t step = 0; step + 1 < n; ++step) {
        // The pair: smallest distance, then smallest a (the scan goes up), then nn[a] (smallest b).
        std::size_t a = n;
        for (std::size_t i = 0; i < n; ++i)
            if (active[i] && nn[i] != n && (a == n || nnd[i] < nnd[a])) a = i;
        const std::size_t b = nn[a];
        const double height = nnd[a];
        for (std::size_t k = 0; k < n; ++k) {
            if (!active[k] || k == a || k == b) continue;
            double& dk = at(a, k);
            const double db = at(b, k);
            switch (linkage) {
            case Linkage::Single: dk = std::min(dk, db); break;
            case Linkage::Complete: dk = std::max(dk, db); break;
            case Linkage::Average: dk = (double(size[a]) * dk + double(size[b]) * db) / double(size[a] + size[b]); break;
            }
        }
        out.merges.push_back({id[a], id[b], height, size[a] + size[b]});
        leftChild[step] = id[a];
        rightChild[step] = id[b];
        active[b] = 0;
        size[a] += size[b];
        id[a] = n + step;
        rescan(a);
        for (std::size_t k = 0; k < a; ++k) {
            if (!active[k]) continue;
            if (nn[k] == a || nn[k] == b) rescan(k);  // its neighbour moved away or is gone
            else if (at(k, a) < nnd[k] || (at(k, a) == nnd[k] && a < nn[k])) {
                nn[k] = a;
                nnd[k] = at(k, a);
            }
        }
        for (std::size_t k = a + 1; k < b; ++k)
            if (active[k] && nn[k] == b) rescan(k);
    }
    // Leaf order, depth first with an explicit stack (deep chains of single linkage).
    std::vector<std::size_t> stack{n == 1 ? 0 : n + (n - 2)};
    while (!stack.empty()) {
        const std::size_t c = stack.back();
        stack.pop_back();
        if (c < n) {
            out.order.push_back(c);
        } else {
            stack.push_back(rightChild[c - n]);
            stack.push_back(leftChild[c - n]);
        }
    }
    return out;
}

}  // namespace warplab::compute
