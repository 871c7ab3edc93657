#include "compute/core/params.h"

#include <cmath>

#include "compute/core/error.h"

namespace warplab::compute {

namespace {
struct MetricEntry { Metric metric; std::string_view name; };
constexpr MetricEntry kMetrics[] = {
    {Metric::Euclidean, "euclidean"}, {Metric::Dtw, "dtw"},         {Metric::Cdtw, "cdtw"},
    {Metric::Sdtw, "sdtw"},           {Metric::SoftDtw, "softdtw"}, {Metric::Twed, "twed"},
};
}  // namespace

std::string_view metricName(Metric m) {
    for (const auto& e : kMetrics)
        if (e.metric == m) return e.name;
    return "unknown";
}

std::optional<Metric> parseMetric(std::string_view name) {
    for (const auto& e : kMetrics)
        if (e.name == name) return e.metric;
    return std::nullopt;
}

std::string_view costName(Cost c) { return c == Cost::Squared ? "sq" : "abs"; }

std::optional<Cost> parseCost(std::string_view name) {
    if (name == "sq") return Cost::Squared;
    if (name == "abs") return Cost::Absolute;
    return std::nullopt;
}

const std::vector<Metric>& allMetrics() {
    static const std::vector<Metric> all = {Metric::Euclidean, Metric::Dtw,     Metric::Cdtw,
                                            Metric::Sdtw,      Metric::SoftDtw, Metric::Twed};
    return all;
}

void validate(const Params& p) {
    using K = EngineError::Kind;
    if (p.band < 0)
        throw EngineError(K::BadParameter, "band", "must be >= 0, got " + std::to_string(p.band));
    if (!(p.gamma > 0) || !std::isfinite(p.gamma))
        throw EngineError(K::BadParameter, "gamma", "must be a finite number > 0, got " + std::to_string(p.gamma));
    if (!(p.nu >= 0) || !std::isfinite(p.nu))
        throw EngineError(K::BadParameter, "nu", "must be a finite number >= 0, got " + std::to_string(p.nu));
    if (!(p.lambda >= 0) || !std::isfinite(p.lambda))
        throw EngineError(K::BadParameter, "lambda", "must be a finite number >= 0, got " + std::to_string(p.lambda));
    if (!(p.degree >= 1) || !std::isfinite(p.degree))
        throw EngineError(K::BadParameter, "degree", "must be a finite number >= 1, got " + std::to_string(p.degree));
    if (!(p.rate >= 0) || !std::isfinite(p.rate))
        throw EngineError(K::BadParameter, "rate", "must be a finite number > 0 (or 0 for sample index), got " + std::to_string(p.rate));
    if (p.sqrt && p.metric == Metric::SoftDtw)
        throw EngineError(K::BadParameter, "sqrt", "soft-DTW values can be negative, so --sqrt is not defined for softdtw");
    if (p.topk < 1)
        throw EngineError(K::BadParameter, "top", "must be >= 1, got " + std::to_string(p.topk));
}

}  // namespace warplab::compute
