// The Study object of the module (warplab.open_study) as every binding that takes one sees it,
// and what pattern discovery, the detector and cross-validation over a study share: the channel
// a keyword names, seizures added for one call, and the channel filtered to a frequency band.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compute/patterns/pattern_discovery.h"
#include "io/study.h"
#include "py_common.h"

namespace warplab::python {

struct PyStudy {
    std::shared_ptr<io::Study> study;

    // The index of a recording (file name or index) or a channel (name or index); IoError naming it.
    int recording(const py::handle& r) const;
    int channel(const py::handle& c) const;
    // None: FP1-F7 when the study has it, else its first channel (as warplab-cli picks).
    int channelOrDefault(const py::handle& c) const;
};

// Seizures (recording, start, end) triples, seconds from that recording's start, added to the
// study for one call (None: none); the study's own regions come back when this goes out of scope.
class ExtraSeizures {
public:
    ExtraSeizures(PyStudy& s, const py::handle& seizures);
    ~ExtraSeizures();
    ExtraSeizures(const ExtraSeizures&) = delete;
    ExtraSeizures& operator=(const ExtraSeizures&) = delete;

private:
    io::Study& study_;
    std::map<int, std::vector<io::Region>> before_;
};

// Reads every segment of `request` into memory and filters each recording's channel on its own
// to `freqBand` (as warplab-cli patterns --study --freq-band: no filter runs across the end of one
// file into the next). None: nothing is read here. The returned buffer holds the samples the
// request's segments then view; keep it for as long as the request is used.
compute::LoadedSamples filteredSegments(compute::PatternRequest& request, const py::handle& freqBand, int order);

}  // namespace warplab::python
