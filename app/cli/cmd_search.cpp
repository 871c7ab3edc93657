// `warplab-cli search`: the top-k subsequence-DTW matches of a query inside a long reference.
// Prints CSV `rank,cost,start,end` (start and end are reference sample indices, end inclusive).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/freq_band_option.h"
#include "app/cli/csv_output.h"
#include "app/cli/devices_option.h"
#include "app/cli/mpi_search.h"
#include "app/cli/mpi_job.h"
#include "app/cli/reference_parts.h"
#include "app/cli/search_modes.h"
#include "app/cli/search_study.h"
#include "app/cli/time_split.h"
#include "compute/engine/device_list.h"
#include "compute/engine/engine.h"

namespace warplab::cli {

namespace {

struct SearchOptions {
    MetricOptions metric;  // --cost, --znorm, --sqrt; the metric is always sdtw
    RunFlags run;
    SeriesFlags series;  // --rate and --timestamps are accepted but unused: sdtw has no timestamps
    std::string query;
    std::vector<std::string> reference;  // one, or several (search_study.cpp)
    std::string referenceStudy;
    bool skipMissing = false;
    std::string referenceChannel, referenceWindow;  // default: --channel, and the whole channel
    int top = 1;
    SearchModeFlags modes;  // --mode, --band, --band-fraction, --include-self, --stats, --precision
    bool timing = false;    // the split of the wall clock on stderr (time_split.h)
    FreqBandFlags freqBands;
};

// Whether the subsequence search of one reference runs on GPUs under mpirun: a GPU named, or
// --backend auto (no kernel named) and every rank sees one, as Engine::search would choose in
// one process (the ranks agree, so that none waits in a search the others do not run).
bool usesGpuOnEveryRank(const RunFlags& run) {
    if (compute::namesGpu(run.backend, run.kernel)) return true;
    if (run.backend != compute::Backend::Auto || !run.kernel.empty()) return false;
    const char mine = compute::gpuDeviceLabels().empty() ? 0 : 1;
    std::vector<char> all(static_cast<std::size_t>(mpi::size()));
    mpi::allgather(&mine, 1, all.data());
    return std::find(all.begin(), all.end(), 0) == all.end();
}

void runSearch(const SearchOptions& o) {
    TimeSplit split;
    compute::Params params = o.metric.params;
    params.metric = compute::Metric::Sdtw;
    params.topk = o.top;
    compute::validate(params);
    exclusionToleranceSamples(o.modes.exclusionTolerance, 1.0);  // its form, before any file is read
    const auto bands = parseFreqBands(o.freqBands);
    const bool window = o.modes.mode == "window";
    // The GPUs the search may use start while the files are read (device_list.h), and the search
    // begins once they have: starting a context takes a good part of a second per device, which
    // would otherwise land inside the search (its --stats time) on the devices it reaches last.
    std::jthread warm;
    if (compute::namesGpu(o.run.backend, o.run.kernel) || (o.run.backend == compute::Backend::Auto && !window)) {
        try {
            warm = compute::warmUpGpus(parseDevices(o.run.devices));
        } catch (const compute::EngineError&) {
        }  // a bad --devices is reported by the search itself
    }
    auto gpusReady = [&] {
        if (warm.joinable()) warm.join();
    };
    compute::Series query = readOneSeries(o.query, o.series, "query");
    const MultiSearchFlags multi{o.reference, o.referenceStudy, o.referenceChannel, o.series.channel, o.referenceWindow,
                                 o.skipMissing};
    if (mpi::active() && o.modes.precision != "fp32")
        mpi::agree(mpi::rank() == 0 ? std::make_exception_ptr(compute::EngineError(
                                          compute::EngineError::Kind::BadParameter, "precision",
                                          "half2 is a GPU search of one process; run it without mpirun"))
                                    : nullptr);
    if (!bands.empty() && mpi::active())
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "freq-band",
                                   "--freq-band searches in one process; run search without mpirun");
    if (isMultiSearch(multi)) {
        // Each (recording, channel) by the chosen mode; the query's own place is excluded in the
        // recording it was cut from (same file name, same channel) unless --include-self. With
        // frequency bands, one ranked list per band: the query and every reference filtered to
        // it, each reference at its own rate.
        std::vector<const compute::spectral::FrequencyBand*> runs;
        for (const auto& b : bands) runs.push_back(&b);
        if (runs.empty()) runs.push_back(nullptr);
        const double rateQ = bands.empty() ? 0.0 : bandRate(o.series, o.query, o.series.channel);
        split.mark(TimeSplit::Input);
        gpusReady();
        split.mark(TimeSplit::StartUp);
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const compute::spectral::FrequencyBand* band = runs[r];
            const compute::Series q0 =
                band ? filterToBand({query}, rateQ, *band, o.freqBands.order, o.query, "query").front() : query;
            SearchLog log;
            const compute::SeriesSearch perSeries = [&](const compute::Series& q, const compute::Series& raw,
                                                        const compute::SearchSource& src, const compute::Params& p,
                                                        const compute::RunOptions& ro) {
                compute::Series filtered;
                if (band)
                    filtered = filterToBand({raw}, src.rateHz, *band, o.freqBands.order, src.recording,
                                            "reference channel " + src.channel)
                                   .front();
                const compute::Series& ref = band ? filtered : raw;
                compute::SearchScope sc;
                if (!o.modes.includeSelf &&
                    std::filesystem::path(o.query).filename().string() == src.recording)
                    if (auto span = querySpanInReference(o.query, o.series.channel, o.series.window, o.query, src.channel, "")) {
                        sc.spans = {selfExclusion(*span, o.modes)};
                        // Said before the list, as for one reference, naming the series it applies to.
                        log.notes += selfExclusionNote(sc.spans.front(), q.length, window,
                                                       src.recording + ", channel " + src.channel);
                    }
                OneSearch one = searchOne(q, ref, p, ro, o.modes, sc);
                log.stats += one.stats;  // summed over every (recording, channel) searched
                log.seconds += one.seconds;
                return std::move(one.matches);
            };
            // Several references are read one by one inside the search: their reading is in compute.
            runMultiSearch(q0, multi, params, toRunOptions(o.run, band ? "search " + band->label() : std::string("search")),
                           perSeries, log, o.modes.stats && window, band ? band->key() : std::string(), r == 0);
        }
        split.mark(TimeSplit::Output);
        split.move(TimeSplit::Output, TimeSplit::Compute, split.seconds(TimeSplit::Output));
        if (o.timing && mpi::rank() == 0) split.print("search (several references, read inside compute)");
        return;
    }
    if (o.reference.empty())
        throw compute::EngineError(compute::EngineError::Kind::BadParameter, "reference",
                                   "give --reference FILE (one or more) or --reference-study FOLDER|SUMMARY");
    // --window cuts the query out of a recording; the reference is searched whole unless
    // --reference-window says otherwise.
    SeriesFlags refFlags = o.series;
    refFlags.window = o.referenceWindow;
    if (!o.referenceChannel.empty()) refFlags.channel = o.referenceChannel;
    // Under mpirun each rank reads only its stretch where the format allows (reference_parts.h).
    std::optional<ReferenceParts> parts;
    compute::Series reference;
    if (mpi::active()) parts.emplace(o.reference.front(), refFlags);
    else reference = readOneSeries(o.reference.front(), refFlags, "reference");
    split.mark(TimeSplit::Input);
    gpusReady();
    split.mark(TimeSplit::StartUp);
    const std::size_t referenceLength = parts ? parts->length() : reference.length;
    // A query cut from the searched channel would find itself: its own place is excluded
    // unless --include-self (search_modes.h says exactly which matches).
    compute::SearchScope scope;
    std::string note;
    if (!o.modes.includeSelf) {
        const std::string refChannel = o.referenceChannel.empty() ? o.series.channel : o.referenceChannel;
        if (auto span = querySpanInReference(o.query, o.series.channel, o.series.window, o.reference.front(), refChannel,
                                             o.referenceWindow)) {
            scope.spans = {selfExclusion(*span, o.modes)};
            note = selfExclusionNote(scope.spans.front(), query.length, window);
        }
    }
    if (!bands.empty()) {
        // One search per frequency band, query and reference filtered to it; one list with a
        // band column.
        const double rateQ = bandRate(o.series, o.query, o.series.channel);
        const double rateR = bandRate(refFlags, o.reference.front(), refFlags.channel);
        std::cerr << note;
        std::cout << "band,rank,cost,start,end\n";
        for (const auto& band : bands) {
            const compute::Series fq = filterToBand({query}, rateQ, band, o.freqBands.order, o.query, "query").front();
            const compute::Series fr =
                filterToBand({reference}, rateR, band, o.freqBands.order, o.reference.front(), "reference").front();
            OneSearch one;
            namingFiles({{"query", o.query}, {"reference", o.reference.front()}}, [&] {
                one = searchOne(fq, fr, params, toRunOptions(o.run, "search " + band.label()), o.modes, scope);
            });
            finishProgress();
            if (o.modes.stats && window) std::cerr << "# " << band.label() << ": " << statsNote(one.stats, one.seconds);
            for (std::size_t k = 0; k < one.matches.size(); ++k)
                std::cout << band.key() << ',' << k + 1 << ',' << formatDouble(one.matches[k].cost) << ','
                          << one.matches[k].start << ',' << one.matches[k].end << '\n';
        }
        flushStdout();
        return;
    }
    OneSearch found;
    if (mpi::active()) {
        // Under mpirun: a stretch of the reference per rank (mpi_search.h); the window mode on
        // the rank's GPU where one is named, the subsequence mode on the ranks' GPUs where one
        // is named or (auto) every rank has one, as one process would, else on all their cores.
        // (Multichannel series search on the CPU under auto, as in one process.)
        const bool gpuSearch = !window && (query.dims == 1 || compute::namesGpu(o.run.backend, o.run.kernel)) &&
                               usesGpuOnEveryRank(o.run);
        namingFiles({{"query", o.query}, {"reference", o.reference.front()}}, [&] {
            if (window) {
                compute::Params wp = params;
                wp.metric = compute::Metric::Cdtw;
                mpi::step([&] { wp.band = windowBand(o.modes, query.length); });
                const auto t0 = std::chrono::steady_clock::now();
                found.matches = windowSearchMpi(query, *parts, wp, toRunOptions(o.run, "search"), scope, &found.stats);
                found.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            } else {
                const auto t0 = std::chrono::steady_clock::now();
                found.matches = gpuSearch ? searchMpiGpu(query, *parts, params, toRunOptions(o.run, "search"), scope)
                                          : searchMpi(query, *parts, params, toRunOptions(o.run, "search"), scope);
                found.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            }
        });
        if (mpi::rank() != 0) return;
    } else {
        namingFiles({{"query", o.query}, {"reference", o.reference.front()}}, [&] {
            found = searchOne(query, reference, params, toRunOptions(o.run, "search"), o.modes, scope);
        });
    }
    finishProgress();
    split.mark(TimeSplit::Compute);
    const std::vector<compute::Match>& matches = found.matches;
    std::cerr << note;
    if (window && referenceLength < query.length)
        std::cerr << "warning: " << o.reference.front() << ": the reference (" << referenceLength
                  << " samples) is shorter than the query (" << query.length << "): no window to compare\n";
    if (o.modes.stats && window) std::cerr << statsNote(found.stats, found.seconds);
    else if (o.modes.stats)
        std::cerr << "# search " << found.seconds << " s (files not counted"
                  << (mpi::active() ? "; under mpirun each rank's reading of its part is" : "") << ")\n";
    std::cout << "rank,cost,start,end\n";
    for (std::size_t k = 0; k < matches.size(); ++k)
        std::cout << k + 1 << ',' << formatDouble(matches[k].cost) << ',' << matches[k].start << ','
                  << matches[k].end << '\n';
    flushStdout();
    split.mark(TimeSplit::Output);
    if (o.timing) split.print("search");
}

}  // namespace

