// The one reference of a search under mpirun, read by parts: each rank reads only the samples
// of its stretch from an EDF/BDF channel (window) or a one-series .npy array (1-D, one row or
// one column), so that reading a long reference is split over the ranks as the search is.
// Text and CSV have no index to seek by: they are read whole, once, and the parts cut from
// memory.
#pragma once
#include <cstddef>
#include <string>

#include "app/cli/common_options.h"
#include "compute/core/series.h"
#include "io/npy.h"
#include "io/series_file.h"

namespace warplab::cli {

class ReferenceParts {
public:
    // Reads the header only for a recording, the whole file otherwise (the errors of
    // readOneSeries: the file, field and reason).
    ReferenceParts(const std::string& path, const SeriesFlags& flags);
    std::size_t length() const { return length_; }
    const std::string& path() const { return path_; }
    // Samples [from, to) of the reference (to <= length()): the values of that slice of
    // readOneSeries's series.
    compute::Series read(std::size_t from, std::size_t to) const;

private:
    std::string path_;
    std::size_t length_ = 0;
    io::ChannelWindow window_;  // a recording's channel window
    io::NpyLayout npy_;         // a one-series .npy (count 0 otherwise)
    std::string npyName_;       // the series name readOneSeries gives it
    compute::Series whole_;     // any other file
};

}  // namespace warplab::cli
