// `warplab-cli search` options (window mode, band, self-exclusion, precision) and
// the one call that searches ONE query in ONE reference series with them. cmd_search.cpp (and
// a loop over recordings/channels around it) only reads files and prints.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "compute/engine/engine.h"

namespace CLI {
class App;
}

namespace warplab::cli {

struct SearchModeFlags {
    std::string mode = "subsequence";  // subsequence | window
    std::optional<int> band;           // window: Sakoe-Chiba half-width in samples
    std::optional<double> bandFraction;  // window: half-width as a fraction of the query length
    bool includeSelf = false;
    std::string exclusionTolerance = "0";  // samples, or seconds with an "s" suffix ("0.25s")
    bool stats = false;
    std::string precision = "fp32";    // fp32 | half2 (subsequence, GPU)
};
void addSearchModeOptions(CLI::App& cmd, SearchModeFlags& o);

// Where the query sits inside the searched series, when it was cut from it (same file, same
// signal): the reference indices of its first and last sample.
struct SelfSpan {
    std::size_t first = 0, last = 0;
    double rateHz = 0;  // of the searched channel (turns a tolerance in seconds into samples)
};
// Same recording file and signal, query window given: the span in reference indices (the
// reference window's start subtracted). std::nullopt when the query is not a region of the
// searched channel. Channel names are resolved through the recording, so "#3" and its label agree.
std::optional<SelfSpan> querySpanInReference(const std::string& queryPath, const std::string& queryChannel,
                                             const std::string& queryWindow, const std::string& referencePath,
                                             const std::string& referenceChannel, const std::string& referenceWindow);

// The window search's Sakoe-Chiba half-width for a query of length m: --band, else
// floor(--band-fraction * m), else floor(0.05 * m). Throws EngineError(BadParameter) naming
// the option for a negative band or a fraction outside [0, 1], or both given.
int windowBand(const SearchModeFlags& o, std::size_t m);

// --exclusion-tolerance in samples: "N" samples, or "Xs" seconds at `rateHz` (rounded to the
// nearest sample). Throws EngineError(BadParameter) naming the option for anything else.
std::size_t exclusionToleranceSamples(const std::string& text, double rateHz);

// The exclusion of the query's own place (compute/core/overlap_exclusion.h, docs/SEARCH.md):
// no reported match overlaps samples span.first..span.last by more than the tolerance, in
// both modes.
compute::ExcludedSpan selfExclusion(const SelfSpan& span, const SearchModeFlags& o);

struct OneSearch {
    std::vector<compute::Match> matches;
    compute::WindowSearchStats stats;  // window mode only
    double seconds = 0;                // the engine call alone (no file reading)
};
// Searches one query in one series in the chosen mode: THE per-series entry point (a study or
// all-channel search calls it once per (recording, channel), then merges the ranked lists).
// `params` carries cost, znorm (subsequence), sqrt, topk; the band comes from `o`.
OneSearch searchOne(const compute::Series& query, const compute::Series& reference, compute::Params params,
                    const compute::RunOptions& run, const SearchModeFlags& o, const compute::SearchScope& scope);

// The `#` lines printed on stderr before the CSV (self-exclusion, stats).
// `where` names the searched series ("s_c.edf, channel CZ" in a search of several).
// `m` and `window`: the query's length and the mode, for the window mode's excluded starts.
std::string selfExclusionNote(const compute::ExcludedSpan& excluded, std::size_t m, bool window,
                              const std::string& where = "the searched channel");
std::string statsNote(const compute::WindowSearchStats& s, double seconds);
// What a search over many references says on stderr besides its list: the self-exclusion
// notes and, in window mode, the pruning counts and the search time summed over them.
struct SearchLog {
    std::string notes;
    compute::WindowSearchStats stats;
    double seconds = 0;
};


}  // namespace warplab::cli
