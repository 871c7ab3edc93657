// NumPy <-> engine types, keyword values, the job runner with Ctrl-C, and error translation.
#include "py_common.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "compute/core/error.h"
#include "io/io_error.h"

namespace warplab::python {

using K = compute::EngineError::Kind;

// How often a progress callable is called at most: often enough for a bar, rarely enough that
// Python's cost stays out of the job's time.
constexpr auto kProgressInterval = std::chrono::milliseconds(100);

namespace {

// An ndarray as it is, or np.asarray(obj) with numpy's own complaint (a ragged nested list)
// re-raised as ValueError naming the argument.
py::array asArray(const py::handle& obj, const std::string& name) {
    if (py::isinstance<py::array>(obj)) return py::reinterpret_borrow<py::array>(obj);
    try {
        return py::module_::import("numpy").attr("asarray")(obj);
    } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_ValueError) && !e.matches(PyExc_TypeError)) throw;
        throw py::value_error(name + ": not an array of numbers (" + std::string(py::str(e.value())) + ")");
    }
}

void requireFloat(const py::array& a, const std::string& name) {
    const py::dtype dt = a.dtype();
    if (dtypeKind(dt) != 'f' || (dtypeSize(dt) != 4 && dtypeSize(dt) != 8))
        throw py::type_error(name + ": dtype " + py::str(dt.attr("name")).cast<std::string>() +
                             " is not float32 or float64 (convert with .astype(np.float64))");
}

// Samples converted into a series of the engine's own (float64, or strides other than C order):
// the diagnostic _warplab._copied_samples() reads it, so tests can tell a borrowed input from a copy.
std::atomic<unsigned long long> g_copiedSamples{0};

// Copies a 1-D or 2-D array of T (any strides) into `out` as float, sample-major.
template <class T>
void copyAs(const py::array& a, float* out) {
    const char* base = static_cast<const char*>(a.data());
    const py::ssize_t n0 = a.shape(0), n1 = a.ndim() == 2 ? a.shape(1) : 1;
    const py::ssize_t s0 = a.strides(0), s1 = a.ndim() == 2 ? a.strides(1) : py::ssize_t(sizeof(T));
    g_copiedSamples += static_cast<unsigned long long>(n0 * n1);
    if (std::is_same_v<T, float> && (a.flags() & py::array::c_style)) {
        std::memcpy(out, base, std::size_t(n0 * n1) * sizeof(float));
        return;
    }
    for (py::ssize_t i = 0; i < n0; ++i)
        for (py::ssize_t j = 0; j < n1; ++j)
            *out++ = static_cast<float>(*reinterpret_cast<const T*>(base + i * s0 + j * s1));
}

// A series of `a`: read in place (borrowed, `a` kept in `owners`) when it is float32 in C order,
// the samples the kernels read; else converted to float32 samples of its own.
compute::Series fromArray(const py::array& a, const std::string& name, Owners& owners) {
    requireFloat(a, name);
    if (a.ndim() != 1 && a.ndim() != 2)
        throw py::value_error(name + ": a series is a 1-D array (samples) or a 2-D array (samples x channels), got " +
                              std::to_string(a.ndim()) + " dimensions");
    const std::size_t length = std::size_t(a.shape(0)), dims = a.ndim() == 2 ? std::size_t(a.shape(1)) : 1;
    if (dtypeSize(a.dtype()) == 4 && (a.flags() & py::array::c_style) && length * dims > 0) {
        owners.push_back(a);
        return compute::Series::borrowing(static_cast<const float*>(a.data()), length, dims);
    }
    compute::Series s;
    s.length = length;
    s.dims = dims;
    s.values.resize(s.length * s.dims);
    if (!s.values.empty()) {
        if (dtypeSize(a.dtype()) == 4) copyAs<float>(a, s.values.data());
        else copyAs<double>(a, s.values.data());
    }
    return s;
}

std::string joinedMetricNames() {
    std::string out;
    for (auto m : compute::allMetrics()) out += (out.empty() ? "" : ", ") + std::string(compute::metricName(m));
    return out;
}

// Python's exception for an engine error (io::IoError included, whose text names the file):
// ValueError, DeviceError, KeyboardInterrupt or RuntimeError.
PyObject* g_deviceError = nullptr;

}  // namespace

compute::Series viewSeries(const py::handle& obj, const std::string& name, Owners& owners) {
    return fromArray(asArray(obj, name), name, owners);
}

