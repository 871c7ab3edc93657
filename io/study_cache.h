// The recordings a Study keeps open for its lazy reads (internal to io/study_*.cpp).
#pragma once
#include <list>
#include <map>
#include <memory>
#include <mutex>

#include "io/study.h"

namespace warplab::io {

// Opened recordings, least recently used first; at most `limit` kept.
struct Study::Cache {
    std::mutex mutex;      // the list of open recordings
    // One read at a time per recording (Recording::read is not meant for concurrent callers),
    // and one open at a time per recording; different recordings are opened and read at once
    // (the device pattern path reads a study's recordings in parallel). Created on first use.
    std::map<int, std::unique_ptr<std::mutex>> readMutex, openMutex;
    std::mutex& mutexOf(std::map<int, std::unique_ptr<std::mutex>>& m, int index) {
        std::lock_guard lock(mutex);
        auto& p = m[index];
        if (!p) p = std::make_unique<std::mutex>();
        return *p;
    }
    struct Entry {
        int index;
        std::shared_ptr<const Recording> rec;
        bool annotations;  // opened with its annotations (recording()) or for samples only (read())
    };
    std::list<Entry> open;
    int limit = 8;
};

}  // namespace warplab::io
