#include "io/detector_file.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <nlohmann/json.hpp>

#include "compute/spectral/band_filter.h"
#include "compute/spectral/frequency_band.h"
#include "io/io_error.h"

namespace warplab::io {

namespace {

using nlohmann::json;
constexpr int kVersion = 1;
constexpr const char* kFormat = "warplab-detector";

template <typename T>
T field(const json& j, const char* key, const std::string& where, const std::string& path) {
    const std::string name = where.empty() ? key : where + "." + key;
    if (!j.contains(key)) throw IoError(path, name, "missing");
    try {
        return j.at(key).get<T>();
    } catch (const json::exception&) {
        throw IoError(path, name, "has the wrong type (" + std::string(j.at(key).type_name()) + ")");
    }
}

std::string hz(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%g Hz", v);
    return buf;
}

}  // namespace

void saveDetector(const std::string& path, const compute::Detector& d) {
    compute::validateDetector(d);
    json j;
    j["format"] = kFormat;
    j["version"] = kVersion;
    j["rate_hz"] = d.rateHz;
    j["epoch"] = d.epoch;
    j["stride"] = d.stride;
    j["band"] = d.band;
    j["filter"] = d.filter;
    j["operating_point"] = compute::operatingPointName(d.operatingPoint);
    j["rule"] = {{"votes", d.rule.votes}, {"min_epochs", d.rule.minEpochs}, {"merge_gap_s", d.rule.mergeGapS}};
    json pats = json::array();
    for (const auto& p : d.patterns)
        pats.push_back({{"channel", p.channel},
                        {"threshold", p.threshold},
                        {"quality", p.quality},
                        {"training_tpr", p.trainingTpr},
                        {"training_fpr", p.trainingFpr},
                        {"recording", p.recording},
                        {"start_s", p.startS},
                        {"samples", p.samples}});
    j["patterns"] = std::move(pats);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError(path, "", "cannot write the detector file");
    out << j.dump() << '\n';
    out.flush();
    if (!out) throw IoError(path, "", "writing the detector file failed");
}

compute::Detector loadDetector(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open the detector file");
    json j;
    try {
        j = json::parse(in);
    } catch (const json::exception& e) {
        throw IoError(path, "", std::string("not a detector file (not JSON: ") + e.what() + ")");
    }
    if (!j.is_object() || j.value("format", json()) != kFormat)
        throw IoError(path, "format", "not a detector file (no \"format\": \"warplab-detector\")");
    const int version = field<int>(j, "version", "", path);
    if (version < 1 || version > kVersion)
        throw IoError(path, "version", "version " + std::to_string(version) + " is not one this WarpLab reads (1.." +
                                           std::to_string(kVersion) + ")");
    compute::Detector d;
    d.rateHz = field<double>(j, "rate_hz", "", path);
    d.epoch = field<int>(j, "epoch", "", path);
    d.stride = field<int>(j, "stride", "", path);
    d.band = field<int>(j, "band", "", path);
    d.filter = j.contains("filter") ? field<std::string>(j, "filter", "", path) : "";
    if (!d.filter.empty()) {
        try {
            compute::spectral::parseFrequencyBand(d.filter, {}, "filter");
        } catch (const compute::EngineError& e) {
            throw IoError(path, "filter", std::string("not a frequency band: ") + e.what());
        }
    }
    const auto op = compute::parseOperatingPoint(field<std::string>(j, "operating_point", "", path));
    if (!op) throw IoError(path, "operating_point", "must be \"youden\" or \"fpr:<rate>\"");
    d.operatingPoint = *op;
    const json rule = field<json>(j, "rule", "", path);
    d.rule.votes = field<int>(rule, "votes", "rule", path);
    d.rule.minEpochs = field<int>(rule, "min_epochs", "rule", path);
    d.rule.mergeGapS = field<double>(rule, "merge_gap_s", "rule", path);
    const json pats = field<json>(j, "patterns", "", path);
    if (!pats.is_array()) throw IoError(path, "patterns", "must be a list");
    for (std::size_t i = 0; i < pats.size(); ++i) {
        const std::string w = "patterns[" + std::to_string(i) + "]";
        const json& p = pats[i];
        if (!p.is_object()) throw IoError(path, w, "must be an object");
        compute::DetectorPattern dp;
        dp.channel = field<std::string>(p, "channel", w, path);
        dp.threshold = field<double>(p, "threshold", w, path);
        dp.quality = p.contains("quality") ? field<double>(p, "quality", w, path) : 0;
        dp.trainingTpr = p.contains("training_tpr") ? field<double>(p, "training_tpr", w, path) : 0;
        dp.trainingFpr = p.contains("training_fpr") ? field<double>(p, "training_fpr", w, path) : 0;
        dp.recording = p.contains("recording") ? field<std::string>(p, "recording", w, path) : "";
        dp.startS = p.contains("start_s") ? field<double>(p, "start_s", w, path) : 0;
        dp.samples = field<std::vector<float>>(p, "samples", w, path);
        d.patterns.push_back(std::move(dp));
    }
    try {
        compute::validateDetector(d);
    } catch (const compute::EngineError& e) {
        const std::string what = e.what(), prefix = e.field() + ": ";
        throw IoError(path, e.field(), what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
    }
    return d;
}

compute::Detection detectInRecording(const compute::Detector& d, const Recording& rec, const compute::RunOptions& options) {
    double rate = 0;
    std::vector<int> index;
    for (const std::string& ch : d.channels()) {
        const int s = rec.findSignal(ch);
        if (s < 0) throw IoError(rec.path(), "channel", "has no channel '" + ch + "', which the detector was built on");
        const double r = rec.signals()[std::size_t(s)].rateHz;
        if (r != d.rateHz)
            throw IoError(rec.path(), "rate",
                          "channel '" + ch + "' is sampled at " + hz(r) + ", the detector at " + hz(d.rateHz) +
                              ": resample the recording first");
        rate = r;
    }
    // A detector trained on a band-filtered channel sweeps the channel filtered the same way.
    std::optional<compute::spectral::FrequencyBand> band;
    if (!d.filter.empty()) band = compute::spectral::parseFrequencyBand(d.filter, {}, "filter");
    return compute::applyDetector(
        d,
        [&](const std::string& ch) {
            const int s = rec.findSignal(ch);
            auto x = rec.read(s, 0, rec.signals()[std::size_t(s)].samples);
            if (!band) return x;
            try {
                return compute::spectral::bandFilter(x, rate, *band);
            } catch (const compute::EngineError& e) {
                throw IoError(rec.path(), "filter", e.what());
            }
        },
        rate, options);
}

}  // namespace warplab::io
