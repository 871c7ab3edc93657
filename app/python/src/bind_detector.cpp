// The seizure detector (compute/detect/detector.h) from Python: built from a study's pattern
// ranking as `warplab-cli detect --study` builds it, loaded and saved as the versioned file of
// io/detector_file.h, applied to a recording as `detect --apply` applies it; and crossval(),
// the leave-one-out cross-validation of `warplab-cli crossval`, returned as the JSON that
// `crossval --json` prints (io::appendCrossvalJson).
#include <charconv>
#include <cstdio>

#include <pybind11/stl.h>

#include <nlohmann/json.hpp>

#include "compute/core/error.h"
#include "compute/detect/crossval.h"
#include "compute/detect/detector.h"
#include "compute/spectral/frequency_band.h"
#include "io/detector_file.h"
#include "io/events_tsv.h"
#include "io/recording.h"
#include "io/score_json.h"
#include "py_common.h"
#include "py_study.h"

namespace warplab::python {

namespace {

using K = compute::EngineError::Kind;

struct PyDetector {
    compute::Detector d;
};

// The detector options of warplab/detector.py, as a dict with the keywords' names: channel,
// seizures, epoch, stride, band, top, operating_point, votes, min_epochs, event_gap,
// skip_missing, freq_band.
struct DetectorArgs {
    py::object channel, seizures, freqBand;
    int epoch = 1024, stride = 256, band = 16;
    compute::BuildOptions build;
    bool skipMissing = false;
};

DetectorArgs detectorArgs(const py::dict& o) {
    DetectorArgs a;
    a.channel = o["channel"];
    a.seizures = o["seizures"];
    a.freqBand = o["freq_band"];
    a.epoch = o["epoch"].cast<int>();
    a.stride = o["stride"].cast<int>();
    a.band = o["band"].cast<int>();
    const long long top = o["top"].cast<long long>();
    if (top < 1) throw py::value_error("top: at least one pattern per channel, got " + std::to_string(top));
    a.build.top = std::size_t(top);
    const std::string op = o["operating_point"].cast<std::string>();
    const auto parsed = compute::parseOperatingPoint(op);
    if (!parsed)
        throw py::value_error("operating_point: must be \"youden\" or \"fpr:RATE\" with RATE in [0, 1], got \"" + op + "\"");
    a.build.operatingPoint = *parsed;
    a.build.rule.votes = o["votes"].cast<int>();
    a.build.rule.minEpochs = o["min_epochs"].cast<int>();
    a.build.rule.mergeGapS = o["event_gap"].cast<double>();
    if (a.build.rule.votes < 1) throw py::value_error("votes: at least 1, got " + std::to_string(a.build.rule.votes));
    if (a.build.rule.minEpochs < 1)
        throw py::value_error("min_epochs: at least 1, got " + std::to_string(a.build.rule.minEpochs));
    if (!(a.build.rule.mergeGapS >= 0)) throw py::value_error("event_gap: seconds >= 0");
    a.skipMissing = o["skip_missing"].cast<bool>();
    if (!a.freqBand.is_none()) {
        const auto b = toBand(a.freqBand);
        // The text the detector file keeps and its sweep parses again (io/detector_file.h):
        // "8-13" or "alpha=8-13", the edges in their shortest exact form.
        auto hz = [](double v) {
            char buf[32];
            return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
        };
        a.build.filter = (b.name.empty() ? "" : b.name + "=") + hz(b.lowHz) + "-" + hz(b.highHz);
    }
    return a;
}

// Refuses a study with recordings that cannot be read, as the CLI does without --skip-missing.
void requireReadable(const io::Study& st, bool skipMissing) {
    std::vector<int> bad = st.missing();
    const auto damaged = st.damaged();
    bad.insert(bad.end(), damaged.begin(), damaged.end());
    if (!bad.empty() && !skipMissing) {
        std::string list;
        for (std::size_t k = 0; k < bad.size() && k < 10; ++k)
            list += (k ? ", " : "") + st.recordings()[std::size_t(bad[k])].name + " (" +
                    std::string(io::recordingStatusName(st.recordings()[std::size_t(bad[k])].status)) + ")";
        if (bad.size() > 10) list += ", ... (" + std::to_string(bad.size()) + " in all)";
        throw compute::EngineError(K::BadInput, "study",
                                   st.sourcePath() + ": " + std::to_string(bad.size()) + " of " +
                                       std::to_string(st.recordings().size()) + " recordings cannot be read: " + list +
                                       "; skip_missing=True goes on without them");
    }
    if (bad.size() == st.recordings().size())
        throw compute::EngineError(K::BadInput, "study", st.sourcePath() + ": no readable recording in the study");
}

// The requests of a detector (one per channel, one segment per recording that has it) and the
// buffers of their band-filtered samples.
struct StudyRequests {
    std::vector<compute::PatternRequest> requests;
    std::vector<compute::LoadedSamples> loaded;
};

StudyRequests studyRequests(const PyStudy& s, const DetectorArgs& a) {
    std::vector<int> channels;
    if (a.channel.is_none() || py::isinstance<py::str>(a.channel) || py::isinstance<py::int_>(a.channel))
        channels.push_back(s.channelOrDefault(a.channel));
    else
        for (const py::handle c : a.channel) channels.push_back(s.channel(c));
    if (channels.empty()) throw py::value_error("channel: give a channel, a list of them, or None (the default)");
    StudyRequests out;
    for (int c : channels) {
        std::vector<std::string> skipped;
        compute::PatternRequest r = io::studyPatternRequest(*s.study, c, &skipped);
        for (const auto& k : skipped) {
            const std::string w = "channel " + s.study->channels()[std::size_t(c)].name + ": skipping " + k;
            if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0) throw py::error_already_set();
        }
        r.epoch = a.epoch;
        r.stride = a.stride;
        r.band = a.band;
        r.keepMatrixUpToBytes = 0;
        out.requests.push_back(std::move(r));
    }
    for (auto& r : out.requests) out.loaded.push_back(filteredSegments(r, a.freqBand, compute::spectral::kDefaultBandOrder));
    return out;
}

// A copy of `run` whose progress covers [lo, hi] of the caller's.
compute::RunOptions stage(const compute::RunOptions& run, double lo, double hi) {
    compute::RunOptions r = run;
    if (run.progress) r.progress = [&run, lo, hi](double f) { run.progress(lo + (hi - lo) * f); };
    return r;
}

PyDetector build(PyStudy& s, const py::dict& options, const std::string& backend, const std::string& kernel,
                 int threads, const py::handle& devices, const py::handle& progress) {
    const DetectorArgs a = detectorArgs(options);
    compute::RunOptions run = toRunOptions(backend, kernel, threads, devices);
    requireReadable(*s.study, a.skipMissing);
    const ExtraSeizures extra(s, a.seizures);
    StudyRequests req = studyRequests(s, a);
    PyDetector out;
    runJob(run, true, [&] {
        const auto rankings = compute::findPatterns(req.requests, stage(run, 0.0, 0.7));
        out.d = compute::buildDetector(req.requests, rankings, a.build, stage(run, 0.7, 1.0));
    }, progress);
    return out;
}

PyDetector load(const std::string& path) {
    requireExistingFile(path, "detector");
    return {io::loadDetector(path)};
}

// (events as (onset, duration, confidence), the recording's length); the events also written
// to `eventsOut` (when not empty) as the BIDS events table `detect --apply` writes.
py::tuple apply(const PyDetector& p, const std::string& recordingPath, const std::string& eventsOut,
                const std::string& backend, int threads, const py::handle& devices, const py::handle& progress) {
    requireExistingFile(recordingPath, "recording");
    io::OpenOptions open;
    open.readAnnotations = false;
    const auto rec = io::Recording::open(recordingPath, open);
    compute::RunOptions ro = toRunOptions(backend, "", threads, devices);
    compute::Detection det;
    runJob(ro, true, [&] { det = io::detectInRecording(p.d, *rec, ro); }, progress);
    std::vector<std::tuple<double, double, double>> out;
    io::EventTable table;
    table.recordingDurationS = rec->durationS();
    std::string channels;
    for (const auto& c : p.d.channels()) channels += (channels.empty() ? "" : ",") + c;
    for (const auto& e : det.events) {
        out.emplace_back(e.startS, e.endS - e.startS, e.confidence);
        table.rows.push_back({e.startS, e.endS - e.startS, "sz", channels, e.confidence, ""});
    }
    if (!eventsOut.empty()) io::writeEventsTsv(eventsOut, table);
    return py::make_tuple(out, rec->durationS());
}

py::tuple detect(const std::string& detectorPath, const std::string& recordingPath, const std::string& eventsOut,
                 const std::string& backend, int threads, const py::handle& devices) {
    const PyDetector d = load(detectorPath);
    return apply(d, recordingPath, eventsOut, backend, threads, devices, py::none());
}

// The dict of `warplab-cli crossval --json`: fold_kind, then io::appendCrossvalJson's keys.
py::object crossval(PyStudy& s, const py::dict& options, const std::string& folds, const py::dict& scoring,
                    const std::string& backend, const std::string& kernel, int threads, const py::handle& devices,
                    const py::handle& progress) {
    compute::CrossvalOptions co;
    if (folds == "seizure") co.folds = compute::CrossvalFolds::Seizure;
    else if (folds == "recording") co.folds = compute::CrossvalFolds::Recording;
    else throw py::value_error("folds: \"seizure\" or \"recording\", not \"" + folds + "\"");
    auto seconds = [&](const char* key) {
        const double v = scoring[key].cast<double>();
        if (!(v >= 0)) throw py::value_error(std::string(key) + ": seconds >= 0, got " + std::to_string(v));
        return v;
    };
    co.event.toleranceBeforeS = seconds("tolerance_before");
    co.event.toleranceAfterS = seconds("tolerance_after");
    co.event.mergeGapS = seconds("merge_gap");
    co.event.maxEventS = seconds("max_event");
    co.event.minOverlap = scoring["min_overlap"].cast<double>();
    if (!(co.event.minOverlap >= 0 && co.event.minOverlap < 1)) throw py::value_error("min_overlap: a fraction in [0, 1)");
    co.sample.sampleHz = scoring["sample_rate"].cast<double>();
    if (!(co.sample.sampleHz > 0)) throw py::value_error("sample_rate: Hz > 0");
    const DetectorArgs a = detectorArgs(options);
    co.build = a.build;
    compute::RunOptions run = toRunOptions(backend, kernel, threads, devices);
    requireReadable(*s.study, a.skipMissing);
    const ExtraSeizures extra(s, a.seizures);
    StudyRequests req = studyRequests(s, a);
    compute::CrossvalResult res;
    runJob(run, true, [&] { res = compute::crossValidate(req.requests, co, run); }, progress);
    nlohmann::ordered_json j;
    j["fold_kind"] = folds;
    io::appendCrossvalJson(j, res);
    return fromJson(j.dump());
}

py::dict patternDict(const compute::DetectorPattern& p) {
    py::dict d;
    d["channel"] = p.channel;
    d["threshold"] = p.threshold;
    d["quality"] = p.quality;
    d["training_tpr"] = p.trainingTpr;
    d["training_fpr"] = p.trainingFpr;
    d["recording"] = p.recording;
    d["start_s"] = p.startS;
    auto samples = newArray<float>({py::ssize_t(p.samples.size())});
    std::copy(p.samples.begin(), p.samples.end(), samples.mutable_data());
    d["samples"] = samples;
    return d;
}

bool equal(const compute::Detector& a, const compute::Detector& b) {
    auto same = [](const compute::DetectorPattern& x, const compute::DetectorPattern& y) {
        return x.channel == y.channel && x.samples == y.samples && x.threshold == y.threshold &&
               x.quality == y.quality && x.trainingTpr == y.trainingTpr && x.trainingFpr == y.trainingFpr &&
               x.recording == y.recording && x.startS == y.startS;
    };
    return a.rateHz == b.rateHz && a.epoch == b.epoch && a.stride == b.stride && a.band == b.band &&
           a.filter == b.filter && compute::operatingPointName(a.operatingPoint) == compute::operatingPointName(b.operatingPoint) &&
           a.rule.votes == b.rule.votes && a.rule.minEpochs == b.rule.minEpochs && a.rule.mergeGapS == b.rule.mergeGapS &&
           std::equal(a.patterns.begin(), a.patterns.end(), b.patterns.begin(), b.patterns.end(), same);
}

std::string repr(const compute::Detector& d) {
    std::string channels;
    for (const auto& c : d.channels()) channels += (channels.empty() ? "" : ", ") + c;
    char rate[32];
    std::snprintf(rate, sizeof rate, "%g Hz", d.rateHz);
    return "<warplab.Detector " + std::to_string(d.patterns.size()) + " patterns on " + channels + ", " + rate + ", " +
           (d.filter.empty() ? "" : d.filter + " Hz, ") + compute::operatingPointName(d.operatingPoint) + ", votes " +
           std::to_string(d.rule.votes) + ">";
}

}  // namespace

