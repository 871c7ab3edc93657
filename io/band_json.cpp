#include "io/band_json.h"

#include "compute/core/error.h"
#include "io/io_error.h"
#include "io/json_field.h"

namespace warplab::io {

using nlohmann::json;
namespace sp = compute::spectral;

json bandToJson(const sp::FrequencyBand& band) {
    return {{"name", band.name}, {"low_hz", band.lowHz}, {"high_hz", band.highHz}};
}

sp::FrequencyBand bandFromJson(const json& j, const std::string& file, const std::string& where) {
    if (!j.is_object()) throw IoError(file, where, "expected a frequency band object {\"name\", \"low_hz\", \"high_hz\"}");
    if (!j.contains("low_hz") || !j.contains("high_hz")) throw IoError(file, where, "a frequency band needs low_hz and high_hz");
    sp::FrequencyBand b;
    readJsonField(j, "name", b.name, file, where + ".name");
    readJsonField(j, "low_hz", b.lowHz, file, where + ".low_hz");
    readJsonField(j, "high_hz", b.highHz, file, where + ".high_hz");
    try {  // the form only: the rate is the recording's, checked when the band is applied
        sp::checkBandForm(b, where);
    } catch (const compute::EngineError& e) {
        throw IoError(file, where, e.what());
    }
    return b;
}

json bandChoiceToJson(const sp::BandChoice& choice) {
    json bands = json::array();
    for (const auto& b : choice.bands) bands.push_back(bandToJson(b));
    return {{"bands", std::move(bands)}, {"order", choice.order}, {"apply_to_display", choice.applyToDisplay}};
}

sp::BandChoice bandChoiceFromJson(const json& j, const std::string& file, const std::string& where) {
    if (!j.is_object()) throw IoError(file, where, "expected an object {\"bands\", \"order\", \"apply_to_display\"}");
    sp::BandChoice c;
    if (auto b = j.find("bands"); b != j.end()) {
        if (!b->is_array()) throw IoError(file, where + ".bands", "expected an array");
        for (std::size_t i = 0; i < b->size(); ++i)
            c.bands.push_back(bandFromJson((*b)[i], file, where + ".bands[" + std::to_string(i) + "]"));
    }
    readJsonField(j, "order", c.order, file, where + ".order");
    if (c.order < 1 || c.order > 16) throw IoError(file, where + ".order", "must be 1..16, got " + std::to_string(c.order));
    readJsonField(j, "apply_to_display", c.applyToDisplay, file, where + ".apply_to_display");
    return c;
}

}  // namespace warplab::io
