// A search reference read by parts (reference_parts.h).
#include "app/cli/reference_parts.h"

#include <utility>

namespace warplab::cli {

ReferenceParts::ReferenceParts(const std::string& path, const SeriesFlags& flags) : path_(path) {
    if (io::isRecordingFile(path)) {
        window_ = io::locateChannelWindow(path, toSeriesFileOptions(flags));
        length_ = std::size_t(window_.count);
    } else {
        whole_ = readOneSeries(path, flags, "reference");
        length_ = whole_.length;
    }
}

compute::Series ReferenceParts::read(std::size_t from, std::size_t to) const {
    if (byParts()) return io::readChannelWindow(window_, (long long)from, (long long)to);
    compute::Series part(std::vector<float>(whole_.values.begin() + std::ptrdiff_t(from * whole_.dims),
                                            whole_.values.begin() + std::ptrdiff_t(to * whole_.dims)),
                         whole_.dims, whole_.name);
    part.label = whole_.label;
    return part;
}

}  // namespace warplab::cli
