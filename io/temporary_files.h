// Temporary files beside an output (matrix exports, streamed matrices, sessions): written
// under a temporary name in the same folder and renamed into place when complete. A run that
// is killed (SIGKILL, power loss) cannot remove its temporary, so the name says whose it is,
// `<target>.tmp-<pid>-<start>-<n>` (<start>: the process start time in clock ticks since boot,
// from /proc/<pid>/stat), and the next run for the same target removes the temporaries whose
// process is gone. A pid that was reused has another start time, so it is not mistaken for the
// writer; a live writer's temporary is never touched.
#pragma once
#include <string>
#include <vector>

namespace warplab::io {

// A fresh temporary name next to `path` (same folder, so rename() is atomic). Removes stale
// temporaries of `path` first (removeStaleTemporaries).
std::string temporaryPathFor(const std::string& path);

// Removes the temporaries of `path` left by processes that no longer run: names
// `<path>.tmp-<pid>-<start>-<n>` whose pid is gone or has another start time, and the older
// form `<path>.tmp-<pid>-<n>` whose pid is gone or is not a WarPLab program (its command name
// does not start with "warplab"). Returns the names removed. Never throws.
std::vector<std::string> removeStaleTemporaries(const std::string& path);

// Start time of process `pid` in clock ticks since boot (field 22 of /proc/<pid>/stat), or 0
// when there is no such process (or no /proc).
unsigned long long processStartTicks(long pid);

}  // namespace warplab::io