void bindDetector(py::module_& m) {
    using namespace py::literals;
    py::class_<PyDetector>(m, "_Detector", "A seizure detector (use warplab.Detector).")
        .def_property_readonly("channels", [](const PyDetector& p) { return p.d.channels(); })
        .def_property_readonly("rate", [](const PyDetector& p) { return p.d.rateHz; })
        .def_property_readonly("epoch", [](const PyDetector& p) { return p.d.epoch; })
        .def_property_readonly("stride", [](const PyDetector& p) { return p.d.stride; })
        .def_property_readonly("band", [](const PyDetector& p) { return p.d.band; })
        .def_property_readonly("freq_band", [](const PyDetector& p) {
            return p.d.filter.empty() ? py::object(py::none()) : py::object(py::str(p.d.filter));
        })
        .def_property_readonly("operating_point", [](const PyDetector& p) { return compute::operatingPointName(p.d.operatingPoint); })
        .def_property_readonly("rule", [](const PyDetector& p) {
            py::dict r;
            r["votes"] = p.d.rule.votes;
            r["min_epochs"] = p.d.rule.minEpochs;
            r["event_gap"] = p.d.rule.mergeGapS;
            return r;
        })
        .def_property_readonly("patterns", [](const PyDetector& p) {
            py::list out;
            for (const auto& q : p.d.patterns) out.append(patternDict(q));
            return out;
        })
        .def("save", [](const PyDetector& p, const std::string& path) { io::saveDetector(path, p.d); })
        .def("equals", [](const PyDetector& a, const PyDetector& b) { return equal(a.d, b.d); })
        .def("__repr__", [](const PyDetector& p) { return repr(p.d); });
    m.def("detector_build", &build, "study"_a, "options"_a, "backend"_a, "kernel"_a, "threads"_a, "devices"_a,
          "progress"_a);
    m.def("detector_load", &load, "path"_a);
    m.def("detector_apply", &apply, "detector"_a, "recording"_a, "events_out"_a, "backend"_a, "threads"_a,
          "devices"_a, "progress"_a);
    m.def("detect", &detect);
    m.def("crossval", &crossval, "study"_a, "options"_a, "folds"_a, "scoring"_a, "backend"_a, "kernel"_a,
          "threads"_a, "devices"_a, "progress"_a);
}

}  // namespace warplab::python
