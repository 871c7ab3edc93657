// open_recording (channels, rates, annotations, read) and find_patterns on a recording or on
// an array with seizure intervals, as `warplab-cli info` and `warplab-cli patterns` see them.
#include <filesystem>
#include <memory>

#include <pybind11/stl.h>

#include "compute/core/error.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/spectral/band_filter.h"
#include "io/io_error.h"
#include "io/pattern_input.h"
#include "io/recording.h"
#include "io/regions.h"
#include "io/signal_json.h"
#include "py_common.h"

namespace warplab::python {

namespace sp = compute::spectral;

namespace {

using K = compute::EngineError::Kind;

struct PyRecording {
    std::shared_ptr<io::Recording> rec;

    int signal(const py::handle& channel) const {
        return indexOrName(channel, rec->signals().size(), [&](const std::string& n) { return rec->findSignal(n); },
                           rec->path(), "channel", "channels", "no channel");
    }

    py::array_t<float> read(const py::handle& channel, long long start, const py::handle& stopObj) const {
        const int s = signal(channel);
        const long long samples = rec->signals()[std::size_t(s)].samples;
        const long long stop = readStop(start, stopObj, samples, rec->path());
        std::vector<float> v;
        {
            py::gil_scoped_release release;
            v = rec->read(s, start, stop - start);
        }
        py::array_t<float> out = newArray<float>({py::ssize_t(v.size())});
        std::copy(v.begin(), v.end(), out.mutable_data());
        return out;
    }
};

PyRecording openRecording(const std::string& path) {
    requireExistingFile(path, "recording");
    std::unique_ptr<io::Recording> rec;
    {
        py::gil_scoped_release release;
        rec = io::Recording::open(path);
    }
    return PyRecording{std::shared_ptr<io::Recording>(std::move(rec))};
}

py::array rankingArray(const compute::PatternRanking& ranking, int top) {
    const std::size_t n = top > 0 ? std::min<std::size_t>(std::size_t(top), ranking.ranked.size()) : ranking.ranked.size();
    py::array out = recordArray({{"rank", "<i8"}, {"quality", "<f8"}, {"pattern_index", "<i8"}, {"start_seconds", "<f8"}}, n);
    struct Row {
        long long rank;
        double quality;
        long long index;
        double startS;
    };
    static_assert(sizeof(Row) == 32);
    auto* rows = static_cast<Row*>(out.mutable_data());
    for (std::size_t k = 0; k < n; ++k) {
        const auto& p = ranking.ranked[k];
        rows[k] = {static_cast<long long>(k + 1), p.quality, static_cast<long long>(p.index), p.startS};
    }
    return out;
}

std::vector<io::Region> toRegions(const py::handle& seizures) {
    std::vector<io::Region> out;
    std::size_t i = 0;
    for (const py::handle item : seizures) {
        const std::string field = "seizures[" + std::to_string(i++) + "]";
        const auto seq = item.cast<py::sequence>();
        if (seq.size() != 2) throw py::value_error(field + ": give (start, end) in seconds");
        out.push_back({io::RegionKind::Seizure, -1, seq[0].cast<double>(), seq[1].cast<double>(), "seizures"});
    }
    return out;
}

// source: a PyRecording, or samples (1-D array) with rate; seizures in seconds.
py::array findPatterns(const py::handle& source, const py::handle& channel, const py::handle& seizures,
                       const py::handle& annotation, const py::handle& summary, double rate, int epoch, int stride,
                       int band, const std::string& quality, int top, const std::string& backend,
                       const std::string& kernel, int threads, const py::handle& devices,
                       const py::handle& progress, const py::handle& freqBand, int freqBandOrder) {
    const auto q = compute::parseQuality(quality);
    if (!q) throw py::value_error("quality: unknown quality '" + quality + "' (auc, infogain)");
    compute::RunOptions run = toRunOptions(backend, kernel, threads, devices);
    compute::PatternRequest request;
    std::vector<float> samples;  // the array's samples, kept for the request's view
    if (py::isinstance<PyRecording>(source)) {
        const PyRecording& r = source.cast<const PyRecording&>();
        const int sources = int(!seizures.is_none()) + int(!annotation.is_none()) + int(!summary.is_none());
        if (sources != 1)
            throw compute::EngineError(K::BadParameter, "seizures",
                                       "give exactly one of seizures=[(start, end), ...], annotation=TEXT, "
                                       "summary=chbNN-summary.txt");
        std::vector<io::Region> regions;
        if (!seizures.is_none()) regions = toRegions(seizures);
        else if (!summary.is_none()) {
            const std::string s = summary.cast<std::string>();
            requireExistingFile(s, "summary");
            regions = io::seizuresFromChbSummary(s, std::filesystem::path(r.rec->path()).filename().string());
        } else {
            const std::string text = annotation.cast<std::string>();
            regions = io::seizuresFromAnnotations(*r.rec, text);
            if (regions.empty())
                throw compute::EngineError(K::BadInput, "annotation",
                                           r.rec->path() + ": no annotation contains \"" + text + "\"");
        }
        io::checkRegions(*r.rec, regions);
        int signal = channel.is_none() ? io::defaultPatternChannel(*r.rec) : r.signal(channel);
        if (signal < 0) throw compute::EngineError(K::BadInput, "channel", r.rec->path() + ": no data signal");
        request = io::patternRequest(*r.rec, signal, regions, rate);
    } else {
        if (!annotation.is_none() || !summary.is_none())
            throw py::value_error("annotation: an array has no annotations; give seizures=[(start, end), ...]");
        if (seizures.is_none()) throw py::value_error("seizures: give seizures=[(start, end), ...] in seconds");
        compute::Series s = toSeries(source, "samples");
        if (s.dims != 1) throw py::value_error("samples: one channel (a 1-D array) is searched for patterns");
        samples = std::move(s.values);
        request.samples = samples;
        request.rateHz = rate;
        request.channel = channel.is_none() ? "samples" : std::string(py::str(channel));
        for (const auto& r : toRegions(seizures)) request.seizures.push_back({r.startS, r.endS});
    }
    std::vector<float> filtered;  // the channel filtered to freq_band, whole, as warplab-cli patterns does
    if (!freqBand.is_none()) {
        const sp::FrequencyBand b = toBand(freqBand);
        if (request.reader) {
            filtered.resize(std::size_t(request.sampleCount));
            request.reader(0, request.sampleCount, filtered.data());
        } else {
            filtered.assign(request.samples.begin(), request.samples.end());
        }
        filtered = sp::bandFilter(std::span<const float>(filtered), request.rateHz, b, freqBandOrder);
        request.samples = filtered;
        request.reader = nullptr;
        request.sampleCount = 0;
    }
    request.keepMatrixUpToBytes = 0;
    request.epoch = epoch;
    request.stride = stride;
    request.band = band;
    request.quality = *q;
    compute::PatternRanking ranking;
    runJob(run, true, [&] { ranking = compute::findPatterns(request, run); }, progress);
    return rankingArray(ranking, top);
}

}  // namespace

void bindRecording(py::module_& m) {
    using namespace py::literals;
    py::class_<PyRecording>(m, "Recording",
                            "An opened recording (warplab.open_recording): header facts, annotations, and "
                            "read() of one channel's samples on demand.")
        .def_property_readonly("path", [](const PyRecording& r) { return r.rec->path(); })
        .def_property_readonly("format", [](const PyRecording& r) { return std::string(io::formatName(r.rec->format())); })
        .def_property_readonly("start", [](const PyRecording& r) { return r.rec->startIso(); })
        .def_property_readonly("duration", [](const PyRecording& r) { return r.rec->durationS(); })
        .def_property_readonly("channels", [](const PyRecording& r) { return pluck(r.rec->signals(), [](const auto& s) { return s.displayName; }); })
        .def_property_readonly("rates", [](const PyRecording& r) { return pluck(r.rec->signals(), [](const auto& s) { return s.rateHz; }); })
        .def_property_readonly("signals",
                               [](const PyRecording& r) {
                                   nlohmann::ordered_json out = nlohmann::ordered_json::array();
                                   for (const auto& s : r.rec->signals()) out.push_back(io::signalJson(s, true));
                                   return fromJson(out.dump());
                               })
        .def_property_readonly("annotations",
                               [](const PyRecording& r) {
                                   py::list out;
                                   for (const auto& a : r.rec->annotations())
                                       out.append(py::make_tuple(a.onsetS, a.durationS, a.text));
                                   return out;
                               })
        .def_property_readonly("warnings", [](const PyRecording& r) { return r.rec->warnings(); })
        .def("read", &PyRecording::read, "channel"_a, "start"_a = 0, "stop"_a = py::none(),
             "Samples [start, stop) of a channel (name, \"#N\" or index) as float32 physical values.")
        .def("__repr__", [](const PyRecording& r) {
            return "<warplab.Recording " + r.rec->path() + ": " + std::to_string(r.rec->signals().size()) +
                   " channels, " + std::to_string(r.rec->durationS()) + " s>";
        });
    m.def("open_recording", &openRecording, "path"_a);
    m.def("find_patterns", &findPatterns, "source"_a, "channel"_a, "seizures"_a, "annotation"_a, "summary"_a,
          "rate"_a, "epoch"_a, "stride"_a, "band"_a, "quality"_a, "top"_a, "backend"_a, "kernel"_a, "threads"_a,
          "devices"_a, "progress"_a, "freq_band"_a = py::none(), "freq_band_order"_a = sp::kDefaultBandOrder);
}

}  // namespace warplab::python