compute::SeriesSet viewSeriesSet(const py::handle& obj, const std::string& name, Owners& owners) {
    compute::SeriesSet set;
    const bool array = py::isinstance<py::array>(obj);
    if (array && dtypeKind(py::reinterpret_borrow<py::array>(obj).dtype()) != 'O') {
        const auto a = py::reinterpret_borrow<py::array>(obj);
        requireFloat(a, name);
        if (a.ndim() != 2 && a.ndim() != 3)
            throw py::value_error(name + ": a set of series is a 2-D array (series x samples), a 3-D array (series x "
                                  "samples x channels) or a list of 1-D arrays, got " + std::to_string(a.ndim()) +
                                  " dimensions");
        set.reserve(std::size_t(a.shape(0)));
        for (py::ssize_t i = 0; i < a.shape(0); ++i)
            set.push_back(fromArray(a[py::int_(i)], name + "[" + std::to_string(i) + "]", owners));
        return set;
    }
    if (!array && !py::isinstance<py::sequence>(obj))
        throw py::type_error(name + ": give a 2-D or 3-D array or a list of arrays, not " +
                             std::string(py::str(py::type::of(obj).attr("__name__"))));
    std::size_t i = 0;
    for (const py::handle item : obj) {
        set.push_back(viewSeries(item, name + "[" + std::to_string(i) + "]", owners));
        ++i;
    }
    return set;
}

compute::Series toSeries(const py::handle& obj, const std::string& name) {
    Owners owners;
    compute::Series s = viewSeries(obj, name, owners);
    s.own();
    return s;
}

compute::SeriesSet toSeriesSet(const py::handle& obj, const std::string& name) {
    Owners owners;
    compute::SeriesSet set = viewSeriesSet(obj, name, owners);
    for (auto& s : set) s.own();
    return set;
}

unsigned long long copiedSamples() { return g_copiedSamples.load(); }

compute::Params toParams(const std::string& metric, int band, double gamma, double nu, double lam,
                         const std::string& cost, bool znorm, bool sqrt) {
    compute::Params p;
    const auto m = compute::parseMetric(metric);
    if (!m) throw py::value_error("metric: unknown metric '" + metric + "' (" + joinedMetricNames() + ")");
    const auto c = compute::parseCost(cost);
    if (!c) throw py::value_error("cost: unknown cost '" + cost + "' (sq, abs)");
    p.metric = *m;
    p.cost = *c;
    p.band = band;
    p.gamma = gamma;
    p.nu = nu;
    p.lambda = lam;
    p.znorm = znorm;
    p.sqrt = sqrt;
    compute::validate(p);
    return p;
}

compute::Backend toBackend(const std::string& b) {
    if (b == "auto") return compute::Backend::Auto;
    if (b == "cpu") return compute::Backend::Cpu;
    if (b == "cuda") return compute::Backend::Cuda;
    if (b == "hip") return compute::Backend::Hip;
    throw py::value_error("backend: unknown backend '" + b + "' (auto, cpu, cuda, hip)");
}

std::vector<int> toDevices(const py::handle& devices) {
    if (devices.is_none()) return {};
    if (py::isinstance<py::str>(devices)) {
        if (devices.cast<std::string>() == "all") return {};
        throw py::value_error("devices: 'all', a GPU index or a list of them, not '" + devices.cast<std::string>() + "'");
    }
    std::vector<int> out;
    if (py::isinstance<py::int_>(devices)) out.push_back(devices.cast<int>());
    else
        for (const py::handle d : devices) out.push_back(d.cast<int>());
    for (int d : out)
        if (d < 0) throw py::value_error("devices: " + std::to_string(d) + " is not a GPU index (0, 1, ...)");
    return out;
}

compute::RunOptions toRunOptions(const std::string& backend, const std::string& kernel, int threads,
                                 const py::handle& devices) {
    compute::RunOptions o;
    o.backend = toBackend(backend);
    o.kernel = kernel;
    if (threads < 0) throw py::value_error("threads: must be >= 0 (0: all cores)");
    o.threads = threads;
    o.devices = toDevices(devices);
    return o;
}

