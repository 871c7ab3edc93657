// A study's recordings and channels by keyword, seizures added for one call, and the channel
// filtered to a band: what find_patterns, Detector.build and crossval over a study share.
#include "py_study.h"

#include <algorithm>

#include "compute/core/error.h"
#include "compute/spectral/band_filter.h"

namespace warplab::python {

int PyStudy::recording(const py::handle& r) const {
    return indexOrName(r, study->recordings().size(), [&](const std::string& n) { return study->findRecording(n); },
                       study->sourcePath(), "recording", "recordings", "the study has no recording");
}

int PyStudy::channel(const py::handle& c) const {
    return indexOrName(c, study->channels().size(), [&](const std::string& n) { return study->findChannel(n); },
                       study->sourcePath(), "channel", "channels", "no recording of the study has a channel");
}

int PyStudy::channelOrDefault(const py::handle& c) const {
    if (!c.is_none()) return channel(c);
    if (study->channels().empty())
        throw compute::EngineError(compute::EngineError::Kind::BadInput, "channel",
                                   study->sourcePath() + ": the study has no channel");
    return std::max(0, study->findChannel("FP1-F7"));
}

ExtraSeizures::ExtraSeizures(PyStudy& s, const py::handle& seizures) : study_(*s.study) {
    if (seizures.is_none()) return;
    try {
        std::size_t i = 0;
        for (const py::handle item : seizures) {
            const std::string field = "seizures[" + std::to_string(i++) + "]";
            if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item) || py::len(item) != 3)
                throw py::value_error(field + ": give (recording, start, end), seconds from that recording's start");
            const auto seq = item.cast<py::sequence>();
            const int r = s.recording(seq[0]);
            if (!before_.count(r)) before_[r] = study_.regionsOf(r);
            study_.addRegions(r, {{io::RegionKind::Seizure, -1, seq[1].cast<double>(), seq[2].cast<double>(), "seizures"}});
        }
    } catch (...) {
        // The destructor of an object whose constructor threw does not run: restore here.
        for (auto& [r, regions] : before_) study_.setRegions(r, regions);
        throw;
    }
}

ExtraSeizures::~ExtraSeizures() {
    for (auto& [r, regions] : before_) study_.setRegions(r, regions);
}

compute::LoadedSamples filteredSegments(compute::PatternRequest& request, const py::handle& freqBand, int order) {
    compute::LoadedSamples loaded;
    if (freqBand.is_none()) return loaded;
    const compute::spectral::FrequencyBand b = toBand(freqBand);
    loaded = compute::loadSegments(request);
    if (!loaded.samples) return loaded;
    for (auto& seg : request.segments) {
        std::vector<float> f;
        try {
            f = compute::spectral::bandFilter(seg.samples, request.rateHz, b, order);
        } catch (const compute::EngineError& e) {
            throw compute::EngineError(e.kind(), "freq_band", seg.recording + ": " + e.what());
        }
        std::copy(f.begin(), f.end(), loaded.samples.get() + (seg.samples.data() - loaded.samples.get()));
    }
    return loaded;
}

}  // namespace warplab::python
