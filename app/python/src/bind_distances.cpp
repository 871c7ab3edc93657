// distance, distance_matrix, align and soft_dtw: the engine's pairwise work from NumPy.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

#include <tbb/parallel_for.h>

#include "compute/core/error.h"
#include "compute/engine/engine.h"
#include "io/io_error.h"
#include "io/matrix_formats.h"
#include "io/matrix_io.h"
#include "py_common.h"

#include <pybind11/stl.h>

namespace warplab::python {

namespace {

using K = compute::EngineError::Kind;

// Jobs below this many matrix cells run inline: starting the Ctrl-C watcher's thread would cost
// more than the work (distance() on two series of 128 is a few microseconds).
constexpr double kWatchCells = 4e6;

double cells(const compute::Series& x, const compute::Series& y) {
    return double(x.length) * double(y.length) * double(x.dims);
}

// A NumPy array that owns `values` (moved to the heap; freed with the array).
py::array_t<double> ownedArray(std::vector<double>&& values, std::vector<py::ssize_t> shape) {
    auto* held = new std::vector<double>(std::move(values));
    py::capsule owner(held, [](void* p) { delete static_cast<std::vector<double>*>(p); });
    return py::array_t<double>(shape, cStrides(shape, py::ssize_t(sizeof(double))), held->data(), owner);
}

double distance(const py::object& a, const py::object& b, const std::string& metric, int band, double gamma,
                double nu, double lam, const std::string& cost, bool znorm, bool sqrt, const std::string& backend,
                const std::optional<std::string>& kernelName) {
    const std::string kernel = kernelName.value_or("");
    const compute::Params params = toParams(metric, band, gamma, nu, lam, cost, znorm, sqrt);
    Owners owners;  // the arrays read in place
    const compute::Series x = viewSeries(a, "a", owners), y = viewSeries(b, "b", owners);
    compute::RunOptions run = toRunOptions(backend, kernel, 0, py::none());
    double d = 0;
    if (kernel.empty() && (run.backend == compute::Backend::Auto || run.backend == compute::Backend::Cpu)) {
        // The scalar reference, as `warplab-cli align` prints it.
        py::gil_scoped_release release;
        d = compute::Engine::distance(x, y, params);
        return d;
    }
    // A named kernel or GPU backend: a 1 x 1 matrix on it, as `warplab-cli dm --kernel` computes it.
    const compute::SeriesSet xs{x}, ys{y};
    runJob(run, cells(x, y) > kWatchCells, [&] {
        compute::Engine::distanceMatrixStreamed(xs, &ys, params, run,
                                                [&](const compute::Tile&, const double* v) { d = v[0]; });
    });
    return d;
}

void checkOutPath(const std::string& out, const std::string& ext) {
    if (ext != ".npy" && ext != ".h5" && ext != ".hdf5")
        throw io::IoError(out, "out", "unknown extension '" + ext + "' (use .npy or .h5, or pass an array)");
    const auto dir = std::filesystem::absolute(out).parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        throw io::IoError(out, "out", "the folder " + dir.string() + " does not exist");
}

py::object distanceMatrix(const py::handle& X, const py::handle& Y, const std::string& metric, int band,
                          double gamma, double nu, double lam, const std::string& cost, bool znorm, bool sqrt,
                          const std::string& backend, const std::string& kernel, int threads,
                          const py::handle& devices, const py::handle& out, const py::handle& progress) {
    const compute::Params params = toParams(metric, band, gamma, nu, lam, cost, znorm, sqrt);
    compute::RunOptions run = toRunOptions(backend, kernel, threads, devices);
    Owners owners;  // the arrays read in place
    const compute::SeriesSet q = viewSeriesSet(X, "X", owners);
    compute::SeriesSet t;
    if (!Y.is_none()) t = viewSeriesSet(Y, "Y", owners);
    const compute::SeriesSet* targets = Y.is_none() ? nullptr : &t;
    const std::size_t rows = q.size(), cols = targets ? t.size() : q.size();

    if (py::isinstance<py::str>(out)) {  // streamed to a file tile by tile; nothing kept in memory
        const std::string path = out.cast<std::string>();
        checkOutPath(path, io::lowerExtension(path));
        runJob(run, true, [&] {
            // Made inside the job: a writer destroyed without finish() (Ctrl-C, an error)
            // removes its temporary file, so no partial matrix is ever left under `path`.
            auto writer = io::MatrixStreamWriter::create(path, rows, cols, params);
            compute::Engine::distanceMatrixStreamed(
                q, targets, params, run, [&](const compute::Tile& tile, const double* v) { writer->writeTile(tile, v); },
                writer->concurrentTiles() ? compute::SinkCalls::Concurrent : compute::SinkCalls::OneAtATime);
            writer->finish();
        }, progress);
        return py::str(path);
    }

    py::array_t<double> result;
    if (out.is_none()) {
        result = newArray<double>({py::ssize_t(rows), py::ssize_t(cols)});
    } else {
        if (!py::isinstance<py::array>(out))
            throw py::type_error("out: give a .npy/.h5 path or a float64 array (np.memmap included), not " +
                                 std::string(py::str(py::type::of(out).attr("__name__"))));
        auto a = py::reinterpret_borrow<py::array>(out);
        if (dtypeKind(a.dtype()) != 'f' || dtypeSize(a.dtype()) != 8)
            throw py::type_error("out: dtype " + py::str(a.dtype().attr("name")).cast<std::string>() + " is not float64");
        if (a.ndim() != 2 || std::size_t(a.shape(0)) != rows || std::size_t(a.shape(1)) != cols)
            throw py::value_error("out: shape must be (" + std::to_string(rows) + ", " + std::to_string(cols) + ")");
        if (!(a.flags() & py::array::c_style)) throw py::value_error("out: not C-contiguous (rows must be contiguous)");
        if (!a.writeable()) throw py::value_error("out: read-only");
        result = py::reinterpret_borrow<py::array_t<double>>(out);
    }
    double* dst = result.mutable_data();
    runJob(run, true, [&] {
        // Tiles do not overlap: each computing thread copies its own into place.
        compute::Engine::distanceMatrixStreamed(
            q, targets, params, run,
            [&](const compute::Tile& tile, const double* v) {
                for (std::size_t r = 0; r < tile.rows(); ++r)
                    std::copy(v + r * tile.cols(), v + (r + 1) * tile.cols(), dst + (tile.rowBegin + r) * cols + tile.colBegin);
            },
            compute::SinkCalls::Concurrent);
    }, progress);
    return std::move(result);
}

py::tuple align(const py::handle& a, const py::handle& b, const std::string& metric, int band, double gamma,
                double nu, double lam, const std::string& cost, bool znorm, bool sqrt, bool withMatrix,
                const py::handle& progress) {
    const compute::Params params = toParams(metric, band, gamma, nu, lam, cost, znorm, sqrt);
    Owners owners;  // the arrays read in place
    const compute::Series x = viewSeries(a, "a", owners), y = viewSeries(b, "b", owners);
    compute::RunOptions run;
    compute::Alignment al;
    runJob(run, cells(x, y) > kWatchCells, [&] { al = compute::Engine::align(x, y, params, withMatrix, run); },
           progress);
    py::array_t<long long> path = newArray<long long>({py::ssize_t(al.path.size()), py::ssize_t(2)});
    auto p = path.mutable_unchecked<2>();
    for (std::size_t k = 0; k < al.path.size(); ++k) {
        p(py::ssize_t(k), 0) = static_cast<long long>(al.path[k].first);
        p(py::ssize_t(k), 1) = static_cast<long long>(al.path[k].second);
    }
    py::object matrix = py::none();
    if (withMatrix) matrix = ownedArray(std::move(al.matrix), {py::ssize_t(al.n), py::ssize_t(al.m)});
    return py::make_tuple(al.distance, path, matrix);
}

// Soft-DTW of the pairs (X[i], Y[i]) and, when asked, its gradient with respect to X[i].
py::tuple softDtw(const py::handle& X, const py::handle& Y, double gamma, const std::string& cost, bool gradient) {
    const compute::Params params = toParams("softdtw", 0, gamma, 0.001, 1.0, cost, false, false);
    Owners owners;  // the arrays read in place
    const compute::SeriesSet xs = viewSeriesSet(X, "X", owners), ys = viewSeriesSet(Y, "Y", owners);
    if (xs.size() != ys.size())
        throw py::value_error("Y: holds " + std::to_string(ys.size()) + " series, X " + std::to_string(xs.size()) +
                              " (soft_dtw takes pairs X[i], Y[i])");
    if (xs.empty()) throw py::value_error("X: no series given");
    std::vector<double> values(xs.size());
    std::vector<std::vector<double>> grads(gradient ? xs.size() : 0);
    double total = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) total += cells(xs[i], ys[i]);
    compute::RunOptions run;
    runJob(run, total > kWatchCells, [&] {
        tbb::parallel_for(std::size_t(0), xs.size(), [&](std::size_t i) {
            if (run.cancel->cancelled()) return;
            values[i] = compute::Engine::distance(xs[i], ys[i], params);
            if (gradient) grads[i] = compute::Engine::softDtwGradient(xs[i], ys[i], params);
        });
        if (run.cancel->cancelled()) throw compute::EngineError(K::Cancelled, "", "cancelled");
    });
    py::array_t<double> v = newArray<double>({py::ssize_t(values.size())});
    std::copy(values.begin(), values.end(), v.mutable_data());
    if (!gradient) return py::make_tuple(v, py::none());
    py::list g;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        std::vector<py::ssize_t> shape{py::ssize_t(xs[i].length)};
        if (xs[i].dims > 1) shape.push_back(py::ssize_t(xs[i].dims));
        g.append(ownedArray(std::move(grads[i]), shape));
    }
    return py::make_tuple(v, g);
}

