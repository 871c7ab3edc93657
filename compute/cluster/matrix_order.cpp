#include "compute/cluster/matrix_order.h"

#include <algorithm>
#include <numeric>

#include "compute/core/error.h"

namespace warplab::compute {
namespace {

void checkPermutation(const std::vector<std::size_t>& order, std::size_t n, const char* what) {
    std::vector<char> seen(n, 0);
    bool ok = order.size() == n;
    for (std::size_t k = 0; ok && k < order.size(); ++k) {
        ok = order[k] < n && !seen[order[k]];
        if (ok) seen[order[k]] = 1;
    }
    if (!ok)
        throw EngineError(EngineError::Kind::BadInput, "order",
                          std::string(what) + " order is not a permutation of 0.." + std::to_string(n ? n - 1 : 0));
}

}  // namespace

std::vector<std::size_t> orderByLabel(const std::vector<std::string>& labels) {
    std::vector<std::size_t> order(labels.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const bool ea = labels[a].empty(), eb = labels[b].empty();
        if (ea != eb) return eb;  // labelled rows first
        return labels[a] < labels[b];
    });
    return order;
}

DistanceMatrix permuteMatrix(const DistanceMatrix& m, const std::vector<std::size_t>& rowOrder,
                             const std::vector<std::size_t>& colOrder) {
    checkPermutation(rowOrder, m.rows, "row");
    checkPermutation(colOrder, m.cols, "column");
    DistanceMatrix out = m;
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) out.at(i, j) = m.at(rowOrder[i], colOrder[j]);
    if (m.rowNames.size() == m.rows)
        for (std::size_t i = 0; i < m.rows; ++i) out.rowNames[i] = m.rowNames[rowOrder[i]];
    if (m.colNames.size() == m.cols)
        for (std::size_t j = 0; j < m.cols; ++j) out.colNames[j] = m.colNames[colOrder[j]];
    // Symmetric stays true only when rows and columns moved together.
    out.symmetric = m.symmetric && rowOrder == colOrder;
    return out;
}

}  // namespace warplab::compute
