#include "compute/spectral/welch.h"

#include "compute/core/error.h"

namespace warplab::compute::spectral {

Detrend parseDetrend(const std::string&, const std::string& field) {
    throw EngineError(EngineError::Kind::Internal, field, "not implemented yet");
}
Scaling parseScaling(const std::string&, const std::string& field) {
    throw EngineError(EngineError::Kind::Internal, field, "not implemented yet");
}
const char* detrendName(Detrend) { return "constant"; }
const char* scalingName(Scaling) { return "density"; }
Spectrum welch(std::span<const float>, double, const WelchOptions&) {
    throw EngineError(EngineError::Kind::Internal, "welch", "not implemented yet");
}
Spectrum welch(const std::vector<std::span<const float>>&, double, const WelchOptions&) {
    throw EngineError(EngineError::Kind::Internal, "welch", "not implemented yet");
}

}  // namespace warplab::compute::spectral
