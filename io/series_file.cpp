// readSeriesFile: the CLI's and GUI's query/target sets from UCR text, CSV, NPY or an EDF/BDF
// channel window.
#include "io/series_file.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <optional>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "compute/core/huge_pages.h"
#include "io/file_bytes.h"
#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/npy.h"
#include "io/number_column.h"
#include "io/recording.h"
#include "io/recording_backends.h"
#include "io/text_table.h"

namespace warplab::io {

namespace {

compute::SeriesSet fromRecording(const std::string& path, const SeriesFileOptions& o) {
    const ChannelWindow w = locateChannelWindow(path, o);
    return {readChannelWindow(w, 0, w.count)};
}

std::string labelText(double v) { return formatDouble(v); }

compute::SeriesSet fromMatrixRows(const std::string& path, const std::string& stem,
                                  const std::vector<std::vector<double>>& rows, const std::vector<std::size_t>& lines,
                                  const SeriesFileOptions& o) {
    compute::SeriesSet out;
    if (rows.empty()) throw IoError(path, "", "no series");
    if (o.multivariate) {
        const std::size_t len = rows.front().size();
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (rows[i].size() != len)
                throw IoError(path, "line " + std::to_string(lines[i]),
                              std::to_string(rows[i].size()) + " values where channel 1 has " + std::to_string(len) +
                                  " (a multivariate series needs channels of equal length)");
        if (len == 0) throw IoError(path, "line " + std::to_string(lines[0]), "empty series");
        compute::Series s;
        s.dims = rows.size();
        s.length = len;
        s.name = stem;
        s.values.resize(len * rows.size());
        for (std::size_t c = 0; c < rows.size(); ++c)
            for (std::size_t i = 0; i < len; ++i) s.values[i * s.dims + c] = float(rows[c][i]);
        out.push_back(std::move(s));
        return out;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        std::size_t first = o.labelColumn ? 1 : 0;
        if (r.size() <= first)
            throw IoError(path, "line " + std::to_string(lines[i]), o.labelColumn ? "a label but no values" : "empty series");
        compute::Series s(std::vector<float>(r.begin() + first, r.end()), 1, stem + ":" + std::to_string(i));
        if (o.labelColumn) s.label = labelText(r[0]);
        out.push_back(std::move(s));
    }
    return out;
}

// A C-order .npy of series, one a row (a 1-D array is one series), decoded from the mapped
// file straight into each series' floats on all cores, in pieces of a row, so that one long
// series (a reference of 1e9 samples: 8.5 s on one core) is decoded by every core as many short
// ones are; std::nullopt for Fortran order. The same series, names and errors as the
// array-of-doubles path below, which went through two more copies of every value.
std::optional<compute::SeriesSet> npyRowSeries(const std::string& path, const std::string& stem) {
    const FileBytes content(path);
    const NpyLayout l = parseNpyLayout(path, content.view());
    if (l.fortran && l.shape.size() == 2) return std::nullopt;
    if (l.count == 0) throw IoError(path, "shape", "an empty array holds no series");
    const std::size_t rows = l.shape.size() == 2 ? l.shape[0] : 1, cols = l.count / rows;
    constexpr std::size_t kPiece = std::size_t(1) << 16;
    const std::size_t pieces = (cols + kPiece - 1) / kPiece;
    std::vector<std::vector<float>> values(rows);
    tbb::parallel_for(std::size_t(0), rows, [&](std::size_t r) {
        values[r].reserve(cols);
        compute::adviseHugePages(values[r].data(), cols * sizeof(float));  // 4 GB for 1e9 samples
        values[r].resize(cols);
    });
    std::atomic<bool> finite = true;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows * pieces), [&](const tbb::blocked_range<std::size_t>& b) {
        std::vector<double> v(std::min(cols, kPiece));
        for (std::size_t k = b.begin(); k < b.end(); ++k) {
            const std::size_t r = k / pieces, c0 = (k % pieces) * kPiece, n = std::min(kPiece, cols - c0);
            decodeNpyValues(l, content.view(), r * cols + c0, n, v.data());
            float* f = values[r].data() + c0;
            bool ok = true;
            for (std::size_t i = 0; i < n; ++i) {
                ok &= std::isfinite(v[i]);
                f[i] = float(v[i]);
            }
            if (!ok) finite = false;
        }
    });
    if (!finite) throw IoError(path, "data", "NaN or infinite value");
    compute::SeriesSet out(rows);
    for (std::size_t r = 0; r < rows; ++r) out[r] = compute::Series(std::move(values[r]), 1, stem + ":" + std::to_string(r));
    return out;
}

}  // namespace

bool isRecordingFile(const std::string& path) {
    const std::string ext = lowerExtension(path);
    return looksLikeEdf(path) || ext == ".edf" || ext == ".bdf";
}

