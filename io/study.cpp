// io::Study: the names of its enums, and finding recordings and channels. The rest by role:
// study_open.cpp (opening), study_probe.cpp (a file's header), study_builder.cpp (order, gaps,
// channels), study_dates.cpp (the clock), study_seizures.cpp, study_regions.cpp,
// study_reading.cpp (lazy samples), study_compute.cpp (pattern requests and search sources).
#include "io/study.h"

#include <filesystem>
#include <string>

#include "io/study_cache.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace fs = std::filesystem;

std::string_view studySourceName(StudySource s) {
    switch (s) {
    case StudySource::Folder: return "folder";
    case StudySource::Summary: return "summary";
    case StudySource::List: return "list";
    }
    return "folder";
}

std::string_view recordingStatusName(RecordingStatus s) {
    switch (s) {
    case RecordingStatus::Ok: return "ok";
    case RecordingStatus::Missing: return "missing";
    case RecordingStatus::Damaged: return "damaged";
    }
    return "ok";
}
Study::~Study() = default;
std::vector<int> Study::missing() const {
    std::vector<int> out;
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].status == RecordingStatus::Missing) out.push_back(int(i));
    return out;
}

std::vector<int> Study::damaged() const {
    std::vector<int> out;
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].status == RecordingStatus::Damaged) out.push_back(int(i));
    return out;
}

int Study::findRecording(const std::string& nameOrPath) const {
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].name == nameOrPath || recordings_[i].path == nameOrPath) return int(i);
    const std::string base = fs::path(nameOrPath).filename().string();
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].name == base) return int(i);
    return -1;
}

int Study::findChannel(const std::string& name) const {
    for (std::size_t i = 0; i < channels_.size(); ++i)
        if (channels_[i].name == name) return int(i);
    // A label: the first channel whose display name is that label.
    const std::string l = lower(name);
    for (std::size_t i = 0; i < channels_.size(); ++i)
        if (lower(channels_[i].name) == l) return int(i);
    if (name.size() > 1 && name[0] == '#') {
        try {
            std::size_t used = 0;
            const long long k = std::stoll(name.substr(1), &used);
            if (used == name.size() - 1 && k >= 0 && k < (long long)channels_.size()) return int(k);
        } catch (...) {
        }
    }
    return -1;
}

std::vector<int> Study::skippedFor(int channel) const {
    std::vector<int> out;
    if (channel < 0 || channel >= int(channels_.size())) return out;
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].status == RecordingStatus::Ok && channels_[std::size_t(channel)].signalOf[i] < 0)
            out.push_back(int(i));
    return out;
}

}  // namespace warplab::io
