// The frequency band a distance matrix's series were filtered to, kept with the matrix file so
// that a matrix says what it was computed from: in an HDF5 file the /distance attribute
// "frequency_band" (JSON {"name", "low_hz", "high_hz", "order"}); beside a .npy or .csv, which
// have no place for it, a JSON sidecar FILE.json (m.alpha.npy -> m.alpha.npy.json) holding the
// same band, the metric parameters and the matrix's shape. A matrix without a band has none.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "compute/core/params.h"
#include "compute/spectral/frequency_band.h"

namespace warplab::io {

struct MatrixBand {
    compute::spectral::FrequencyBand band;
    int order = compute::spectral::kDefaultBandOrder;  // Butterworth order of the zero-phase band-pass
    friend bool operator==(const MatrixBand&, const MatrixBand&) = default;
};

nlohmann::json matrixBandToJson(const MatrixBand& b);
// Throws IoError(file, where..., reason) for a missing or wrong field.
MatrixBand matrixBandFromJson(const nlohmann::json& j, const std::string& file, const std::string& where);

// "m.alpha.npy" -> "m.alpha.npy.json".
std::string matrixSidecarPath(const std::string& matrixPath);

// Records `band` with the finished matrix file `matrixPath` (written by writeMatrix or a
// MatrixStreamWriter): the HDF5 attribute, or the sidecar (written under a temporary name and
// renamed). Throws IoError naming the file.
void writeMatrixBand(const std::string& matrixPath, const MatrixBand& band, const compute::Params& params,
                     std::size_t rows, std::size_t cols);
// The band recorded with `matrixPath`, nullopt when there is none. Throws IoError for a sidecar
// or attribute that is there but unreadable.
std::optional<MatrixBand> readMatrixBand(const std::string& matrixPath);

}  // namespace warplab::io
