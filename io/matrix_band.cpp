#include "io/matrix_band.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io/band_json.h"
#include "io/hdf5_handles.h"
#include "io/io_error.h"
#include "io/json_field.h"
#include "io/matrix_formats.h"
#include "io/params_json.h"

namespace warplab::io {

using nlohmann::json;

namespace {
bool isHdf5(const std::string& path) {
    const std::string ext = lowerExtension(path);
    return ext == ".h5" || ext == ".hdf5";
}
constexpr const char* kAttribute = "frequency_band";
}  // namespace

json matrixBandToJson(const MatrixBand& b) {
    json j = bandToJson(b.band);
    j["order"] = b.order;
    return j;
}

MatrixBand matrixBandFromJson(const json& j, const std::string& file, const std::string& where) {
    MatrixBand b;
    b.band = bandFromJson(j, file, where);
    readJsonField(j, "order", b.order, file, where + ".order");
    if (b.order < 1 || b.order > 16) throw IoError(file, where + ".order", "must be 1..16, got " + std::to_string(b.order));
    return b;
}

std::string matrixSidecarPath(const std::string& matrixPath) { return matrixPath + ".json"; }

void writeMatrixBand(const std::string& matrixPath, const MatrixBand& band, const compute::Params& params,
                     std::size_t rows, std::size_t cols) {
    if (isHdf5(matrixPath)) {
        std::lock_guard lock(hdf5Mutex());
        silenceHdf5();
        H5Handle file(H5Fopen(matrixPath.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
        if (!file.valid()) throw IoError(matrixPath, "", "HDF5 cannot open the file to record its frequency band");
        H5Handle d(H5Dopen2(file.get(), "/distance", H5P_DEFAULT), H5Dclose);
        if (!d.valid()) throw IoError(matrixPath, "distance", "no dataset /distance");
        if (H5Aexists(d.get(), kAttribute) > 0) H5Adelete(d.get(), kAttribute);
        stringAttribute(matrixPath, d.get(), kAttribute, matrixBandToJson(band).dump());
        if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0) throw IoError(matrixPath, "", "HDF5 flush failed: " + hdf5Reason());
        return;
    }
    const std::string sidecar = matrixSidecarPath(matrixPath);
    const json j = {{"matrix", std::filesystem::path(matrixPath).filename().string()},
                    {"shape", {rows, cols}},
                    {"frequency_band", matrixBandToJson(band)},
                    {"parameters", paramsToJson(params)}};
    const std::string tmp = temporaryPathFor(sidecar);
    {
        std::ofstream out(tmp);
        out << j.dump(2) << '\n';
        if (!out.flush()) {
            std::remove(tmp.c_str());
            throw IoError(sidecar, "", "write failed (disk full?)");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, sidecar, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw IoError(sidecar, "", "cannot rename the finished file into place: " + ec.message());
    }
}

std::optional<MatrixBand> readMatrixBand(const std::string& matrixPath) {
    if (isHdf5(matrixPath)) {
        std::lock_guard lock(hdf5Mutex());
        silenceHdf5();
        H5Handle file(H5Fopen(matrixPath.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
        if (!file.valid()) throw IoError(matrixPath, "", "HDF5 cannot open the file");
        if (H5Lexists(file.get(), "/distance", H5P_DEFAULT) <= 0) throw IoError(matrixPath, "distance", "no dataset /distance");
        H5Handle d(H5Dopen2(file.get(), "/distance", H5P_DEFAULT), H5Dclose);
        const std::string text = readStringAttribute(d.get(), kAttribute);
        if (text.empty()) return std::nullopt;
        const json j = json::parse(text, nullptr, false);
        if (j.is_discarded()) throw IoError(matrixPath, "distance/frequency_band", "not JSON");
        return matrixBandFromJson(j, matrixPath, "distance/frequency_band");
    }
    const std::string sidecar = matrixSidecarPath(matrixPath);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(sidecar, ec)) return std::nullopt;
    std::ifstream in(sidecar);
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw IoError(sidecar, "", "not a JSON object");
    const auto b = j.find("frequency_band");
    if (b == j.end()) return std::nullopt;
    return matrixBandFromJson(*b, sidecar, "frequency_band");
}

}  // namespace warplab::io
