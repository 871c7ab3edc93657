// Agglomerative hierarchical clustering of a distance matrix (single, complete, average
// linkage), for ordering the rows of the distance-matrix view and drawing its dendrogram.
//
// Rules, so that a result can be checked exactly (tests/compute/test_hierarchical_clustering.cpp
// holds a naive O(n^3) version of them):
// - A cluster is known by its smallest leaf (row) index. Each step merges the two clusters at
//   the smallest linkage distance; among equal distances, the pair (a, b), a < b by smallest
//   leaf, that is lexicographically smallest wins.
// - Linkage distances come from the Lance-Williams updates: single min(d_ak, d_bk), complete
//   max(d_ak, d_bk), average (n_a d_ak + n_b d_bk) / (n_a + n_b), i.e. the mean over all leaf
//   pairs up to rounding. Ties are exact for single and complete; for average, sums in another
//   order may round differently, so distances equal only up to rounding are not ties.
// - Merge k gets cluster id n + k (leaves are 0..n-1), as in SciPy's linkage matrices.
// - Leaf order: depth first, the cluster holding the smaller leaf index first at every merge.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace warplab::compute {

enum class Linkage { Single, Complete, Average };
std::string_view linkageName(Linkage l);  // "single", "complete", "average"

struct ClusterMerge {
    std::size_t left = 0, right = 0;  // cluster ids (left: the one with the smaller leaf)
    double height = 0;                // linkage distance at the merge
    std::size_t size = 0;             // leaves in the merged cluster
};

struct Dendrogram {
    std::size_t leaves = 0;
    std::vector<ClusterMerge> merges;  // leaves - 1 of them, heights non-decreasing
    std::vector<std::size_t> order;    // leaf order for display: order[position] = row index
};

// `d` is n x n, row-major. A square matrix that is not symmetric is clustered on
// (d_ij + d_ji) / 2. Throws EngineError(BadInput, "matrix") when n is 0 or a value off the
// diagonal is NaN, infinite or negative.
Dendrogram clusterHierarchical(const double* d, std::size_t n, Linkage linkage);

}  // namespace warplab::compute
