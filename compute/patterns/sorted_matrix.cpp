#include "compute/patterns/sorted_matrix.h"

#include <limits>
#include <span>

#include <tbb/parallel_for.h>

#include "compute/core/error.h"
#include "compute/core/thread_arena.h"

namespace warplab::compute {

namespace {

using K = EngineError::Kind;

// The gather reads a study row (4.7 MB at the published size) in sorted, hence random, order:
// the value this many places ahead is fetched early.
constexpr std::size_t kAhead = 32;

// The sorted sub-row's distances in the chosen precision, its epochs renumbered past the skip.
template <typename D>
void gather(const double* v, const std::vector<std::uint32_t>& order, std::size_t skipBegin, std::size_t skip,
            std::vector<D>& distance, std::vector<std::uint32_t>& epoch) {
    std::size_t w = 0;
    const std::size_t n = order.size();
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t j = order[k];
        if (k + kAhead < n) __builtin_prefetch(v + order[k + kAhead]);
        if (std::size_t(j) - skipBegin < skip) continue;  // inside [skipBegin, skipEnd) (unsigned wrap below it)
        epoch[w] = j < skipBegin ? j : std::uint32_t(j - skip);
        distance[w] = D(v[j]);
        ++w;
    }
}

}  // namespace

SortedMatrix::SortedMatrix(const DistanceMatrix& m, const RunOptions& options)
    : m_(m), order_(m.rows), notFloatFirst_(m.rows), notFloatLast_(m.rows) {
    if (m.values.size() != m.rows * m.cols) throw EngineError(K::BadInput, "matrix", "the matrix holds no value per cell");
    if (m.cols > std::numeric_limits<std::uint32_t>::max())
        throw EngineError(K::BadInput, "matrix", "more than 2^32 - 1 columns cannot be sorted as 32-bit epochs");
    // Rows are independent: each sorted on one core, as the pipeline sorts its rows.
    auto sortAll = [&] {
        tbb::parallel_for(std::size_t(0), m.rows, [&](std::size_t i) {
            if (options.cancel && options.cancel->cancelled()) return;
            const std::span<const double> row(m.values.data() + i * m.cols, m.cols);
            order_[i] = sortedEpochs(row);
            std::size_t first = 1, last = 0;
            for (std::size_t j = 0; j < row.size(); ++j)
                if (!floatExact(row[j])) {
                    first = j;
                    break;
                }
            for (std::size_t j = row.size(); j-- > first;)
                if (!floatExact(row[j])) {
                    last = j;
                    break;
                }
            notFloatFirst_[i] = first;
            notFloatLast_[i] = last;
        });
    };
    onThreads(options.threads, sortAll);
    if (options.cancel && options.cancel->cancelled()) throw EngineError(K::Cancelled, "", "cancelled");
}

void SortedMatrix::sortedWithout(std::size_t row, std::size_t skipBegin, std::size_t skipEnd, SortedRow& out) const {
    if (row >= order_.size() || skipBegin > skipEnd || skipEnd > m_.cols)
        throw EngineError(K::BadInput, "matrix", "a row or column range outside the sorted matrix");
    const std::size_t skip = skipEnd - skipBegin, n = m_.cols - skip;
    const std::size_t first = notFloatFirst_[row], last = notFloatLast_[row];
    // The sub-row is all floats when the row's other values all lie in the columns left out.
    out.floats = first > last || (first >= skipBegin && last < skipEnd);
    out.epoch.resize(n);
    const double* v = m_.values.data() + row * m_.cols;
    if (out.floats) {
        out.distanceD.clear();
        out.distanceF.resize(n);
        gather(v, order_[row], skipBegin, skip, out.distanceF, out.epoch);
    } else {
        out.distanceF.clear();
        out.distanceD.resize(n);
        gather(v, order_[row], skipBegin, skip, out.distanceD, out.epoch);
    }
}

}  // namespace warplab::compute
