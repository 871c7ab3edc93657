// Every metric option in one documented struct (as dtaidistance's DTWSettings), so that the
// CLI, the GUI's metric panel, sessions and `bench` output all speak of the same fields.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warplab::compute {

enum class Metric { Euclidean, Dtw, Cdtw, Sdtw, SoftDtw, Twed };
enum class Cost { Squared, Absolute };

struct Params {
    Metric metric = Metric::Dtw;
    Cost cost = Cost::Squared;  // local cost c(a,b): (a-b)^2 or |a-b| (dtw, cdtw, sdtw, softdtw, euclidean)
    int band = 0;               // Sakoe-Chiba half-width w >= 0 (cdtw only)
    double gamma = 1.0;         // soft-DTW smoothing, > 0
    double nu = 0.001;          // TWED stiffness, >= 0
    double lambda = 1.0;        // TWED edit penalty, >= 0
    double degree = 2.0;        // TWED norm degree p over the channels, >= 1
    double rate = 0.0;          // TWED timestamps: 0 = sample index, else t_i = i / rate seconds
    bool znorm = false;         // z-normalise each series (per channel) before the metric
    bool sqrt = false;          // return the square root of the accumulated cost
    int topk = 1;               // sdtw: number of matches wanted
};

std::string_view metricName(Metric m);           // "euclidean", "dtw", ...
std::optional<Metric> parseMetric(std::string_view name);
std::string_view costName(Cost c);               // "sq", "abs"
std::optional<Cost> parseCost(std::string_view name);
const std::vector<Metric>& allMetrics();

// Throws EngineError(BadParameter) naming the field when a parameter is impossible.
void validate(const Params& p);

}  // namespace warplab::compute
