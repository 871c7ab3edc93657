// open_study (a folder, a CHB-MIT summary or a list of files, as io::Study opens them) and
// find_patterns over a study, as `warplab-cli info` and `warplab-cli patterns --study` see them.
#include <filesystem>
#include <memory>

#include <pybind11/stl.h>

#include "compute/patterns/pattern_discovery.h"
#include "compute/spectral/frequency_band.h"
#include "io/io_error.h"
#include "io/study.h"
#include "py_common.h"
#include "py_study.h"

namespace warplab::python {

namespace {

py::array_t<float> readStudy(const PyStudy& s, const py::handle& rec, const py::handle& chan, long long start,
                             const py::handle& stopObj) {
    const int r = s.recording(rec), c = s.channel(chan);
    const long long samples = s.study->sampleCount(r, c);
    const long long stop = readStop(start, stopObj, samples, s.study->recordings()[std::size_t(r)].path);
    py::array_t<float> out = newArray<float>({py::ssize_t(stop - start)});
    float* dst = out.mutable_data();
    {
        py::gil_scoped_release release;
        if (stop > start) s.study->read(r, c, start, stop - start, dst);
    }
    return out;
}

PyStudy openStudy(const py::handle& pathOrList, const py::handle& summary, const py::handle& annotation,
                  bool recursive) {
    io::StudyOptions options;
    if (!summary.is_none()) {
        options.seizureSummary = summary.cast<std::string>();
        requireExistingFile(options.seizureSummary, "summary");
    }
    if (!annotation.is_none()) options.annotationPattern = annotation.cast<std::string>();
    options.recursive = recursive;
    std::unique_ptr<io::Study> study;
    if (py::isinstance<py::str>(pathOrList)) {
        const std::string path = pathOrList.cast<std::string>();
        requireExistingFile(path, "study");
        py::gil_scoped_release release;
        study = io::Study::open(path, options);
    } else {
        std::vector<std::string> files;
        for (const py::handle f : pathOrList) {
            files.push_back(f.cast<std::string>());
            requireExistingFile(files.back(), "study[" + std::to_string(files.size() - 1) + "]");
        }
        py::gil_scoped_release release;
        study = io::Study::openList(files, options);
    }
    return PyStudy{std::shared_ptr<io::Study>(std::move(study))};
}

// The ranking with where each pattern lies: recording, seconds from its start, clock time.
py::object studyRankingArray(const io::Study& study, const compute::PatternRanking& ranking, int top) {
    const std::size_t n = top > 0 ? std::min<std::size_t>(std::size_t(top), ranking.ranked.size()) : ranking.ranked.size();
    py::list rows;
    std::size_t widest = 1, widestClock = 1;
    for (std::size_t k = 0; k < n; ++k) {
        const auto& p = ranking.ranked[k];
        const std::string& rec = ranking.segments[p.segment].recording;
        const std::string clock = study.clockText(p.clockS);
        widest = std::max(widest, rec.size());
        widestClock = std::max(widestClock, clock.size());
        rows.append(py::make_tuple(static_cast<long long>(k + 1), p.quality, static_cast<long long>(p.index), rec,
                                   p.startS, clock));
    }
    py::list dtype;
    dtype.append(py::make_tuple("rank", "<i8"));
    dtype.append(py::make_tuple("quality", "<f8"));
    dtype.append(py::make_tuple("pattern_index", "<i8"));
    dtype.append(py::make_tuple("recording", "<U" + std::to_string(widest)));
    dtype.append(py::make_tuple("start_seconds", "<f8"));
    dtype.append(py::make_tuple("clock_time", "<U" + std::to_string(widestClock)));
    return py::module_::import("numpy").attr("array")(rows, dtype);
}

// seizures: None (the study's own) or (recording, start, end) triples, seconds from that
// recording's start, added for this call only.
py::object studyFindPatterns(PyStudy& s, const py::handle& channelObj, const py::handle& seizures, int epoch,
                             int stride, int band, const std::string& quality, int top, const std::string& backend,
                             const std::string& kernel, int threads, const py::handle& devices,
                             const py::handle& progress, const py::handle& freqBand, int freqBandOrder) {
    io::Study& study = *s.study;
    const auto q = compute::parseQuality(quality);
    if (!q) throw py::value_error("quality: unknown quality '" + quality + "' (auc, infogain)");
    compute::RunOptions run = toRunOptions(backend, kernel, threads, devices);
    const int c = s.channelOrDefault(channelObj);
    const ExtraSeizures extra(s, seizures);
    compute::PatternRequest request = io::studyPatternRequest(study, c);
    request.keepMatrixUpToBytes = 0;
    request.epoch = epoch;
    request.stride = stride;
    request.band = band;
    request.quality = *q;
    const compute::LoadedSamples loaded = filteredSegments(request, freqBand, freqBandOrder);
    compute::PatternRanking ranking;
    runJob(run, true, [&] { ranking = compute::findPatterns(request, run); }, progress);
    return studyRankingArray(study, ranking, top);
}

}  // namespace

void bindStudy(py::module_& m) {
    using namespace py::literals;
    py::class_<PyStudy>(m, "Study",
                        "An opened study (warplab.open_study): its recordings, channels matched across them, "
                        "seizures, and read() of one recording's channel on demand.")
        .def_property_readonly("path", [](const PyStudy& s) { return s.study->sourcePath(); })
        .def_property_readonly("source", [](const PyStudy& s) { return std::string(io::studySourceName(s.study->source())); })
        .def_property_readonly("recordings",
                               [](const PyStudy& s) {
                                   py::list out;
                                   for (const auto& r : s.study->recordings()) {
                                       py::dict d;
                                       d["name"] = r.name;
                                       d["path"] = r.path;
                                       d["status"] = std::string(io::recordingStatusName(r.status));
                                       d["error"] = r.error;
                                       d["start"] = r.startIso;
                                       d["offset_seconds"] = r.offsetS;
                                       d["duration"] = r.durationS;
                                       d["channels"] = int(r.signals.size());
                                       out.append(d);
                                   }
                                   return out;
                               })
        .def_property_readonly("channels", [](const PyStudy& s) { return pluck(s.study->channels(), [](const auto& c) { return c.name; }); })
        .def_property_readonly("rates", [](const PyStudy& s) { return pluck(s.study->channels(), [](const auto& c) { return c.rateHz; }); })
        .def_property_readonly("seizures",
                               [](const PyStudy& s) {
                                   py::list out;
                                   for (const auto& z : s.study->seizures())
                                       out.append(py::make_tuple(s.study->recordings()[std::size_t(z.recording)].name,
                                                                 z.startS, z.endS, z.source));
                                   return out;
                               })
        .def_property_readonly("gaps",
                               [](const PyStudy& s) {
                                   std::vector<double> out;
                                   for (const auto& g : s.study->gaps()) out.push_back(g.seconds);
                                   return out;
                               })
        .def_property_readonly("warnings", [](const PyStudy& s) { return s.study->warnings(); })
        .def("read", &readStudy, "recording"_a, "channel"_a, "start"_a = 0, "stop"_a = py::none(),
             "Samples [start, stop) of a channel (name, label, \"#N\" or index) of one recording (file name or "
             "index) as float32 physical values.")
        .def("__len__", [](const PyStudy& s) { return s.study->recordings().size(); })
        .def("__repr__", [](const PyStudy& s) {
            return "<warplab.Study " + s.study->sourcePath() + ": " + std::to_string(s.study->recordings().size()) +
                   " recordings, " + std::to_string(s.study->channels().size()) + " channels, " +
                   std::to_string(s.study->seizures().size()) + " seizures>";
        });
    m.def("open_study", &openStudy, "path"_a, "summary"_a, "annotation"_a, "recursive"_a);
    m.def("study_find_patterns", &studyFindPatterns, "study"_a, "channel"_a, "seizures"_a, "epoch"_a, "stride"_a,
          "band"_a, "quality"_a, "top"_a, "backend"_a, "kernel"_a, "threads"_a, "devices"_a, "progress"_a,
          "freq_band"_a = py::none(), "freq_band_order"_a = compute::spectral::kDefaultBandOrder);
}

}  // namespace warplab::python
