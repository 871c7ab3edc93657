// Distance matrices as HDF5 (C API): chunked float64 /distance with "metric", "parameters"
// (JSON of compute::Params) and "symmetric" attributes; /row_names and /col_names if present.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>
#include <nlohmann/json.hpp>

#include "io/hdf5_handles.h"
#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/params_json.h"

namespace warplab::io {

namespace {

// `expected`: the matrix's rows (or columns). Another count is refused before anything is read:
// a damaged extent would otherwise have HDF5 walk its heap for billions of names.
std::vector<std::string> readNames(const std::string& path, hid_t file, const char* name, std::size_t expected) {
    if (H5Lexists(file, name, H5P_DEFAULT) <= 0) return {};
    H5Handle d(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose);
    H5Handle space(H5Dget_space(d.get()), H5Sclose);
    hssize_t n = H5Sget_simple_extent_npoints(space.get());
    if (n <= 0) return {};
    if (std::size_t(n) != expected)
        throw IoError(path, name + 1, std::to_string(n) + " names for " + std::to_string(expected) + " " +
                                          (std::string(name) == "/row_names" ? "rows" : "columns"));
    H5Handle stored(H5Dget_type(d.get()), H5Tclose);
    if (H5Tget_class(stored.get()) != H5T_STRING || H5Tis_variable_str(stored.get()) <= 0) return {};
    H5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5Tget_cset(stored.get()));  // HDF5 does not convert between ASCII and UTF-8
    std::vector<char*> ptrs(static_cast<std::size_t>(n), nullptr);
    if (H5Dread(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()) < 0) return {};
    std::vector<std::string> out;
    for (char* p : ptrs) {
        out.emplace_back(p ? p : "");
        H5free_memory(p);
    }
    return out;
}

}  // namespace

void writeMatrixHdf5(const std::string& path, const compute::DistanceMatrix& m, bool float32) {
    // The file is made in memory and written out whole: libhdf5 1.10 keeps a file whose close
    // failed (a full disk) open, and closes it again at exit, where it crashes.
    std::vector<char> image;
    {
        std::lock_guard lock(hdf5Mutex());
        silenceHdf5();
        H5Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
        if (!fapl.valid() || H5Pset_fapl_core(fapl.get(), 1 << 20, 0) < 0) throw IoError(path, "", "HDF5 cannot make a file in memory");
        auto [file, dset] = createMatrixFile(path, m.rows, m.cols, m.params, m.symmetric, float32, fapl.get());
        writeMatrixBlock(path, dset.get(), 0, 0, m.rows, m.cols, m.values.data());
        writeNames(path, file.get(), "/row_names", m.rowNames);
        writeNames(path, file.get(), "/col_names", m.colNames);
        dset.reset();
        if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0) throw IoError(path, "", "HDF5 flush failed: " + hdf5Reason());
        const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
        if (size <= 0) throw IoError(path, "", "HDF5 could not give the file's bytes");
        image.resize(std::size_t(size));
        if (H5Fget_file_image(file.get(), image.data(), std::size_t(size)) != size) throw IoError(path, "", "HDF5 could not give the file's bytes");
    }
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError(path, "", std::string("cannot be created: ") + std::strerror(errno));
    std::size_t done = 0;
    while (done < image.size()) {
        const ssize_t w = ::write(fd, image.data() + done, image.size() - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            const int e = errno;
            ::close(fd);
            throw IoError(path, "", std::string("write failed: ") + std::strerror(e));
        }
        done += std::size_t(w);
    }
    if (::close(fd) != 0) throw IoError(path, "", std::string("write failed: ") + std::strerror(errno));
}

compute::DistanceMatrix readMatrixHdf5(const std::string& path) {
    std::lock_guard lock(hdf5Mutex());
    silenceHdf5();
    if (H5Fis_hdf5(path.c_str()) <= 0) throw IoError(path, "", "not an HDF5 file");
    H5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.valid()) throw IoError(path, "", "HDF5 cannot open the file");
    if (H5Lexists(file.get(), "/distance", H5P_DEFAULT) <= 0) throw IoError(path, "distance", "no dataset /distance");
    H5Handle d(H5Dopen2(file.get(), "/distance", H5P_DEFAULT), H5Dclose);
    H5Handle space(H5Dget_space(d.get()), H5Sclose);
    if (H5Sget_simple_extent_ndims(space.get()) != 2) throw IoError(path, "distance", "not a 2-D dataset");
    hsize_t dims[2];
    H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    compute::DistanceMatrix m;
    m.rows = dims[0];
    m.cols = dims[1];
    if (m.cols != 0 && m.rows > std::numeric_limits<std::size_t>::max() / sizeof(double) / m.cols)
        throw IoError(path, "distance", "a " + std::to_string(m.rows) + " x " + std::to_string(m.cols) + " matrix cannot be held");
    // libhdf5 trusts the layout: a damaged one that promises more than the file stores has it
    // copy past its own buffers (fuzz_matrix, ASan). Unfiltered values must all be stored.
    {
        H5Handle dcpl(H5Dget_create_plist(d.get()), H5Pclose);
        if (H5Pget_nfilters(dcpl.get()) == 0) {
            H5Handle onDisk(H5Dget_type(d.get()), H5Tclose);  // float64 or float32
            const double valueBytes = double(std::max<std::size_t>(1, H5Tget_size(onDisk.get())));
            double need = double(m.rows) * double(m.cols) * valueBytes;
            if (H5Pget_layout(dcpl.get()) == H5D_CHUNKED) {
                hsize_t chunk[2] = {0, 0};
                if (H5Pget_chunk(dcpl.get(), 2, chunk) != 2 || chunk[0] == 0 || chunk[1] == 0)
                    throw IoError(path, "distance", "damaged chunk layout");
                need = std::ceil(double(m.rows) / double(chunk[0])) * std::ceil(double(m.cols) / double(chunk[1])) *
                       double(chunk[0]) * double(chunk[1]) * valueBytes;
            }
            const double stored = double(H5Dget_storage_size(d.get()));
            if (stored < need)
                throw IoError(path, "distance", "damaged or incomplete: the file stores " + std::to_string((long long)stored) +
                                                     " bytes of values where its layout needs " + std::to_string((long long)need));
        }
    }
    m.values.resize(m.rows * m.cols);
    if (H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, m.values.data()) < 0)
        throw IoError(path, "distance", "HDF5 read failed: " + hdf5Reason());
    const std::string params = readStringAttribute(d.get(), "parameters");
    if (!params.empty()) {
        auto j = nlohmann::json::parse(params, nullptr, false);
        if (j.is_discarded()) throw IoError(path, "distance/parameters", "not JSON");
        m.params = paramsFromJson(j, path, "distance/parameters");
    } else if (auto metric = compute::parseMetric(readStringAttribute(d.get(), "metric"))) {
        m.params.metric = *metric;
    }
    if (H5Aexists(d.get(), "symmetric") > 0) {
        H5Handle a(H5Aopen(d.get(), "symmetric", H5P_DEFAULT), H5Aclose);
        signed char s = 0;
        if (H5Aread(a.get(), H5T_NATIVE_SCHAR, &s) >= 0) m.symmetric = s != 0;
    }
    m.rowNames = readNames(path, file.get(), "/row_names", m.rows);
    m.colNames = readNames(path, file.get(), "/col_names", m.cols);
    return m;
}

}  // namespace warplab::io
