#include "io/params_json.h"

#include "io/io_error.h"
#include "io/json_field.h"

namespace warplab::io {

nlohmann::json paramsToJson(const compute::Params& p) {
    return {{"metric", std::string(compute::metricName(p.metric))},
            {"cost", std::string(compute::costName(p.cost))},
            {"band", p.band},
            {"gamma", p.gamma},
            {"nu", p.nu},
            {"lambda", p.lambda},
            {"degree", p.degree},
            {"rate", p.rate},
            {"znorm", p.znorm},
            {"sqrt", p.sqrt},
            {"topk", p.topk}};
}

compute::Params paramsFromJson(const nlohmann::json& j, const std::string& file, const std::string& where) {
    compute::Params p;
    if (!j.is_object()) throw IoError(file, where, "expected a JSON object");
    auto get = [&](const char* key, auto& dst) { readJsonField(j, key, dst, file, where + "." + key); };
    std::string metric(compute::metricName(p.metric)), cost(compute::costName(p.cost));
    get("metric", metric);
    get("cost", cost);
    auto m = compute::parseMetric(metric);
    if (!m) throw IoError(file, where + ".metric", "unknown metric \"" + metric + "\"");
    auto c = compute::parseCost(cost);
    if (!c) throw IoError(file, where + ".cost", "unknown cost \"" + cost + "\" (sq or abs)");
    p.metric = *m;
    p.cost = *c;
    get("band", p.band);
    get("gamma", p.gamma);
    get("nu", p.nu);
    get("lambda", p.lambda);
    get("degree", p.degree);
    get("rate", p.rate);
    get("znorm", p.znorm);
    get("sqrt", p.sqrt);
    get("topk", p.topk);
    return p;
}

}  // namespace warplab::io