void addSearchCommand(CLI::App& app) {
    auto o = std::make_shared<SearchOptions>();
    auto* cmd = app.add_subcommand("search", "top-k subsequence-DTW matches of a query in a long reference");
    cmd->add_option("--query", o->query, "series file holding the query")->required()->check(CLI::ExistingFile);
    cmd->add_option("--reference", o->reference,
                    "series file or recording channel to search in; repeat for several (one ranked list over all)")
        ->check(CLI::ExistingFile);
    cmd->add_option("--reference-study", o->referenceStudy,
                    "search every recording of a study (folder of EDF/BDF files or CHB-MIT summary); one ranked list "
                    "with recording, channel and clock times")
        ->option_text("FOLDER|SUMMARY")
        ->check(CLI::ExistingPath);
    cmd->add_flag("--skip-missing", o->skipMissing, "--reference-study: go on without missing or unreadable files");
    cmd->add_option("--reference-channel", o->referenceChannel,
                    "EDF/BDF signal of the reference (default: --channel); \"all\": every channel");
    cmd->add_option("--reference-window", o->referenceWindow,
                    "EDF/BDF window START:LEN of the reference in seconds (default: the whole channel; "
                    "--window applies to the query)")
        ->option_text("START:LEN");
    cmd->add_option("--top", o->top, "number of matches (non-overlapping by METRICS.md)")->capture_default_str();
    addCostOptions(*cmd, o->metric);
    addSearchModeOptions(*cmd, o->modes);
    addSeriesOptions(*cmd, o->series);
    addFreqBandOptions(*cmd, o->freqBands);
    addRunOptions(*cmd, o->run);
    cmd->add_flag("--timing", o->timing, "")->group("");  // benchmark: the split of the wall clock
    cmd->callback([o] { runSearch(*o); });
}

}  // namespace warplab::cli