// An array in GPU memory as its producer describes it (__cuda_array_interface__, version 2 or
// later: PyTorch, CuPy, Numba): its device pointer, read or written in place.
struct CudaArray {
    std::uintptr_t pointer = 0;
    std::vector<long long> shape;
    std::string typestr;
};

CudaArray cudaArray(const py::handle& obj, const std::string& name) {
    if (!py::hasattr(obj, "__cuda_array_interface__"))
        throw py::type_error(name + ": not an array in GPU memory (it has no __cuda_array_interface__)");
    const py::dict d = obj.attr("__cuda_array_interface__");
    CudaArray a;
    a.pointer = py::tuple(d["data"])[0].cast<std::uintptr_t>();
    a.typestr = d["typestr"].cast<std::string>();
    for (const py::handle n : py::tuple(d["shape"])) a.shape.push_back(n.cast<long long>());
    if (d.contains("strides") && !d["strides"].is_none()) {  // present: they must be C order
        const int item = std::stoi(a.typestr.substr(2));
        long long expect = item;
        const py::tuple strides(d["strides"]);
        for (std::size_t k = a.shape.size(); k-- > 0;) {
            if (a.shape[k] > 1 && strides[k].cast<long long>() != expect)
                throw py::value_error(name + ": not C-contiguous (call .contiguous() first)");
            expect *= a.shape[k];
        }
    }
    return a;
}

