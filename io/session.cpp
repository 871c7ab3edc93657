#include "io/session.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/band_json.h"
#include "io/io_error.h"
#include "io/json_field.h"
#include "io/matrix_formats.h"
#include "io/params_json.h"

namespace warplab::io {

using nlohmann::json;

namespace {

json regionToJson(const Region& r) {
    return {{"kind", regionKindName(r.kind)}, {"channel", r.channel}, {"start_s", r.startS}, {"end_s", r.endS}, {"note", r.note}};
}

template <typename T>
void getField(const json& j, const char* key, T& dst, const std::string& file, const std::string& where) {
    readJsonField(j, key, dst, file, where + key);
}

Region regionFromJson(const json& j, const std::string& file, const std::string& where) {
    if (!j.is_object()) throw IoError(file, where, "expected an object");
    Region r;
    std::string kind = "seizure";
    getField(j, "kind", kind, file, where + ".");
    if (kind == "seizure") r.kind = RegionKind::Seizure;
    else if (kind == "query") r.kind = RegionKind::Query;
    else if (kind == "reference") r.kind = RegionKind::Reference;
    else throw IoError(file, where + ".kind", "unknown kind \"" + kind + "\" (seizure, query, reference)");
    getField(j, "channel", r.channel, file, where + ".");
    if (!j.contains("start_s") || !j.contains("end_s")) throw IoError(file, where, "needs start_s and end_s");
    getField(j, "start_s", r.startS, file, where + ".");
    getField(j, "end_s", r.endS, file, where + ".");
    getField(j, "note", r.note, file, where + ".");
    return r;
}

}  // namespace

json sessionToJson(const Session& s) {
    json known = {
        {"warplab_session", std::max(s.version, kSessionVersion)},
        {"recording", s.recordingPath},
        {"montage", s.montage},
        {"filters",
         {{"highpass_hz", s.filters.highpassHz},
          {"lowpass_hz", s.filters.lowpassHz},
          {"notch_hz", s.filters.notchHz},
          {"order", s.filters.order},
          {"apply_to_analysis", s.filters.applyToAnalysis}}},
        {"analysis",
         {{"params", paramsToJson(s.params)},
          {"channel", s.channel},
          {"backend", s.backend},
          {"kernel", s.kernel},
          {"frequency_bands", bandChoiceToJson(s.freqBands)}}},
    };
    json regions = json::array();
    const json* old = s.original.is_object() && s.original.contains("regions") && s.original["regions"].is_array()
                          ? &s.original["regions"]
                          : nullptr;
    for (std::size_t i = 0; i < s.regions.size(); ++i) {
        json r = regionToJson(s.regions[i]);
        if (old && i < old->size() && (*old)[i].is_object()) {  // keep unknown fields of that entry
            json merged = (*old)[i];
            merged.merge_patch(r);
            r = std::move(merged);
        }
        regions.push_back(std::move(r));
    }
    json out = s.original.is_object() ? s.original : json::object();
    out.merge_patch(known);  // objects merge recursively, so unknown nested keys stay
    out["regions"] = std::move(regions);
    if (s.studyPath.empty()) {
        out.erase("study");
    } else {
        json byRecording = json::object();
        for (const auto& [name, list] : s.studyRegions) {
            json a = json::array();
            for (const Region& r : list) a.push_back(regionToJson(r));
            byRecording[name] = std::move(a);
        }
        json study = out.contains("study") && out["study"].is_object() ? out["study"] : json::object();
        study["source"] = s.studyPath;
        study["regions"] = std::move(byRecording);
        out["study"] = std::move(study);
    }
    return out;
}

Session sessionFromJson(const json& j, const std::string& file) {
    if (!j.is_object()) throw IoError(file, "", "a session is a JSON object");
    if (!j.contains("warplab_session")) throw IoError(file, "warplab_session", "missing: not a WarpLab session file");
    Session s;
    s.original = j;
    getField(j, "warplab_session", s.version, file, "");
    getField(j, "recording", s.recordingPath, file, "");
    getField(j, "montage", s.montage, file, "");
    if (auto f = j.find("filters"); f != j.end()) {
        if (!f->is_object()) throw IoError(file, "filters", "expected an object");
        getField(*f, "highpass_hz", s.filters.highpassHz, file, "filters.");
        getField(*f, "lowpass_hz", s.filters.lowpassHz, file, "filters.");
        getField(*f, "notch_hz", s.filters.notchHz, file, "filters.");
        getField(*f, "order", s.filters.order, file, "filters.");
        getField(*f, "apply_to_analysis", s.filters.applyToAnalysis, file, "filters.");
    }
    if (auto a = j.find("analysis"); a != j.end()) {
        if (!a->is_object()) throw IoError(file, "analysis", "expected an object");
        if (auto p = a->find("params"); p != a->end()) s.params = paramsFromJson(*p, file, "analysis.params");
        getField(*a, "channel", s.channel, file, "analysis.");
        getField(*a, "backend", s.backend, file, "analysis.");
        getField(*a, "kernel", s.kernel, file, "analysis.");
        if (auto b = a->find("frequency_bands"); b != a->end())
            s.freqBands = bandChoiceFromJson(*b, file, "analysis.frequency_bands");
    }
    if (auto r = j.find("regions"); r != j.end()) {
        if (!r->is_array()) throw IoError(file, "regions", "expected an array");
        for (std::size_t i = 0; i < r->size(); ++i)
            s.regions.push_back(regionFromJson((*r)[i], file, "regions[" + std::to_string(i) + "]"));
    }
    if (auto st = j.find("study"); st != j.end()) {
        if (!st->is_object()) throw IoError(file, "study", "expected an object");
        getField(*st, "source", s.studyPath, file, "study.");
        if (auto r = st->find("regions"); r != st->end()) {
            if (!r->is_object()) throw IoError(file, "study.regions", "expected an object (recording name -> regions)");
            for (auto it = r->begin(); it != r->end(); ++it) {
                const std::string where = "study.regions." + it.key();
                if (!it->is_array()) throw IoError(file, where, "expected an array");
                auto& list = s.studyRegions[it.key()];
                for (std::size_t i = 0; i < it->size(); ++i)
                    list.push_back(regionFromJson((*it)[i], file, where + "[" + std::to_string(i) + "]"));
            }
        }
    }
    return s;
}

void saveSession(const std::string& path, const Session& s) {
    const std::string text = sessionToJson(s).dump(2) + "\n";
    const std::string tmp = temporaryPathFor(path);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError(path, "", std::string("cannot create a temporary file: ") + std::strerror(errno));
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            const int e = errno;
            ::close(fd);
            std::remove(tmp.c_str());
            throw IoError(path, "", std::string("write failed: ") + std::strerror(e));
        }
        done += std::size_t(w);
    }
    // Flushed before the rename, so a crash leaves the old session or the new one, never half.
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        std::remove(tmp.c_str());
        throw IoError(path, "", std::string("flush failed: ") + std::strerror(errno));
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw IoError(path, "", "cannot rename into place: " + ec.message());
    }
}

