#include "app/cli/search_study.h"

#include <cstdio>
#include <iostream>
#include <memory>

#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/mpi_search.h"
#include "app/cli/mpi_job.h"
#include "app/cli/study_cli.h"
#include "compute/core/error.h"
#include "io/study.h"

namespace warplab::cli {

using compute::EngineError;

bool isMultiSearch(const MultiSearchFlags& f) {
    return !f.referenceStudy.empty() || f.references.size() > 1 || f.referenceChannel == "all";
}

namespace {

// The (recording, channel) pairs to search, in the order of the list; warnings on stderr.
std::vector<compute::SearchSource> sourcesOf(const MultiSearchFlags& f, std::shared_ptr<io::Study>& study) {
    if (!f.referenceStudy.empty() && !f.references.empty())
        throw EngineError(EngineError::Kind::BadParameter, "reference", "give --reference files or --reference-study, not both");
    if (!f.referenceWindow.empty())
        throw EngineError(EngineError::Kind::BadParameter, "reference-window",
                          "--reference-window applies to one reference; a study or several references are searched whole");
    const StudyFlags sf{f.skipMissing, {}, {}};
    study = f.referenceStudy.empty() ? openListForCli(f.references, sf, "reference")
                                     : openStudyForCli(f.referenceStudy, sf, "reference-study");
    std::vector<int> channels;
    const std::string name = f.referenceChannel.empty() ? f.fallbackChannel : f.referenceChannel;
    if (name == "all") {
        for (std::size_t c = 0; c < study->channels().size(); ++c) channels.push_back(int(c));
    } else if (!name.empty()) {
        const int c = study->findChannel(name);
        if (c < 0)
            throw EngineError(EngineError::Kind::BadInput, "reference-channel",
                              "no reference recording has a channel \"" + name + "\"");
        channels.push_back(c);
    } else if (study->channels().size() == 1) {
        channels.push_back(0);
    } else {
        throw EngineError(EngineError::Kind::BadParameter, "reference-channel",
                          "the references have " + std::to_string(study->channels().size()) +
                              " channels: choose one with --reference-channel NAME (or --channel), or all");
    }
    std::vector<std::string> skipped;
    auto sources = io::studySearchSources(*study, channels, &skipped);
    // A recording without the chosen channel is skipped by name; with "all" that is expected.
    if (name != "all" && mpi::rank() == 0)
        for (const auto& s : skipped) std::fprintf(stderr, "warning: skipping %s\n", s.c_str());
    if (sources.empty())
        throw EngineError(EngineError::Kind::BadInput, "reference", "no readable recording has the chosen channel");
    return sources;
}

}  // namespace

void runMultiSearch(const compute::Series& query, const MultiSearchFlags& f, const compute::Params& params,
                    const compute::RunOptions& options, const compute::SeriesSearch& perSeries, SearchLog& log,
                    bool printStats, const std::string& bandKey, bool header) {
    std::shared_ptr<io::Study> study;
    std::vector<compute::SearchSource> sources;
    std::vector<compute::SourceMatch> matches;
    std::vector<std::size_t> tooShort;
    if (mpi::active()) {
        // Every rank opens the study (the files must be where every rank sees them) and makes
        // the same list of sources; a rank that cannot fails the job by name.
        mpi::step([&] { sources = sourcesOf(f, study); });
        auto r = searchSourcesMpi(query, sources, params, options, perSeries, log);
        if (mpi::rank() != 0) return;
        matches = std::move(r.matches);
        tooShort = std::move(r.tooShort);
    } else {
        sources = sourcesOf(f, study);
        matches = compute::searchSources(query, sources, params, options, perSeries, &tooShort);
    }
    for (std::size_t i : tooShort)
        std::fprintf(stderr, "warning: skipping %s %s: shorter than the query (%zu samples)\n", sources[i].recording.c_str(),
                     sources[i].channel.c_str(), query.length);
    finishProgress();
    std::cerr << log.notes;
    if (printStats) std::cerr << statsNote(log.stats, log.seconds);
    if (header)
        std::cout << (bandKey.empty() ? "" : "band,")
                  << "rank,cost,start,end,recording,channel,start_seconds,end_seconds,start_clock,end_clock\n";
    for (std::size_t k = 0; k < matches.size(); ++k) {
        const auto& m = matches[k];
        const auto& s = sources[m.source];
        if (!bandKey.empty()) std::cout << bandKey << ',';
        std::cout << k + 1 << ',' << formatDouble(m.match.cost) << ',' << m.match.start << ',' << m.match.end << ','
                  << csvText(s.recording) << ',' << csvText(s.channel) << ',' << formatDouble(m.startS) << ','
                  << formatDouble(m.endS) << ',' << study->clockText(s.clockStartS + m.startS) << ','
                  << study->clockText(s.clockStartS + m.endS) << '\n';
    }
    flushStdout();
}

}  // namespace warplab::cli
