// What every binding of the Python module shares: NumPy arrays in and out of the engine's
// types, Python keyword values to compute::Params / RunOptions, running a job with the GIL
// released and Ctrl-C watched, and the engine's errors as Python exceptions.
#pragma once
#include <functional>
#include <initializer_list>
#include <utility>
#include <string>
#include <type_traits>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "compute/core/job.h"
#include "compute/core/params.h"
#include "compute/core/series.h"
#include "compute/spectral/frequency_band.h"

namespace warplab::python {

namespace py = pybind11;

// A dtype's kind and size read through Python: pybind11 2.10 reads them from the descriptor
// struct, whose layout NumPy 2 changed (its itemsize there is not the item's size).
inline char dtypeKind(const py::dtype& dt) { return dt.attr("kind").cast<std::string>().at(0); }
inline int dtypeSize(const py::dtype& dt) { return dt.attr("itemsize").cast<int>(); }

// A JSON value as Python objects (dicts, lists, numbers, None): the records the CLI prints as
// JSON reach Python with the same keys, built by the same code (io/bench_json.h, io/signal_json.h).
inline py::object fromJson(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

// C-order strides of a new array, given explicitly for the same reason: without them pybind11
// 2.10 derives them from that misread item size, and NumPy 2 arrays come out with wrong strides.
inline std::vector<py::ssize_t> cStrides(const std::vector<py::ssize_t>& shape, py::ssize_t itemsize) {
    std::vector<py::ssize_t> s(shape.size(), itemsize);
    for (std::size_t k = shape.size(); k-- > 1;) s[k - 1] = s[k] * shape[k];
    return s;
}
// A new C-order array of T.
template <class T>
py::array_t<T> newArray(const std::vector<py::ssize_t>& shape) {
    return py::array_t<T>(shape, cStrides(shape, py::ssize_t(sizeof(T))));
}

// One series from a 1-D array (samples) or a 2-D array (samples x channels) of float32 or
// float64, or anything np.asarray makes one of. `name` says which argument in messages.
// Throws TypeError for another dtype, ValueError for another shape. The series owns its samples.
compute::Series toSeries(const py::handle& obj, const std::string& name);
// A set: a 2-D array (series x samples), a 3-D array (series x samples x channels), or a
// sequence of series (ragged lengths allowed). Each series owns its samples.
compute::SeriesSet toSeriesSet(const py::handle& obj, const std::string& name);

// The arrays that borrowing series read, held for as long as the series are used.
using Owners = std::vector<py::object>;
// As toSeries / toSeriesSet, without a copy where the kernels can read the array as it is: a
// C-contiguous float32 array (or row of one) becomes a series borrowing its buffer (the array is
// added to `owners`); float64 and other strides are converted to float32 samples of their own.
compute::Series viewSeries(const py::handle& obj, const std::string& name, Owners& owners);
compute::SeriesSet viewSeriesSet(const py::handle& obj, const std::string& name, Owners& owners);
// How many samples the conversions have copied since the module was loaded (a diagnostic).
unsigned long long copiedSamples();

// Python's spelling of the metric keywords; throws ValueError naming the field.
compute::Params toParams(const std::string& metric, int band, double gamma, double nu, double lam,
                         const std::string& cost, bool znorm, bool sqrt);
compute::Backend toBackend(const std::string& backend);
// devices: None or "all" (every GPU), an int, or a sequence of ints.
std::vector<int> toDevices(const py::handle& devices);
compute::RunOptions toRunOptions(const std::string& backend, const std::string& kernel, int threads,
                                 const py::handle& devices);

// Runs `work` with the GIL released. With `watch`, on a worker thread while this thread polls
// Python's signal handlers every 50 ms: a KeyboardInterrupt (or any exception a handler raises)
// cancels the job through options.cancel, waits for it to stop and is raised here. Without,
// inline (a short job: no thread to start). The engine's exceptions propagate.
// `progress` (None or a callable taking the fraction done) is called from this thread, at most
// every kProgressInterval, with 0.0 first and 1.0 when the job succeeded; it implies `watch`. An
// exception it raises cancels the job and is raised here.
void runJob(compute::RunOptions& options, bool watch, const std::function<void()>& work,
            const py::handle& progress = py::none());

// A NumPy record array of `rows` rows with these (name, format) fields, e.g. {"rank", "<i8"},
// zero-filled; the caller writes each row through mutable_data() as a struct of the same layout.
py::array recordArray(std::initializer_list<std::pair<const char*, const char*>> fields, std::size_t rows);

// The index `which` names among `count` things of `path`: an int in 0..count-1, or a name that
// `find` resolves (-1: none). Throws IoError naming `field` ("channel") and what is missing.
int indexOrName(const py::handle& which, std::size_t count, const std::function<int(const std::string&)>& find,
                const std::string& path, const std::string& field, const std::string& plural,
                const std::string& noSuchName);
// `stop` (None: the end) of a read of [start, stop) from `samples`; IoError naming `path` outside them.
long long readStop(long long start, const py::handle& stop, long long samples, const std::string& path);

// One field of each item, as a Python property returns it (channels' names, their rates).
template <typename Items, typename Field>
auto pluck(const Items& items, Field field) {
    std::vector<std::decay_t<decltype(field(*std::begin(items)))>> out;
    for (const auto& item : items) out.push_back(field(item));
    return out;
}

// Registers warplab.DeviceError and the translation of EngineError / IoError.
void registerErrors(py::module_& m);
// FileNotFoundError naming the path and what it was for, when `path` does not exist.
void requireExistingFile(const std::string& path, const std::string& field);

void bindDistances(py::module_& m);
void bindSearch(py::module_& m);
void bindRecording(py::module_& m);
void bindInfo(py::module_& m);
void bindStudy(py::module_& m);
void bindSpectral(py::module_& m);  // bind_spectral.cpp: bands, band filter, PSD, spectrogram
// A frequency band from Python: "alpha", "8-13", "mu=8-12" or a pair (8, 13) in Hz; throws
// EngineError(BadParameter, "freq_band") naming what is wrong (bind_spectral.cpp).
compute::spectral::FrequencyBand toBand(const py::handle& band);

}  // namespace warplab::python