Session loadSession(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open the session file");
    std::ostringstream ss;
    ss << in.rdbuf();
    json j;
    try {
        j = json::parse(ss.str());
    } catch (const json::parse_error& e) {
        throw IoError(path, "json", "not valid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
    } catch (const json::exception& e) {  // e.g. a number beyond double range ("1e400")
        throw IoError(path, "json", std::string("not valid JSON: ") + e.what());
    }
    Session s = sessionFromJson(j, path);
    const std::filesystem::path dir = std::filesystem::absolute(path).parent_path();
    for (std::string* p : {&s.recordingPath, &s.studyPath})
        if (!p->empty() && std::filesystem::path(*p).is_relative()) *p = (dir / *p).lexically_normal().string();
    return s;
}

std::vector<std::string> sessionPathsOutside(const Session& s, const std::string& sessionFile) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::absolute(sessionFile).parent_path().lexically_normal();
    std::vector<std::string> out;
    for (const std::string* p : {&s.recordingPath, &s.studyPath}) {
        if (p->empty()) continue;
        const fs::path abs = fs::absolute(dir / *p).lexically_normal();
        const fs::path rel = abs.lexically_relative(dir);
        if (rel.empty() || *rel.begin() == "..") out.push_back(abs.string());
    }
    return out;
}

}  // namespace warplab::io
