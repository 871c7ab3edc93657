// CSV rows on stdout while the matrix is computed (csv_row_stream.h): a reorder buffer of rows
// and the band-by-band driver of Engine::distanceMatrixStreamed.
#include "app/cli/csv_row_stream.h"

#include <algorithm>
#include <stdexcept>

#include "app/cli/csv_output.h"
#include "compute/core/error.h"
#include "compute/core/preprocess.h"
#include "compute/engine/engine.h"

namespace warplab::cli {

using compute::Tile;

CsvRowWriter::CsvRowWriter(std::ostream& out, std::size_t rows, std::size_t cols, std::size_t maxBufferedRows)
    : out_(out), rows_(rows), cols_(cols), maxBuffered_(std::max<std::size_t>(1, maxBufferedRows)) {}

void CsvRowWriter::put(const Tile& t, const double* values, bool transposed) {
    if (t.rowEnd > rows_ || t.colEnd > cols_ || t.rowBegin < next_)
        throw std::logic_error("CsvRowWriter: a tile outside the rows still to write");
    if (t.rowEnd > next_ + maxBuffered_)
        throw std::logic_error("CsvRowWriter: row " + std::to_string(t.rowEnd - 1) + " is more than " +
                               std::to_string(maxBuffered_) + " rows ahead of row " + std::to_string(next_));
    for (std::size_t r = t.rowBegin; r < t.rowEnd; ++r) {
        Row& row = pending_[r];
        if (row.values.empty()) row.values.assign(cols_, 0.0);
        for (std::size_t c = t.colBegin; c < t.colEnd; ++c) {
            const std::size_t i = r - t.rowBegin, j = c - t.colBegin;
            row.values[c] = transposed ? values[j * t.rows() + i] : values[i * t.cols() + j];
        }
        row.filled += t.cols();
    }
    peak_ = std::max(peak_, pending_.size());
    flushReady();
}

void CsvRowWriter::flushReady() {
    for (auto it = pending_.begin(); it != pending_.end() && it->first == next_ && it->second.filled >= cols_;
         it = pending_.erase(it), ++next_) {
        line_.clear();
        for (std::size_t c = 0; c < cols_; ++c) {
            if (c) line_ += ',';
            line_ += formatDouble(it->second.values[c]);
        }
        line_ += '\n';
        out_ << line_;
        if (!out_) throw std::runtime_error("stdout: write failed");
    }
}

void CsvRowWriter::finish() {
    if (next_ != rows_)
        throw std::logic_error("CsvRowWriter: " + std::to_string(next_) + " of " + std::to_string(rows_) + " rows complete");
}

namespace {

compute::SeriesSet slice(const compute::SeriesSet& s, std::size_t begin, std::size_t end) {
    return compute::SeriesSet(s.begin() + std::ptrdiff_t(begin), s.begin() + std::ptrdiff_t(end));
}

// The engine's checks on the whole sets, with the engine's field names, before any output
// (the band calls see slices, whose indices would name the wrong series).
void checkInputs(const compute::SeriesSet& q, const compute::SeriesSet* t, const compute::Params& p) {
    using compute::EngineError;
    compute::validate(p);
    if (q.empty()) throw EngineError(EngineError::Kind::BadInput, "queries", "no series given");
    if (t && t->empty()) throw EngineError(EngineError::Kind::BadInput, "targets", "no series given");
    for (std::size_t i = 0; i < q.size(); ++i) compute::checkSeries(q[i], "queries[" + std::to_string(i) + "]");
    for (std::size_t i = 0; t && i < t->size(); ++i) compute::checkSeries((*t)[i], "targets[" + std::to_string(i) + "]");
    for (std::size_t i = 1; i < q.size(); ++i)
        compute::checkPair(q[0], "queries[0]", q[i], "queries[" + std::to_string(i) + "]", p.metric);
    for (std::size_t i = 0; t && i < t->size(); ++i)
        compute::checkPair(q[0], "queries[0]", (*t)[i], "targets[" + std::to_string(i) + "]", p.metric);
}

}  // namespace

CsvStreamStats streamMatrixCsv(std::ostream& out, const compute::SeriesSet& queries,
                               const compute::SeriesSet* targets, const compute::Params& params,
                               const compute::RunOptions& options, double memoryBytes,
                               std::size_t bandRows) {
    checkInputs(queries, targets, params);
    compute::Engine::resolveKernel(params.metric, options);  // a bad --kernel before any output
    const std::size_t n = queries.size();
    const compute::SeriesSet& cols = targets ? *targets : queries;
    const std::size_t m = cols.size();
    const bool symmetric = !targets && compute::isSymmetric(params.metric);

    CsvStreamStats stats;
    // Bands of up to 512 rows and 64 MiB of buffered values: tall enough to keep every core
    // (or a GPU's tile streams) busy, small beside any matrix worth streaming.
    stats.bandRows = bandRows ? bandRows
                              : std::clamp<std::size_t>((std::size_t(64) << 20) / sizeof(double) / std::max<std::size_t>(1, m), 1, 512);
    const std::size_t band = stats.bandRows, bands = (n + band - 1) / band;
    // Symmetric: the mirrored lower part of band b comes from bands a < b. Kept from their
    // upper parts when at most a quarter of the matrix (the most ever pending) fits the budget.
    const bool keepMirrors = symmetric && double(n) * double(n) / 4 * sizeof(double) <= memoryBytes;
    std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> mirrors;  // (a, b): rows of a x cols of b

    // Progress over the whole stream: each band's engine fraction scaled to its share of pairs.
    double totalPairs = 0;
    for (std::size_t b = 0; b < bands; ++b) {
        const double rows = double(std::min(n, (b + 1) * band) - b * band);
        totalPairs += symmetric ? rows * double(n - b * band) - rows * (rows - 1) / 2 + (keepMirrors ? 0 : rows * double(b * band))
                                : rows * double(m);
    }
    double donePairs = 0;
    auto call = [&](const compute::SeriesSet& q, const compute::SeriesSet* t, double pairs, const compute::TileSink& sink) {
        compute::RunOptions o = options;
        if (options.progress)
            o.progress = [&, pairs](double f) { options.progress(std::min(1.0, (donePairs + f * pairs) / totalPairs)); };
        compute::Engine::distanceMatrixStreamed(q, t, params, o, sink);
        donePairs += pairs;
    };

    CsvRowWriter writer(out, n, m, band);
    for (std::size_t b = 0; b < bands; ++b) {
        const std::size_t r0 = b * band, r1 = std::min(n, r0 + band), rows = r1 - r0;
        const compute::SeriesSet mine = slice(queries, r0, r1);
        if (!symmetric) {
            call(mine, &cols, double(rows) * double(m), [&](const Tile& t, const double* v) {
                writer.put(Tile{t.rowBegin + r0, t.rowEnd + r0, t.colBegin, t.colEnd}, v);
            });
            continue;
        }
        // Lower part, columns [0, r0): the pairs (c, r) with c < r, each as the engine computes
        // it (row c), transposed into row r.
        if (r0 > 0 && keepMirrors) {
            for (std::size_t a = 0; a < b; ++a) {
                auto it = mirrors.find({a, b});
                const std::size_t a0 = a * band, aRows = std::min(n, a0 + band) - a0;
                writer.put(Tile{r0, r1, a0, a0 + aRows}, it->second.data(), true);
                mirrors.erase(it);
            }
        } else if (r0 > 0) {
            const compute::SeriesSet before = slice(queries, 0, r0);
            call(before, &mine, double(r0) * double(rows), [&](const Tile& t, const double* v) {
                writer.put(Tile{t.colBegin + r0, t.colEnd + r0, t.rowBegin, t.rowEnd}, v, true);
            });
            stats.recomputedPairs += r0 * rows;
        }
        // The band's own block: all pairs of its rows, mirrored inside by the engine.
        call(mine, nullptr, double(rows) * double(rows + 1) / 2, [&](const Tile& t, const double* v) {
            writer.put(Tile{t.rowBegin + r0, t.rowEnd + r0, t.colBegin + r0, t.colEnd + r0}, v);
        });
        // Upper part, columns [r1, n); kept for the bands below when mirrors fit.
        if (r1 < n) {
            const compute::SeriesSet after = slice(queries, r1, n);
            call(mine, &after, double(rows) * double(n - r1), [&](const Tile& t, const double* v) {
                const Tile placed{t.rowBegin + r0, t.rowEnd + r0, t.colBegin + r1, t.colEnd + r1};
                if (keepMirrors) {
                    for (std::size_t c = placed.colBegin; c < placed.colEnd;) {
                        const std::size_t nb = c / band, c0 = nb * band, c1 = std::min(n, c0 + band);
                        const std::size_t upto = std::min(c1, placed.colEnd);
                        auto& block = mirrors[{b, nb}];
                        if (block.empty()) block.assign(rows * (c1 - c0), 0.0);
                        for (std::size_t r = placed.rowBegin; r < placed.rowEnd; ++r)
                            for (std::size_t cc = c; cc < upto; ++cc)
                                block[(r - r0) * (c1 - c0) + (cc - c0)] =
                                    v[(r - placed.rowBegin) * t.cols() + (cc - placed.colBegin)];
                        c = upto;
                    }
                }
                writer.put(placed, v);
            });
        }
    }
    writer.finish();
    if (options.progress) options.progress(1.0);
    stats.peakBufferedRows = writer.peakBufferedRows();
    return stats;
}

}  // namespace warplab::cli
