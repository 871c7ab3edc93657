#include "io/hdf5_handles.h"

#include <algorithm>
#include <mutex>

#include "io/io_error.h"
#include "io/params_json.h"

namespace warplab::io {

void silenceHdf5() {
    static std::once_flag once;
    std::call_once(once, [] {
        // Before the library starts: no clean-up at exit. libhdf5 1.10 keeps a file whose close
        // failed (a full disk) and crashes closing it again there; the handles here close all
        // they open, so that clean-up has nothing else to do.
        H5dont_atexit();
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    });
}

std::string hdf5Reason() {
    struct Found {
        std::string innermost, system;
    } found;
    // Walked upwards, the first entry is the innermost call (where a write() failed, its errno
    // text is quoted as "error message = '...'").
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, [](unsigned n, const H5E_error2_t* e, void* data) -> herr_t {
        auto* f = static_cast<Found*>(data);
        const std::string desc = e && e->desc ? e->desc : "";
        if (n == 0) f->innermost = desc;
        const std::string key = "error message = '";
        if (const auto at = desc.find(key); f->system.empty() && at != std::string::npos) {
            const auto end = desc.find('\'', at + key.size());
            f->system = desc.substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
        }
        return 0;
    }, &found);
    H5Eclear2(H5E_DEFAULT);
    if (!found.system.empty()) return found.system;
    return found.innermost.empty() ? "no reason given" : found.innermost;
}

void stringAttribute(const std::string& file, hid_t obj, const char* name, const std::string& value) {
    H5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), std::max<std::size_t>(1, value.size()));
    H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
    H5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    H5Handle attr(H5Acreate2(obj, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    const std::string padded = value.empty() ? std::string(1, '\0') : value;
    if (!attr.valid() || H5Awrite(attr.get(), type.get(), padded.data()) < 0)
        throw IoError(file, std::string("attribute ") + name, "HDF5 could not write it: " + hdf5Reason());
}

std::string readStringAttribute(hid_t obj, const char* name) {
    if (H5Aexists(obj, name) <= 0) return {};
    H5Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
    H5Handle type(H5Aget_type(attr.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_STRING) return {};
    if (H5Tis_variable_str(type.get()) > 0) {
        char* s = nullptr;
        H5Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(mem.get(), H5T_VARIABLE);
        if (H5Aread(attr.get(), mem.get(), &s) < 0 || !s) return {};
        std::string out(s);
        H5free_memory(s);
        return out;
    }
    std::string buf(H5Tget_size(type.get()), '\0');
    if (H5Aread(attr.get(), type.get(), buf.data()) < 0) return {};
    return std::string(buf.c_str());
}

std::pair<H5Handle, H5Handle> createMatrixFile(const std::string& file, std::size_t rows, std::size_t cols,
                                               const compute::Params& params, bool symmetric, bool float32, hid_t fapl) {
    silenceHdf5();
    if (rows == 0 || cols == 0) throw IoError(file, "distance", "an empty matrix (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
    H5Handle f(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose);
    if (!f.valid()) throw IoError(file, "", "HDF5 cannot create the file: " + hdf5Reason());
    hsize_t dims[2] = {rows, cols};
    H5Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
    H5Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    hsize_t chunk[2] = {std::min<hsize_t>(rows, 256), std::min<hsize_t>(cols, 256)};
    H5Pset_chunk(dcpl.get(), 2, chunk);
    H5Handle d(H5Dcreate2(f.get(), "/distance", float32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT), H5Dclose);
    if (!d.valid()) throw IoError(file, "distance", "HDF5 cannot create the dataset: " + hdf5Reason());
    stringAttribute(file, d.get(), "metric", std::string(compute::metricName(params.metric)));
    stringAttribute(file, d.get(), "parameters", paramsToJson(params).dump());
    H5Handle ispace(H5Screate(H5S_SCALAR), H5Sclose);
    H5Handle sym(H5Acreate2(d.get(), "symmetric", H5T_STD_I8LE, ispace.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    const signed char s = symmetric ? 1 : 0;
    if (!sym.valid() || H5Awrite(sym.get(), H5T_NATIVE_SCHAR, &s) < 0)
        throw IoError(file, "attribute symmetric", "HDF5 could not write it: " + hdf5Reason());
    return {std::move(f), std::move(d)};
}

void writeMatrixBlock(const std::string& file, hid_t dataset, std::size_t r0, std::size_t c0, std::size_t nr,
                      std::size_t nc, const double* values) {
    if (nr == 0 || nc == 0) return;
    H5Handle space(H5Dget_space(dataset), H5Sclose);
    hsize_t start[2] = {r0, c0}, count[2] = {nr, nc};
    H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
    H5Handle mem(H5Screate_simple(2, count, nullptr), H5Sclose);
    if (H5Dwrite(dataset, H5T_NATIVE_DOUBLE, mem.get(), space.get(), H5P_DEFAULT, values) < 0)
        throw IoError(file, "distance", "HDF5 write failed for rows " + std::to_string(r0) + ".." +
                                            std::to_string(r0 + nr) + ", columns " + std::to_string(c0) + ".." +
                                            std::to_string(c0 + nc) + ": " + hdf5Reason());
}

void writeNames(const std::string& file, hid_t h5file, const char* name, const std::vector<std::string>& names) {
    if (names.empty()) return;
    H5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    hsize_t n = names.size();
    H5Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    H5Handle d(H5Dcreate2(h5file, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
    std::vector<const char*> ptrs;
    for (const auto& s : names) ptrs.push_back(s.c_str());
    if (!d.valid() || H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()) < 0)
        throw IoError(file, name, "HDF5 could not write the names: " + hdf5Reason());
}

}  // namespace warplab::io
