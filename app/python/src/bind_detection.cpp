// score() and read_events(): SzCORE scoring (compute/scoring) of reference and detection events
// (io/events_tsv.h, io/reference_events.h), with the keys of `warplab-cli score --json`. The
// detector itself is bind_detector.cpp.
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>

#include "compute/scoring/scoring.h"
#include "io/reference_events.h"
#include "io/score_json.h"
#include "py_common.h"

namespace warplab::python {

namespace {

using Spans = std::vector<std::pair<double, double>>;

std::vector<compute::TimedEvent> events(const Spans& spans) {
    std::vector<compute::TimedEvent> out;
    for (const auto& [a, b] : spans) out.push_back({a, b});
    return out;
}

py::object score(const Spans& ref, const Spans& hyp, double duration, double before, double after, double mergeGap,
                 double maxEvent, double minOverlap, double sampleHz) {
    compute::EventScoringOptions eo;
    eo.toleranceBeforeS = before;
    eo.toleranceAfterS = after;
    eo.mergeGapS = mergeGap;
    eo.maxEventS = maxEvent;
    eo.minOverlap = minOverlap;
    const auto ev = compute::scoreEvents(events(ref), events(hyp), duration, eo);
    const auto sa = compute::scoreSamples(events(ref), events(hyp), duration, {sampleHz});
    nlohmann::ordered_json j;
    j["event"] = io::scoresJson(ev.scores);
    j["sample"] = io::scoresJson(sa);
    j["duration_s"] = duration;
    j["seizures"] = io::seizureOutcomesJson(ev.seizures);
    return fromJson(j.dump());
}

// (seizure spans, the recording's length or None, the kind of source)
py::tuple readReference(const std::string& path, const std::string& recording) {
    requireExistingFile(path, "events");
    const io::ReferenceEvents r = io::readReferenceEvents(path, recording);
    Spans spans;
    for (const auto& e : r.events) spans.emplace_back(e.startS, e.endS);
    return py::make_tuple(spans, r.durationS ? py::object(py::float_(*r.durationS)) : py::object(py::none()), r.source);
}

}  // namespace

void bindDetection(py::module_& m) {
    m.def("score", &score);
    m.def("read_reference", &readReference);
}

}  // namespace warplab::python
