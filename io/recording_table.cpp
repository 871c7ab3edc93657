// Text, CSV/TSV and NPY files shown as a recording. These files are small enough to hold in
// memory; the layout (channels in columns or series in rows) is detected and reported.
#include <algorithm>
#include <filesystem>

#include "io/file_bytes.h"
#include "io/io_error.h"
#include "io/npy.h"
#include "io/number_column.h"
#include "io/recording_backends.h"
#include "io/text_table.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace {

class TableRecording final : public Recording {
public:
    TableRecording(std::string path, Format format, double rateHz) : path_(std::move(path)), format_(format) {
        rate_ = rateHz > 0 ? rateHz : 1.0;
        if (!(rateHz > 0)) warnings_.push_back("no sample rate given: 1 Hz assumed (seconds equal samples)");
    }
    void addChannel(std::string label, std::vector<float> values) {
        SignalInfo s;
        s.index = int(signals_.size());
        s.label = std::move(label);
        s.rateHz = rate_;
        s.samples = static_cast<long long>(values.size());
        if (!values.empty()) {
            auto [lo, hi] = std::minmax_element(values.begin(), values.end());
            s.physicalMin = *lo;
            s.physicalMax = *hi;
        }
        duration_ = std::max(duration_, double(values.size()) / rate_);
        signals_.push_back(std::move(s));
        data_.push_back(std::move(values));
    }
    void finish(std::string layout) {
        layout_ = std::move(layout);
        assignDisplayNames(signals_);
    }

    const std::string& path() const override { return path_; }
    Format format() const override { return format_; }
    std::string startIso() const override { return {}; }
    double durationS() const override { return duration_; }
    const std::vector<SignalInfo>& signals() const override { return signals_; }
    const std::vector<Annotation>& annotations() const override { return annotations_; }
    const std::vector<std::string>& warnings() const override { return warnings_; }
    std::string layout() const override { return layout_; }

    std::vector<float> read(int signal, long long start, long long count) const override {
        checkReadWindow(signal, start, count);
        const auto& d = data_[signal];
        return std::vector<float>(d.begin() + start, d.begin() + start + count);
    }

private:
    std::string path_;
    Format format_;
    double rate_ = 1, duration_ = 0;
    std::vector<SignalInfo> signals_;
    std::vector<std::vector<float>> data_;
    std::vector<Annotation> annotations_;
    std::vector<std::string> warnings_;
    std::string layout_;
};

std::vector<float> toFloat(const double* p, std::size_t n) { return std::vector<float>(p, p + n); }

}  // namespace

std::unique_ptr<Recording> openTableRecording(const std::string& path, double rateHz) {
    std::string ext = lower(std::filesystem::path(path).extension().string());
    if (ext == ".npy") {
        NpyArray a = readNpy(path);
        if (a.data.empty()) throw IoError(path, "shape", "an empty array holds no samples");
        auto rec = std::make_unique<TableRecording>(path, Format::Npy, rateHz);
        if (a.shape.size() == 1) {
            rec->addChannel("#0", toFloat(a.data.data(), a.data.size()));
            rec->finish("one channel (1-D array)");
        } else {
            for (std::size_t r = 0; r < a.rows(); ++r)
                rec->addChannel("row " + std::to_string(r), toFloat(a.data.data() + r * a.cols(), a.cols()));
            rec->finish("one channel per row (2-D array, rows x samples)");
        }
        return rec;
    }
    const Format format = ext == ".csv" || ext == ".tsv" ? Format::Csv : Format::Text;
    const FileBytes content(path);
    // One number a line (a long channel exported as text): straight into one channel, as the
    // single-column case below names and describes it, without a row vector per line.
    if (auto column = parseNumberColumn(content.view())) {
        auto rec = std::make_unique<TableRecording>(path, format, rateHz);
        rec->addChannel("column 1", std::move(*column));
        rec->finish("one channel per column");
        return rec;
    }
    TextTable t = parseTextTable(path, content.view());
    auto rec = std::make_unique<TableRecording>(path, format, rateHz);
    std::size_t width = 0;
    bool equal = true;
    for (const auto& r : t.rows) {
        if (width && r.size() != width) equal = false;
        width = std::max(width, r.size());
    }
    // Channels in columns when a header names them, when there is a single column, or when a
    // rectangular table is much taller than wide; otherwise each row is one series (UCR style).
    const bool columns = !t.header.empty() || width == 1 || (equal && t.rows.size() > 4 * width);
    if (columns) {
        if (!equal)
            for (std::size_t i = 0; i < t.rows.size(); ++i)
                if (t.rows[i].size() != width)
                    throw IoError(path, "line " + std::to_string(t.lineNumbers[i]),
                                  std::to_string(t.rows[i].size()) + " values where the table has " + std::to_string(width) + " columns");
        if (!t.header.empty() && t.header.size() != width)
            throw IoError(path, "header", std::to_string(t.header.size()) + " names for " + std::to_string(width) + " columns");
        for (std::size_t c = 0; c < width; ++c) {
            std::vector<float> v(t.rows.size());
            for (std::size_t r = 0; r < t.rows.size(); ++r) v[r] = float(t.rows[r][c]);
            rec->addChannel(t.header.empty() ? "column " + std::to_string(c + 1) : t.header[c], std::move(v));
        }
        rec->finish(t.header.empty() ? "one channel per column" : "one channel per column (header names)");
    } else {
        for (std::size_t r = 0; r < t.rows.size(); ++r)
            rec->addChannel("line " + std::to_string(t.lineNumbers[r]), toFloat(t.rows[r].data(), t.rows[r].size()));
        rec->finish("one series per row");
    }
    return rec;
}

}  // namespace warplab::io