// Soft-DTW of the pairs (x[i], y[i]) of two batches in GPU memory, x (count, n[, dims]) and y
// (count, m[, dims]) float32, into `values` (count, float64) and `gradients` (x's shape, float32
// with fp32, else float64), all read and written in place on `stream` of `device`.
void softDtwDevice(const py::handle& x, const py::handle& y, const py::handle& values, const py::handle& gradients,
                   double gamma, const std::string& cost, bool fp32, int device, std::uintptr_t stream) {
    const compute::Params params = toParams("softdtw", 0, gamma, 0.001, 1.0, cost, false, false);
    const CudaArray xa = cudaArray(x, "x"), ya = cudaArray(y, "y"), va = cudaArray(values, "values"),
                    ga = cudaArray(gradients, "gradients");
    if (xa.typestr != "<f4" || ya.typestr != "<f4")
        throw py::type_error(std::string(xa.typestr != "<f4" ? "x" : "y") + ": the device soft-DTW reads float32 samples");
    if (xa.shape.size() < 2 || xa.shape.size() > 3 || ya.shape.size() != xa.shape.size())
        throw py::value_error("x, y: give (batch, length) or (batch, length, channels) arrays of the same rank");
    const long long dims = xa.shape.size() == 3 ? xa.shape[2] : 1;
    if (ya.shape[0] != xa.shape[0])
        throw py::value_error("y: holds " + std::to_string(ya.shape[0]) + " series, x " + std::to_string(xa.shape[0]));
    if ((ya.shape.size() == 3 ? ya.shape[2] : 1) != dims) throw py::value_error("y: channel count differs from x");
    if (va.typestr != "<f8" || va.shape != std::vector<long long>{xa.shape[0]})
        throw py::value_error("values: give a float64 array of shape (batch,)");
    if (ga.typestr != (fp32 ? "<f4" : "<f8") || ga.shape != xa.shape)
        throw py::value_error(std::string("gradients: give a ") + (fp32 ? "float32" : "float64") + " array of x's shape");
    compute::SoftDtwDeviceBatch b;
    b.x = reinterpret_cast<const float*>(xa.pointer);
    b.y = reinterpret_cast<const float*>(ya.pointer);
    b.count = int(xa.shape[0]);
    b.n = int(xa.shape[1]);
    b.m = int(ya.shape[1]);
    b.dims = int(dims);
    b.device = device;
    b.stream = reinterpret_cast<void*>(stream);
    b.values = reinterpret_cast<double*>(va.pointer);
    b.gradients = reinterpret_cast<void*>(ga.pointer);
    b.fp32 = fp32;
    py::gil_scoped_release release;
    compute::Engine::softDtwGradientOnDevice(b, params);
}

