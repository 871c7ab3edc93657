// A search reference read by parts (reference_parts.h).
#include "app/cli/reference_parts.h"

#include <filesystem>
#include <utility>

#include "io/matrix_formats.h"

namespace warplab::cli {

namespace {
// A .npy that readOneSeries reads as one series: 1-D, one row or one column, read as it is
// (no label column, not multivariate, no EDF options, which readOneSeries refuses by name).
bool oneSeriesNpy(const std::string& path, const SeriesFlags& flags, io::NpyLayout& layout) {
    if (io::lowerExtension(path) != ".npy" || flags.labelColumn || flags.multivariate || !flags.channel.empty() || !flags.window.empty())
        return false;
    layout = io::readNpyLayout(path);
    const auto& d = layout.shape;
    return layout.count > 0 && (d.size() == 1 || d[0] == 1 || d[1] == 1);
}
}  // namespace

ReferenceParts::ReferenceParts(const std::string& path, const SeriesFlags& flags) : path_(path) {
    if (io::isRecordingFile(path)) {
        window_ = io::locateChannelWindow(path, toSeriesFileOptions(flags));
        length_ = std::size_t(window_.count);
    } else if (io::NpyLayout l; oneSeriesNpy(path, flags, l)) {
        npy_ = std::move(l);
        npyName_ = std::filesystem::path(path).stem().string() + ":0";
        length_ = npy_.count;
    } else {
        whole_ = readOneSeries(path, flags, "reference");
        length_ = whole_.length;
    }
}

compute::Series ReferenceParts::read(std::size_t from, std::size_t to) const {
    if (window_.recording) return io::readChannelWindow(window_, (long long)from, (long long)to);
    if (npy_.count > 0) {
        const std::vector<double> v = io::readNpyValues(path_, npy_, from, to - from);
        return compute::Series(std::vector<float>(v.begin(), v.end()), 1, npyName_);
    }
    compute::Series part(std::vector<float>(whole_.values.begin() + std::ptrdiff_t(from * whole_.dims),
                                            whole_.values.begin() + std::ptrdiff_t(to * whole_.dims)),
                         whole_.dims, whole_.name);
    part.label = whole_.label;
    return part;
}

}  // namespace warplab::cli