ChannelWindow locateChannelWindow(const std::string& path, const SeriesFileOptions& o) {
    std::shared_ptr<const Recording> rec = Recording::open(path);
    int sig = -1;
    if (o.channel.empty()) {
        if (rec->signals().size() != 1)
            throw IoError(path, "channel", "the recording has " + std::to_string(rec->signals().size()) +
                                               " signals: name one (label, display name or #index)");
        sig = 0;
    } else {
        sig = rec->findSignal(o.channel);
        if (sig < 0) throw IoError(path, "channel", "no signal named \"" + o.channel + "\"");
    }
    const SignalInfo& s = rec->signals()[sig];
    long long start = 0, count = s.samples;
    if (o.windowStartS || o.windowLengthS) {
        const double startS = o.windowStartS.value_or(0.0);
        const double lenS = o.windowLengthS.value_or(double(s.samples) / s.rateHz - startS);
        if (!std::isfinite(startS) || !std::isfinite(lenS) || startS < 0 || lenS <= 0)
            throw IoError(path, "window", "start must be >= 0 and length > 0 seconds");
        start = std::llround(startS * s.rateHz);
        count = std::llround(lenS * s.rateHz);
        if (start + count > s.samples)
            throw IoError(path, "window", "[" + formatDouble(startS) + " s, " + formatDouble(startS + lenS) +
                                              " s) runs past the end of '" + s.displayName + "' (" +
                                              formatDouble(double(s.samples) / s.rateHz) + " s)");
    }
    if (count < 1) throw IoError(path, "window", "selects no samples");
    std::string name = s.displayName;
    return ChannelWindow{std::move(rec), sig, start, count, std::move(name)};
}

compute::Series readChannelWindow(const ChannelWindow& w, long long from, long long to) {
    if (from < 0 || to < from || to > w.count)
        throw IoError(w.recording->path(), "window",
                      "samples [" + std::to_string(from) + ", " + std::to_string(to) + ") lie outside the " +
                          std::to_string(w.count) + " of the window");
    if (from == to) return compute::Series({}, 1, w.name);
    return compute::Series(w.recording->read(w.signal, w.start + from, to - from), 1, w.name);
}

compute::SeriesSet readSeriesFile(const std::string& path, const SeriesFileOptions& options) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw IoError(path, "", "no such file");
    const std::string stem = std::filesystem::path(path).stem().string();
    if (isRecordingFile(path)) return fromRecording(path, options);
    if (lowerExtension(path) == ".npy") {
        if (!options.labelColumn && !options.multivariate)
            if (auto rows = npyRowSeries(path, stem)) return std::move(*rows);
        NpyArray a = readNpy(path);
        if (a.data.empty()) throw IoError(path, "shape", "an empty array holds no series");
        for (double v : a.data)
            if (!std::isfinite(v)) throw IoError(path, "data", "NaN or infinite value");
        std::vector<std::vector<double>> rows;
        std::vector<std::size_t> lines;
        for (std::size_t r = 0; r < a.rows(); ++r) {
            rows.emplace_back(a.data.begin() + r * a.cols(), a.data.begin() + (r + 1) * a.cols());
            lines.push_back(r + 1);
        }
        return fromMatrixRows(path, stem, rows, lines, options);
    }
    const FileBytes content(path);
    if (!options.labelColumn && !options.multivariate)
        if (auto column = parseNumberColumn(content.view())) {
            compute::SeriesSet one;  // not `return {Series}`: an initializer list would copy the samples
            one.emplace_back(std::move(*column), 1, stem);
            return one;
        }
    TextTable t = parseTextTable(path, content.view());
    if (!t.header.empty()) {
        // Named columns: each column is one series (or one channel of a multivariate series).
        const std::size_t w = t.header.size();
        for (std::size_t i = 0; i < t.rows.size(); ++i)
            if (t.rows[i].size() != w)
                throw IoError(path, "line " + std::to_string(t.lineNumbers[i]),
                              std::to_string(t.rows[i].size()) + " values under a header of " + std::to_string(w) + " names");
        std::vector<std::vector<double>> cols(w, std::vector<double>(t.rows.size()));
        for (std::size_t r = 0; r < t.rows.size(); ++r)
            for (std::size_t c = 0; c < w; ++c) cols[c][r] = t.rows[r][c];
        SeriesFileOptions o = options;
        o.labelColumn = false;
        std::vector<std::size_t> lines(w, 1);
        auto out = fromMatrixRows(path, stem, cols, lines, o);
        if (!o.multivariate)
            for (std::size_t c = 0; c < w; ++c) out[c].name = t.header[c];
        return out;
    }
    const bool singleColumn = t.rows.size() > 1 && !options.labelColumn &&
                              std::all_of(t.rows.begin(), t.rows.end(), [](const auto& r) { return r.size() == 1; });
    if (singleColumn && !options.multivariate) {
        // One value per line (Bonn EEG segments): the whole file is one series.
        std::vector<float> v;
        v.reserve(t.rows.size());
        for (const auto& r : t.rows) v.push_back(float(r[0]));
        return {compute::Series(std::move(v), 1, stem)};
    }
    return fromMatrixRows(path, stem, t.rows, t.lineNumbers, options);
}

}  // namespace warplab::io