// distance() is bound with its keywords and docstring here, not behind a Python wrapper: it is
// called per pair in loops, where a wrapper's argument shuffling was a third of the call.
constexpr const char* kDistanceDoc = R"doc(Distance between two series.

Parameters
----------
a, b : array_like, float32 or float64
    1-D (samples) or 2-D (samples x channels).
metric : {"euclidean", "dtw", "cdtw", "sdtw", "softdtw", "twed"}
band : int
    Sakoe-Chiba half-width w for ``cdtw``.
gamma : float
    soft-DTW smoothing (> 0).
nu, lam : float
    TWED stiffness and edit penalty.
cost : {"sq", "abs"}
    Local cost (a-b)^2 or |a-b|.
znorm : bool
    z-normalise each series (per channel) first.
sqrt : bool
    Return the square root of the accumulated cost.
backend : {"auto", "cpu", "cuda", "hip"}
kernel : str, optional
    A kernel of :func:`kernels` ("cpu.simd", "cuda.shuffle", ...). Without a kernel (and
    backend auto or cpu) the scalar reference computes the pair, as ``warplab-cli align``;
    with one, the pair is a 1 x 1 matrix on that kernel, as ``warplab-cli dm --kernel``.

Returns
-------
float
)doc";

}  // namespace

void bindDistances(py::module_& m) {
    using namespace py::literals;
    m.def("distance", &distance, kDistanceDoc, "a"_a, "b"_a, "metric"_a = "dtw", py::kw_only(), "band"_a = 0,
          "gamma"_a = 1.0, "nu"_a = 0.001, "lam"_a = 1.0, "cost"_a = "sq", "znorm"_a = false, "sqrt"_a = false,
          "backend"_a = "auto", "kernel"_a = py::none());
    m.def("distance_matrix", &distanceMatrix, "X"_a, "Y"_a, "metric"_a, "band"_a, "gamma"_a, "nu"_a, "lam"_a,
          "cost"_a, "znorm"_a, "sqrt"_a, "backend"_a, "kernel"_a, "threads"_a, "devices"_a, "out"_a, "progress"_a);
    m.def("align", &align, "a"_a, "b"_a, "metric"_a, "band"_a, "gamma"_a, "nu"_a, "lam"_a, "cost"_a, "znorm"_a,
          "sqrt"_a, "matrix"_a, "progress"_a);
    m.def("soft_dtw", &softDtw, "X"_a, "Y"_a, "gamma"_a, "cost"_a, "gradient"_a);
    m.def("soft_dtw_device", &softDtwDevice, "x"_a, "y"_a, "values"_a, "gradients"_a, "gamma"_a, "cost"_a, "fp32"_a,
          "device"_a, "stream"_a);
}

}  // namespace warplab::python
