// `dm` without --out: the matrix goes to stdout as CSV rows (csv_output.h's format, byte for
// byte) while it is computed, so `warplab-cli dm ... > big.csv` works at any size the disk
// holds. The rows are computed in bands through Engine::distanceMatrixStreamed; a reorder
// buffer puts each band's tiles, which finish in any order, back into row order and writes a
// row as soon as it is complete. Only the current band is ever held, never the whole matrix.
#pragma once
#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/params.h"
#include "compute/core/series.h"
#include "compute/core/tile.h"

namespace warplab::cli {

// The reorder buffer: rows x cols values arrive as tiles (or single cells) in any order; row r
// is written (one CSV line) once all its cells came and every row before it was written.
// Holds at most `maxBufferedRows` rows at a time: a value for a row that far ahead of the next
// row to write is refused (std::logic_error), which is what keeps the memory bounded.
class CsvRowWriter {
public:
    CsvRowWriter(std::ostream& out, std::size_t rows, std::size_t cols, std::size_t maxBufferedRows);
    // Values of `tile`, row-major; with `transposed`, `values` is the tile's transpose
    // (tile.cols() x tile.rows(), row-major).
    void put(const compute::Tile& tile, const double* values, bool transposed = false);
    // Throws std::logic_error when rows are missing.
    void finish();
    std::size_t rowsWritten() const { return next_; }
    std::size_t peakBufferedRows() const { return peak_; }

private:
    struct Row {
        std::vector<double> values;
        std::size_t filled = 0;
    };
    void flushReady();

    std::ostream& out_;
    std::size_t rows_, cols_, maxBuffered_;
    std::size_t next_ = 0, peak_ = 0;
    std::map<std::size_t, Row> pending_;  // rows begun but not yet written
    std::string line_;
};

struct CsvStreamStats {
    std::size_t bandRows = 0;          // rows per band
    std::size_t peakBufferedRows = 0;  // most rows the reorder buffer held at once
    std::size_t recomputedPairs = 0;   // all pairs of a symmetric metric: lower-triangle pairs computed again
};

// Streams the matrix of Engine::distanceMatrix(queries, targets, params, options) to `out` as
// CSV rows (no header), identical to writeMatrixCsv of that matrix. All pairs of a symmetric
// metric are computed once per pair as the engine does (the smaller index as the row) and
// mirrored: the mirrored values for later rows are kept while they fit `memoryBytes`, else
// computed again in the same orientation (the same bits, twice the work). Checks every input
// first (the engine's messages and field names), so nothing is written for bad input; throws
// EngineError as the engine does, std::runtime_error when `out` fails. `bandRows` 0: up to
// 512 rows and 64 MiB of values per band (tests choose small bands).
CsvStreamStats streamMatrixCsv(std::ostream& out, const compute::SeriesSet& queries,
                               const compute::SeriesSet* targets, const compute::Params& params,
                               const compute::RunOptions& options, double memoryBytes,
                               std::size_t bandRows = 0);

}  // namespace warplab::cli
