// Every row of a kept patterns x epochs matrix sorted once, so that a sub-matrix without one
// stretch of columns (a cross-validation fold: the study without its held-out recording) has its
// rows sorted in linear time instead of sorted again (compute/detect/crossval_matrix.cpp).
//
// A row's order by (distance, epoch) with some columns left out is the whole row's order with
// them skipped: the columns kept stay in the same relative order when renumbered, so ties break
// the same way. Whether the sub-row takes the float view (every value a float widened to double,
// as sortRow decides) is known from where the row's other values lie.
//
// Holds 4 bytes per matrix cell beside the matrix (415 patterns x 589,823 epochs: 0.98 GB).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/results.h"
#include "compute/patterns/quality.h"

namespace warplab::compute {

class SortedMatrix {
public:
    // Sorts every row of `m` (parallel over rows on options.threads; options.cancel is checked
    // between rows and throws EngineError Cancelled). `m` must outlive this.
    SortedMatrix(const DistanceMatrix& m, const RunOptions& options);

    // Row `row` without columns [skipBegin, skipEnd) (an empty range: the whole row), the columns
    // past the range numbered down by its length: exactly what sortRow gives for that sub-row.
    // `out` is reused (its vectors keep their capacity from row to row).
    void sortedWithout(std::size_t row, std::size_t skipBegin, std::size_t skipEnd, SortedRow& out) const;

    std::size_t rows() const { return order_.size(); }

private:
    const DistanceMatrix& m_;
    std::vector<std::vector<std::uint32_t>> order_;  // per row: its columns by (distance, column)
    // Per row: the first and last column whose value is not a float (first > last: none).
    std::vector<std::size_t> notFloatFirst_, notFloatLast_;
};

}  // namespace warplab::compute