void runJob(compute::RunOptions& options, bool watch, const std::function<void()>& work,
            const py::handle& progress) {
    compute::CancelToken token;
    options.cancel = &token;
    const bool reporting = !progress.is_none();
    if (!watch && !reporting) {
        py::gil_scoped_release release;
        work();
        return;
    }
    // The engine reports from its worker threads; this thread reads the latest fraction.
    std::atomic<double> fraction{0.0};
    if (reporting) {
        progress(0.0);
        options.progress = [&fraction](double f) {
            double seen = fraction.load(std::memory_order_relaxed);
            while (f > seen && !fraction.compare_exchange_weak(seen, f, std::memory_order_relaxed)) {
            }
        };
    }
    double reported = 0.0;
    auto lastReport = std::chrono::steady_clock::now();
    std::exception_ptr failure;
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false, interrupted = false;
    std::unique_ptr<py::error_already_set> callbackError;  // what the progress callable raised
    PyThreadState* state = PyEval_SaveThread();
    std::thread worker([&] {
        try {
            work();
        } catch (...) {
            failure = std::current_exception();
        }
        std::lock_guard lock(mutex);
        done = true;
        finished.notify_all();
    });
    {
        std::unique_lock lock(mutex);
        while (!finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
            if (interrupted) continue;
            lock.unlock();
            // Signal handlers (and the progress callable) run only with the GIL: take it for a moment.
            PyEval_RestoreThread(state);
            if (PyErr_CheckSignals() != 0) {
                interrupted = true;
                token.cancel();
            } else if (reporting) {
                const double f = fraction.load(std::memory_order_relaxed);
                const auto now = std::chrono::steady_clock::now();
                if (f > reported && now - lastReport >= kProgressInterval) {
                    try {
                        progress(f);
                        reported = f;
                        lastReport = now;
                    } catch (py::error_already_set& e) {
                        callbackError = std::make_unique<py::error_already_set>(std::move(e));
                        interrupted = true;
                        token.cancel();
                    }
                }
            }
            state = PyEval_SaveThread();
            lock.lock();
        }
    }
    worker.join();
    PyEval_RestoreThread(state);
    options.progress = nullptr;
    if (callbackError) throw std::move(*callbackError);
    if (interrupted) throw py::error_already_set();  // the KeyboardInterrupt the handler raised
    if (failure) std::rethrow_exception(failure);
    if (reporting) progress(1.0);
}

int indexOrName(const py::handle& which, std::size_t count, const std::function<int(const std::string&)>& find,
                const std::string& path, const std::string& field, const std::string& plural,
                const std::string& noSuchName) {
    if (py::isinstance<py::int_>(which)) {
        const int i = which.cast<int>();
        if (i < 0 || std::size_t(i) >= count)
            throw io::IoError(path, field, "no " + field + " with index " + std::to_string(i) + " (" +
                                               std::to_string(count) + " " + plural + ")");
        return i;
    }
    const std::string name = which.cast<std::string>();
    const int i = find(name);
    if (i < 0) throw io::IoError(path, field, noSuchName + " \"" + name + "\"");
    return i;
}

long long readStop(long long start, const py::handle& stopObj, long long samples, const std::string& path) {
    const long long stop = stopObj.is_none() ? samples : stopObj.cast<long long>();
    if (start < 0 || stop < start || stop > samples)
        throw io::IoError(path, "read", "samples " + std::to_string(start) + ":" + std::to_string(stop) +
                                            " are not inside the channel's 0:" + std::to_string(samples));
    return stop;
}

py::array recordArray(std::initializer_list<std::pair<const char*, const char*>> fields, std::size_t rows) {
    py::list names, formats;
    for (const auto& [name, format] : fields) {
        names.append(name);
        formats.append(format);
    }
    py::dict spec;
    spec["names"] = names;
    spec["formats"] = formats;
    const py::dtype dt = py::dtype::from_args(spec);
    const std::vector<py::ssize_t> shape{py::ssize_t(rows)};
    py::array out(dt, shape, cStrides(shape, dtypeSize(dt)));
    if (rows) std::memset(out.mutable_data(), 0, std::size_t(out.nbytes()));
    return out;
}

void requireExistingFile(const std::string& path, const std::string& field) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        const std::string message = path + ": " + field + ": no such file";
        PyErr_SetObject(PyExc_FileNotFoundError,
                        py::make_tuple(int(ENOENT), message, path).ptr());
        throw py::error_already_set();
    }
}

void registerErrors(py::module_& m) {
    g_deviceError = PyErr_NewExceptionWithDoc(
        "warplab.DeviceError",
        "A GPU problem: no GPU backend in this build, no usable device, out of device memory, a kernel "
        "that cannot run here.",
        PyExc_RuntimeError, nullptr);
    m.attr("DeviceError") = py::handle(g_deviceError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const compute::EngineError& e) {
            switch (e.kind()) {
                case K::BadParameter:
                case K::BadInput: PyErr_SetString(PyExc_ValueError, e.what()); return;
                case K::Device: PyErr_SetString(g_deviceError, e.what()); return;
                case K::Cancelled: PyErr_SetString(PyExc_KeyboardInterrupt, e.what()); return;
                case K::Internal: PyErr_SetString(PyExc_RuntimeError, e.what()); return;
            }
        } catch (const std::bad_alloc&) {
            PyErr_SetString(PyExc_MemoryError, "out of memory");
        }
    });
}

}  // namespace warplab::python
