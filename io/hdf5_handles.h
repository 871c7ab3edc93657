// Small RAII owners for HDF5 C API handles, and the shared layout of a matrix file:
// chunked float64 dataset /distance with attributes "metric", "parameters" (JSON) and
// "symmetric"; optional string datasets /row_names and /col_names.
#pragma once
#include <hdf5.h>

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/params.h"

namespace warplab::io {

class H5Handle {
public:
    using Closer = herr_t (*)(hid_t);
    H5Handle() = default;
    H5Handle(hid_t id, Closer close) : id_(id), close_(close) {}
    H5Handle(H5Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
    H5Handle& operator=(H5Handle&& o) noexcept {
        reset();
        id_ = std::exchange(o.id_, H5I_INVALID_HID);
        close_ = o.close_;
        return *this;
    }
    ~H5Handle() { reset(); }
    void reset() {
        if (id_ >= 0 && close_) close_(id_);
        id_ = H5I_INVALID_HID;
    }
    hid_t get() const { return id_; }
    bool valid() const { return id_ >= 0; }

private:
    hid_t id_ = H5I_INVALID_HID;
    Closer close_ = nullptr;
};

// Debian's serial HDF5 is not thread-safe: every HDF5 call in io/ runs under this lock (taken
// first in each entry point, so the handles it owns close while it is held).
inline std::recursive_mutex& hdf5Mutex() {
    static std::recursive_mutex m;
    return m;
}

// Turns off HDF5's automatic error printing (a library must not print); errors are reported
// by return codes and become IoError. Called first by every entry point, before any other
// HDF5 call, as it also turns off libhdf5's clean-up at exit (hdf5_handles.cpp says why).
void silenceHdf5();
// Why the last HDF5 call failed, from the library's error stack (which it then clears): the
// system's reason where a system call failed ("No space left on device"), else the innermost
// description; "no reason given" when the stack is empty.
std::string hdf5Reason();

// Creates `file` (truncating) with an empty chunked rows x cols dataset /distance (float64, or
// float32: writeMatrixBlock's doubles are then rounded by HDF5) and its attributes. Returns the
// file and dataset handles. `fapl`: the file access properties (an in-memory file for
// writeMatrixHdf5).
std::pair<H5Handle, H5Handle> createMatrixFile(const std::string& file, std::size_t rows, std::size_t cols,
                                               const compute::Params& params, bool symmetric, bool float32 = false,
                                               hid_t fapl = H5P_DEFAULT);

// Writes the block [r0, r0+nr) x [c0, c0+nc) of /distance from row-major `values`.
void writeMatrixBlock(const std::string& file, hid_t dataset, std::size_t r0, std::size_t c0, std::size_t nr,
                      std::size_t nc, const double* values);

void writeNames(const std::string& file, hid_t h5file, const char* name, const std::vector<std::string>& names);

// A fixed-length string attribute `name` on `obj`; throws IoError(file, "attribute NAME").
void stringAttribute(const std::string& file, hid_t obj, const char* name, const std::string& value);
// The string attribute `name` of `obj`, "" when there is none or it is not a string.
std::string readStringAttribute(hid_t obj, const char* name);

}  // namespace warplab::io
