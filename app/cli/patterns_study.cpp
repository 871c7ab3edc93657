#include "app/cli/patterns_study.h"

#include <cstdio>

#include "app/cli/csv_output.h"
#include "app/cli/mpi_job.h"
#include "app/cli/study_cli.h"
#include "compute/core/error.h"

namespace warplab::cli {

using compute::EngineError;

namespace {

// "FILE:START-END,FILE:START-END": user regions of the study's recordings.
void addSeizureList(io::Study& study, const std::string& text) {
    std::size_t at = 0;
    int index = 0;
    while (at < text.size()) {
        std::size_t comma = text.find(',', at);
        if (comma == std::string::npos) comma = text.size();
        const std::string item = text.substr(at, comma - at);
        const std::string field = "seizures[" + std::to_string(index) + "]";
        const std::size_t colon = item.rfind(':');
        const std::size_t dash = colon == std::string::npos ? std::string::npos : item.find('-', colon + 2);
        double a = 0, b = 0;
        bool ok = colon != std::string::npos && colon > 0 && dash != std::string::npos;
        if (ok) {
            try {
                std::size_t na = 0, nb = 0;
                a = std::stod(item.substr(colon + 1, dash - colon - 1), &na);
                b = std::stod(item.substr(dash + 1), &nb);
                ok = na == dash - colon - 1 && nb == item.size() - dash - 1;
            } catch (const std::exception&) {
                ok = false;
            }
        }
        if (!ok)
            throw EngineError(EngineError::Kind::BadParameter, field,
                              "expected FILE:START-END (seconds from that file's start) for a study, got \"" + item + "\"");
        const std::string file = item.substr(0, colon);
        const int r = study.findRecording(file);
        if (r < 0) throw EngineError(EngineError::Kind::BadParameter, field, "the study has no recording \"" + file + "\"");
        study.addRegions(r, {{io::RegionKind::Seizure, -1, a, b, "--seizures"}});
        at = comma + 1;
        ++index;
    }
}

}  // namespace

std::vector<compute::PatternRequest> studyPatternRequests(io::Study& study, const std::vector<std::string>& channels,
                                                          const std::string& seizures) {
    if (!seizures.empty()) addSeizureList(study, seizures);
    std::vector<int> chosen;
    if (channels.empty()) {
        const int fp = study.findChannel("FP1-F7");
        if (fp < 0 && study.channels().empty())
            throw EngineError(EngineError::Kind::BadInput, "channel", study.sourcePath() + ": the study has no channel");
        chosen.push_back(fp >= 0 ? fp : 0);
    }
    for (const auto& name : channels) {
        const int c = study.findChannel(name);
        if (c < 0)
            throw EngineError(EngineError::Kind::BadInput, "channel",
                              study.sourcePath() + ": no recording of the study has a channel \"" + name + "\"");
        chosen.push_back(c);
    }
    std::vector<compute::PatternRequest> out;
    for (int c : chosen) {
        std::vector<std::string> skipped;
        out.push_back(io::studyPatternRequest(study, c, &skipped));
        if (mpi::rank() == 0)
            for (const auto& s : skipped) std::fprintf(stderr, "warning: channel %s: skipping %s\n", study.channels()[std::size_t(c)].name.c_str(), s.c_str());
    }
    return out;
}

std::string studyPatternColumns() {
    return ",recording,clock_time,nearest_recording,nearest_start_seconds,nearest_clock_time";
}

std::string studyPatternFields(const io::Study& study, const compute::PatternRanking& ranking, const compute::PatternScore& p) {
    const auto& seg = ranking.segments[p.segment];
    std::string s = "," + csvText(seg.recording) + "," + study.clockText(p.clockS);
    if (p.nearest.empty()) return s + ",,,";
    const auto& ne = p.nearest.front();
    return s + "," + csvText(ranking.segments[ne.segment].recording) + "," + formatDouble(ne.startS) + "," +
           study.clockText(ne.clockS);
}

}  // namespace warplab::cli
