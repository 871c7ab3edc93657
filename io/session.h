// Session files (JSON): the recording, montage, filters, marked regions and analysis
// settings, saved atomically (temporary file + rename) and reopened exactly. Fields this
// version does not know (written by a newer WarpLab or by hand) are kept and written back.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compute/core/params.h"
#include "compute/spectral/frequency_band.h"
#include "io/filters.h"
#include "io/regions.h"

namespace warplab::io {

inline constexpr int kSessionVersion = 1;

struct Session {
    std::string recordingPath;             // as the user opened it
    std::vector<std::string> montage;      // derivations "A" or "A-B" (io/montage.h); empty: all
    FilterSettings filters;
    std::vector<Region> regions;
    compute::Params params;                // analysis settings
    // Frequency bands analysed (empty: the signal as filtered above), written as
    // "analysis.frequency_bands" (io/band_json.h); sessions without it load with none.
    compute::spectral::BandChoice freqBands;
    std::string channel;                   // channel analysed (display name), may be empty
    std::string backend = "auto";          // auto | cpu | cuda | hip
    std::string kernel;                    // registry name, empty = best
    // A study: its folder or summary file ("" when none), and the user's regions of
    // each of its recordings by file name ("chb01_03.edf"). Written as {"study": {"source",
    // "regions"}} only when a study is open; older sessions have none and still load.
    std::string studyPath;
    std::map<std::string, std::vector<Region>> studyRegions;
    int version = kSessionVersion;         // as read; a newer file keeps its number
    // The document as read, so that unknown fields survive a save (objects merge key by key;
    // unknown fields inside region entries are kept for regions still at the same index).
    nlohmann::json original = nlohmann::json::object();
};

nlohmann::json sessionToJson(const Session& s);
// `file` names the source in messages. Throws IoError(file, "<json path>", reason).
Session sessionFromJson(const nlohmann::json& j, const std::string& file);

// Writes `path` atomically: a temporary in the same directory, flushed, then renamed over.
void saveSession(const std::string& path, const Session& s);
// A relative recording or study path in the file is taken from the session file's folder
// (never from the current directory), so the returned paths are absolute.
Session loadSession(const std::string& path);
// The recording and study paths of `s` that lie outside the folder of `sessionFile` (its
// sub-folders count as inside), lexically normalised: the GUI names them when it opens them.
std::vector<std::string> sessionPathsOutside(const Session& s, const std::string& sessionFile);

}  // namespace warplab::io
