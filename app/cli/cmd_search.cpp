// `warplab-cli search`: the top-k subsequence-DTW matches of a query inside a long reference.
// Prints CSV `rank,cost,start,end` (start and end are reference sample indices, end inclusive).
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/search_modes.h"
#include "compute/engine.h"

namespace warplab::cli {

namespace {

struct SearchOptions {
    MetricOptions metric;  // --cost, --znorm, --sqrt; the metric is always sdtw
    RunFlags run;
    SeriesFlags series;  // --rate and --timestamps are accepted but unused: sdtw has no timestamps
    std::string query, reference;
    std::string referenceChannel, referenceWindow;  // default: --channel, and the whole channel
    int top = 1;
    SearchModeFlags modes;  // --mode, --band, --band-fraction, --include-self, --stats, --precision
};

void runSearch(const SearchOptions& o) {
    compute::Params params = o.metric.params;
    params.metric = compute::Metric::Sdtw;
    params.topk = o.top;
    compute::validate(params);
    const bool window = o.modes.mode == "window";
    compute::Series query = readOneSeries(o.query, o.series, "query");
    // --window cuts the query out of a recording; the reference is searched whole unless
    // --reference-window says otherwise.
    SeriesFlags refFlags = o.series;
    refFlags.window = o.referenceWindow;
    if (!o.referenceChannel.empty()) refFlags.channel = o.referenceChannel;
    compute::Series reference = readOneSeries(o.reference, refFlags, "reference");
    // A query cut from the searched channel would find itself: its own place is excluded
    // unless --include-self (search_modes.h says exactly which matches).
    compute::SearchScope scope;
    std::string note;
    if (!o.modes.includeSelf) {
        const std::string refChannel = o.referenceChannel.empty() ? o.series.channel : o.referenceChannel;
        if (auto span = querySpanInReference(o.query, o.series.channel, o.series.window, o.reference, refChannel,
                                             o.referenceWindow)) {
            scope.excluded = selfExclusion(*span, query.length, window);
            note = selfExclusionNote(*span, scope.excluded, window);
        }
    }
    OneSearch found;
    namingFiles({{"query", o.query}, {"reference", o.reference}},
                [&] { found = searchOne(query, reference, params, toRunOptions(o.run, "search"), o.modes, scope); });
    finishProgress();
    const std::vector<compute::Match>& matches = found.matches;
    std::cerr << note;
    if (o.modes.stats && window) std::cerr << statsNote(found.stats, found.seconds);
    std::cout << "rank,cost,start,end\n";
    for (std::size_t k = 0; k < matches.size(); ++k)
        std::cout << k + 1 << ',' << formatDouble(matches[k].cost) << ',' << matches[k].start << ','
                  << matches[k].end << '\n';
    flushStdout();
}

}  // namespace

void addSearchCommand(CLI::App& app) {
    auto o = std::make_shared<SearchOptions>();
    auto* cmd = app.add_subcommand("search", "top-k subsequence-DTW matches of a query in a long reference");
    cmd->add_option("--query", o->query, "series file holding the query")->required()->check(CLI::ExistingFile);
    cmd->add_option("--reference", o->reference, "series file or recording channel to search in")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--reference-channel", o->referenceChannel, "EDF/BDF signal of the reference (default: --channel)");
    cmd->add_option("--reference-window", o->referenceWindow,
                    "EDF/BDF window START:LEN of the reference in seconds (default: the whole channel; "
                    "--window applies to the query)")
        ->option_text("START:LEN");
    cmd->add_option("--top", o->top, "number of matches (non-overlapping by METRICS.md)")->capture_default_str();
    addCostOptions(*cmd, o->metric);
    addSearchModeOptions(*cmd, o->modes);
    addSeriesOptions(*cmd, o->series);
    addRunOptions(*cmd, o->run);
    cmd->callback([o] { runSearch(*o); });
}

}  // namespace warplab::cli
