// Probing a study's files: the header of an EDF/BDF file (our parser, no samples), or the
// channels of a series file in an explicit list.
#include "io/study_probe.h"

#include <filesystem>

#include "io/io_error.h"
#include "io/recording_backends.h"
#include "io/study_dates.h"

namespace warplab::io {

namespace fs = std::filesystem;

Probe probe(const std::string& path) {
    Probe p;
    p.rec.path = path;
    p.rec.name = fs::path(path).filename().string();
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        p.rec.status = RecordingStatus::Missing;
        p.rec.error = "file not found";
        return p;
    }
    try {
        if (looksLikeEdf(path)) {
            const EdfHeaderParse parsed = readEdfHeader(path);
            const EdfHeader& h = parsed.header;
            p.plus = h.plus;
            p.rec.format = edfFormat(h.bdf, h.plus, h.discontinuous);
            p.rec.durationS = double(h.records) * h.recordDurationS;
            int index = 0;
            for (const auto& s : h.signals)
                if (!s.annotation) p.rec.signals.push_back(edfSignalInfo(h, s, index++));
            assignDisplayNames(p.rec.signals);
            for (const auto& v : parsed.violations) p.warnings.push_back(p.rec.name + ": " + v);
            if (h.records <= 0) throw IoError(path, "number of data records", "the file holds no complete data record");
            p.rec.startIso = h.startIso();
            p.rec.startKnown = isoSeconds(p.rec.startIso, p.absS);
        } else {
            // A text/CSV/NPY series in an explicit list: channels but no clock.
            auto r = Recording::open(path);
            p.rec.format = r->format();
            p.rec.durationS = r->durationS();
            p.rec.signals = r->signals();
            for (const auto& w : r->warnings()) p.warnings.push_back(p.rec.name + ": " + w);
        }
        p.rec.timeSource = p.rec.startKnown ? "header" : "none";
    } catch (const std::exception& e) {
        p.rec.status = RecordingStatus::Damaged;
        p.rec.error = e.what();
        p.rec.signals.clear();
    }
    return p;
}

}  // namespace warplab::io
