// Lazy reads of a study: recordings opened on first use (at most openRecordingLimit kept) and
// samples of one study channel in one recording.
#include <algorithm>

#include "io/io_error.h"
#include "io/study.h"
#include "io/study_cache.h"

namespace warplab::io {

std::shared_ptr<const Recording> Study::recording(int index) const { return openRecording(index, true); }

std::shared_ptr<const Recording> Study::openRecording(int index, bool annotations) const {
    if (index < 0 || index >= int(recordings_.size()))
        throw IoError("", "recording", "index " + std::to_string(index) + " outside the study");
    const StudyRecording& r = recordings_[std::size_t(index)];
    if (r.status != RecordingStatus::Ok)
        throw IoError(r.path, "", std::string(recordingStatusName(r.status)) + ": " + r.error);
    // One open of this recording at a time; other recordings open at the same time (an EDF+
    // open scans every record's annotations: not under the cache's mutex).
    std::lock_guard openLock(cache_->mutexOf(cache_->openMutex, index));
    {
        std::lock_guard lock(cache_->mutex);
        auto& open = cache_->open;
        for (auto it = open.begin(); it != open.end(); ++it)
            if (it->index == index && (it->annotations || !annotations)) {
                open.splice(open.end(), open, it);  // most recently used last
                return open.back().rec;
            }
        // Samples only: EDFlib then skips the annotations, which it would read from every record.
        // A samples-only copy is closed first (EDFlib refuses a file it has open already).
        open.remove_if([&](const Cache::Entry& e) { return e.index == index; });
    }
    OpenOptions options;
    options.readAnnotations = annotations;
    // Samples only: the lenient raw reader (pread on its own descriptor, the same values as
    // EDFlib: io.test_edf_reading lenientReaderEqualsEdflib), so that different recordings are
    // read in parallel; every EDFlib call holds one global mutex (edflib_lock.h).
    options.forceLenient = !annotations;
    std::shared_ptr<const Recording> rec(Recording::open(r.path, options).release());
    std::lock_guard lock(cache_->mutex);
    cache_->open.push_back({index, rec, annotations});
    while (int(cache_->open.size()) > cache_->limit) cache_->open.pop_front();
    return rec;
}

long long Study::sampleCount(int recording, int channel) const {
    if (recording < 0 || recording >= int(recordings_.size()) || channel < 0 || channel >= int(channels_.size()))
        return 0;
    const auto& r = recordings_[std::size_t(recording)];
    const int sig = channels_[std::size_t(channel)].signalOf[std::size_t(recording)];
    if (r.status != RecordingStatus::Ok || sig < 0) return 0;
    return r.signals[std::size_t(sig)].samples;
}

void Study::read(int recording, int channel, long long start, long long count, float* out) const {
    if (channel < 0 || channel >= int(channels_.size()))
        throw IoError(sourcePath_, "channel", "index " + std::to_string(channel) + " outside the study's channels");
    auto rec = openRecording(recording, false);
    const StudyRecording& r = recordings_[std::size_t(recording)];
    const StudyChannel& c = channels_[std::size_t(channel)];
    int sig = c.signalOf[std::size_t(recording)];
    if (sig < 0) throw IoError(r.path, "channel", "the recording has no channel " + c.name);
    // The header parse and the opened recording agree on indices; check by name all the same.
    if (sig >= int(rec->signals().size()) || rec->signals()[std::size_t(sig)].displayName != c.name) {
        sig = rec->findSignal(c.name);
        if (sig < 0) throw IoError(r.path, "channel", "the opened recording has no channel " + c.name);
    }
    std::lock_guard readLock(cache_->mutexOf(cache_->readMutex, recording));
    rec->readInto(sig, start, count, out);
}

std::vector<float> Study::read(int recording, int channel, long long start, long long count) const {
    std::vector<float> v(std::size_t(std::max(0LL, count)));
    read(recording, channel, start, count, v.data());
    return v;
}

}  // namespace warplab::io
