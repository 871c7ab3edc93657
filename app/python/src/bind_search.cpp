// search: the top-k matches of a query in a long reference, as `warplab-cli search` finds them.
#include <cmath>

#include "compute/core/error.h"
#include "compute/core/overlap_exclusion.h"
#include "compute/engine/engine.h"
#include "py_common.h"

namespace warplab::python {

namespace {

using K = compute::EngineError::Kind;

// exclude: None, one (first, last) span or a list of them, inclusive reference samples (e.g. the
// query's own place when it was cut from the reference) that no reported match may overlap by
// more than `tolerance` samples: the rule of the GUI and the CLI (compute/core/overlap_exclusion.h).
std::vector<compute::ExcludedSpan> toExcluded(const py::handle& exclude, long long tolerance) {
    std::vector<compute::ExcludedSpan> out;
    if (tolerance < 0) throw py::value_error("exclusion_tolerance: must be >= 0 samples");
    if (exclude.is_none()) return out;
    auto pair = [tolerance](const py::handle& h, const std::string& field) {
        const auto seq = h.cast<py::sequence>();
        if (seq.size() != 2) throw py::value_error(field + ": give (first, last), inclusive");
        const long long first = seq[0].cast<long long>(), last = seq[1].cast<long long>();
        if (first < 0 || last < first) throw py::value_error(field + ": needs 0 <= first <= last");
        return compute::ExcludedSpan{std::size_t(first), std::size_t(last), std::size_t(tolerance)};
    };
    const auto seq = exclude.cast<py::sequence>();
    if (seq.size() == 2 && !py::isinstance<py::sequence>(seq[0])) {  // one pair (NumPy integers too)
        out.push_back(pair(exclude, "exclude"));
        return out;
    }
    for (std::size_t i = 0; i < seq.size(); ++i) out.push_back(pair(seq[i], "exclude[" + std::to_string(i) + "]"));
    return out;
}

py::array search(const py::handle& queryObj, const py::handle& referenceObj, int k, const std::string& mode,
                 const py::handle& bandObj, bool znorm, const std::string& cost, bool sqrt, const py::handle& exclude,
                 long long exclusionTolerance, const std::string& backend, const std::string& kernel, int threads, const py::handle& devices,
                 const py::handle& progress) {
    if (mode != "subsequence" && mode != "window")
        throw py::value_error("mode: unknown mode '" + mode + "' (subsequence, window)");
    if (k < 1) throw py::value_error("k: must be >= 1");
    const bool window = mode == "window";
    compute::Params params = toParams(window ? "cdtw" : "sdtw", 0, 1.0, 0.001, 1.0, cost, znorm, sqrt);
    params.topk = k;
    compute::RunOptions run = toRunOptions(backend, kernel, threads, devices);
    Owners owners;  // the arrays read in place
    const compute::Series query = viewSeries(queryObj, "query", owners),
                          reference = viewSeries(referenceObj, "reference", owners);
    compute::SearchScope scope;
    scope.spans = toExcluded(exclude, exclusionTolerance);
    if (window) {
        // The CLI's default: floor(0.05 * m) samples.
        const int band = bandObj.is_none() ? int(std::floor(0.05 * double(query.length))) : bandObj.cast<int>();
        if (band < 0) throw py::value_error("band: must be >= 0");
        params.band = band;
    } else if (!bandObj.is_none()) {
        throw py::value_error("band: subsequence search has no band (use mode=\"window\")");
    }
    std::vector<compute::Match> matches;
    runJob(run, true, [&] {
        matches = window ? compute::Engine::windowSearch(query, reference, params, run, scope)
                         : compute::Engine::search(query, reference, params, run, scope);
    }, progress);
    py::array out = recordArray({{"rank", "<i8"}, {"cost", "<f8"}, {"start", "<i8"}, {"end", "<i8"}}, matches.size());
    struct Row {
        long long rank;
        double cost;
        long long start, end;
    };
    static_assert(sizeof(Row) == 32);
    auto* rows = static_cast<Row*>(out.mutable_data());
    for (std::size_t i = 0; i < matches.size(); ++i)
        rows[i] = {static_cast<long long>(i + 1), matches[i].cost, static_cast<long long>(matches[i].start),
                   static_cast<long long>(matches[i].end)};
    return out;
}

}  // namespace

void bindSearch(py::module_& m) {
    using namespace py::literals;
    m.def("search", &search, "query"_a, "reference"_a, "k"_a, "mode"_a, "band"_a, "znorm"_a, "cost"_a, "sqrt"_a,
          "exclude"_a, "exclusion_tolerance"_a, "backend"_a, "kernel"_a, "threads"_a, "devices"_a, "progress"_a);
}

}  // namespace warplab::python
