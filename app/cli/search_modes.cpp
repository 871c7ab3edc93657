// The search options (mode, band, self-exclusion, precision) and the per-series search call (search_modes.h).
#include "app/cli/search_modes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <CLI/CLI.hpp>

#include "app/cli/common_options.h"
#include "io/recording.h"

namespace warplab::cli {

using K = compute::EngineError::Kind;

void addSearchModeOptions(CLI::App& cmd, SearchModeFlags& o) {
    cmd.add_option("--mode", o.mode,
                   "subsequence: subsequence DTW, free start and end (METRICS.md sdtw); window: every window of the "
                   "query's length z-normalised on its own, band DTW, squared cost (docs/SEARCH.md, the UCR Suite's "
                   "search), exact")
        ->check(CLI::IsMember({"subsequence", "window"}))
        ->capture_default_str();
    cmd.add_option("--band", o.band, "window mode: Sakoe-Chiba half-width in samples (default 5 % of the query)");
    cmd.add_option("--band-fraction", o.bandFraction,
                   "window mode: half-width as a fraction of the query length, floor(F * m) (0 .. 1)");
    cmd.add_flag("--include-self", o.includeSelf,
                 "keep matches at the query's own place when the query is a --window of the searched channel "
                 "(by default no match overlapping the query's samples in the recording and channel it was cut "
                 "from is reported; docs/SEARCH.md)");
    cmd.add_option("--exclusion-tolerance", o.exclusionTolerance,
                   "overlap with the query's own place still allowed: N samples, or seconds with an s suffix "
                   "(0.25s); 0 = no shared sample")
        ->option_text("N|Xs")
        ->capture_default_str();
    cmd.add_flag("--stats", o.stats,
                 "print on stderr how long the search took (files not counted); window mode: also how many windows "
                 "each pruning stage removed");
    cmd.add_option("--precision", o.precision,
                   "subsequence mode on a GPU: fp32, or half2 (ends chosen on a half-precision row, every reported "
                   "match rescored in fp32; measured on an H100: 8 of 160 top-5 ends differ from fp32's for "
                   "128-sample queries, 3 of 80 for ECG200, 19 of 40 for 2000-sample queries; docs/SEARCH.md)")
        ->check(CLI::IsMember({"fp32", "half2"}))
        ->capture_default_str();
}

std::optional<SelfSpan> querySpanInReference(const std::string& queryPath, const std::string& queryChannel,
                                             const std::string& queryWindow, const std::string& referencePath,
                                             const std::string& referenceChannel, const std::string& referenceWindow) {
    if (queryWindow.empty()) return std::nullopt;
    std::error_code ec;
    if (!std::filesystem::equivalent(queryPath, referencePath, ec) || ec) return std::nullopt;
    auto rec = io::Recording::open(referencePath);
    const auto& sigs = rec->signals();
    auto resolve = [&](const std::string& ch) { return ch.empty() ? (sigs.size() == 1 ? 0 : -1) : rec->findSignal(ch); };
    const int qs = resolve(queryChannel), rs = resolve(referenceChannel);
    if (qs < 0 || qs != rs) return std::nullopt;
    const double rate = sigs[std::size_t(qs)].rateHz;
    SeriesFlags qf, rf;
    qf.window = queryWindow;
    rf.window = referenceWindow;
    const io::SeriesFileOptions qo = toSeriesFileOptions(qf), ro = toSeriesFileOptions(rf);
    // The same rounding as io::readSeriesFile's window cut.
    const long long qStart = std::llround(qo.windowStartS.value_or(0.0) * rate);
    const long long qLen = qo.windowLengthS ? std::llround(*qo.windowLengthS * rate) : 0;
    const long long rStart = std::llround(ro.windowStartS.value_or(0.0) * rate);
    const long long first = qStart - rStart, last = first + qLen - 1;
    if (qLen < 1 || last < 0) return std::nullopt;
    return SelfSpan{std::size_t(std::max(0LL, first)), std::size_t(last), rate};
}

int windowBand(const SearchModeFlags& o, std::size_t m) {
    if (o.band && o.bandFraction)
        throw compute::EngineError(K::BadParameter, "band-fraction", "give --band or --band-fraction, not both");
    if (o.band) {
        if (*o.band < 0) throw compute::EngineError(K::BadParameter, "band", "must be >= 0");
        return *o.band;
    }
    const double f = o.bandFraction.value_or(0.05);
    if (!(f >= 0 && f <= 1)) throw compute::EngineError(K::BadParameter, "band-fraction", "must lie in [0, 1]");
    return int(std::floor(f * double(m)));
}

std::size_t exclusionToleranceSamples(const std::string& text, double rateHz) {
    const bool seconds = !text.empty() && (text.back() == 's' || text.back() == 'S');
    const std::string number = seconds ? text.substr(0, text.size() - 1) : text;
    double v = -1;
    std::size_t used = 0;
    try {
        v = std::stod(number, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (number.empty() || used != number.size() || !(v >= 0) || !std::isfinite(v) || (!seconds && v != std::floor(v)))
        throw compute::EngineError(K::BadParameter, "exclusion-tolerance",
                                   "'" + text + "' is not a whole number of samples (N) or seconds (Xs), >= 0");
    if (seconds && !(rateHz > 0))
        throw compute::EngineError(K::BadParameter, "exclusion-tolerance",
                                   "seconds need a sampling rate; give samples (N) for this series");
    return std::size_t(seconds ? std::llround(v * rateHz) : v);
}

compute::ExcludedSpan selfExclusion(const SelfSpan& span, const SearchModeFlags& o) {
    return compute::ExcludedSpan{span.first, span.last, exclusionToleranceSamples(o.exclusionTolerance, span.rateHz)};
}

OneSearch searchOne(const compute::Series& query, const compute::Series& reference, compute::Params params,
                    const compute::RunOptions& run, const SearchModeFlags& o, const compute::SearchScope& scope) {
    OneSearch out;
    const auto t0 = std::chrono::steady_clock::now();
    auto took = [&] { out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    if (o.mode == "window") {
        if (o.precision != "fp32")
            throw compute::EngineError(K::BadParameter, "precision", "half2 applies to --mode subsequence only");
        params.metric = compute::Metric::Cdtw;
        params.band = windowBand(o, query.length);
        out.matches = compute::Engine::windowSearch(query, reference, params, run, scope, &out.stats);
        took();
        return out;
    }
    if (o.band || o.bandFraction)
        throw compute::EngineError(K::BadParameter, o.band ? "band" : "band-fraction",
                                   "subsequence search has no band (use --mode window)");
    params.metric = compute::Metric::Sdtw;
    compute::SearchScope sc = scope;
    sc.precision = o.precision == "half2" ? compute::SearchPrecision::Half2 : compute::SearchPrecision::Fp32;
    out.matches = compute::Engine::search(query, reference, params, run, sc);
    took();
    return out;
}

std::string selfExclusionNote(const compute::ExcludedSpan& ex, std::size_t m, bool window, const std::string& where) {
    std::ostringstream s;
    s << "# self-exclusion: the query is samples " << ex.first << ".." << ex.last << " of " << where
      << "; no match overlapping it";
    if (ex.tolerance > 0) s << " by more than " << ex.tolerance << " samples";
    s << " is reported";
    if (window) {
        if (auto st = compute::spanExcludedStarts(ex, m)) s << " (starts " << st->first << ".." << st->second << ")";
    }
    s << " (--include-self keeps them)\n";
    return s.str();
}

std::string statsNote(const compute::WindowSearchStats& st, double seconds) {
    std::ostringstream s;
    const double n = st.windows ? double(st.windows) : 1.0;
    auto pct = [&](std::uint64_t v) {
        std::ostringstream p;
        p.precision(4);
        p << 100.0 * double(v) / n;
        return p.str();
    };
    s << "# windows " << st.windows << " (excluded " << st.excluded << ", exact statistics " << st.exactStats << ")\n"
      << "# pruned by LB_Kim " << st.prunedKim << " (" << pct(st.prunedKim) << " %), LB_Keogh query envelope "
      << st.prunedKeoghQuery << " (" << pct(st.prunedKeoghQuery) << " %), LB_Keogh window envelope "
      << st.prunedKeoghWindow << " (" << pct(st.prunedKeoghWindow) << " %)\n"
      << "# DTW abandoned early " << st.abandonedDtw << " (" << pct(st.abandonedDtw) << " %), DTW completed "
      << st.fullDtw << " (" << pct(st.fullDtw) << " %)\n"
      << "# search " << seconds << " s (files not counted)\n";
    return s.str();
}

}  // namespace warplab::cli
