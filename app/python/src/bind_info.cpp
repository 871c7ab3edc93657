// kernels() and devices(): what `warplab-cli bench` lists and where a job can run.
#include <pybind11/stl.h>

#include "compute/bench/bench.h"
#include "compute/engine/device_list.h"
#include "compute/registry/registry.h"
#include "io/bench_json.h"
#include "py_common.h"

namespace warplab::python {

namespace {

const char* backendName(compute::Backend b) {
    switch (b) {
        case compute::Backend::Auto: return "auto";
        case compute::Backend::Cpu: return "cpu";
        case compute::Backend::Cuda: return "cuda";
        case compute::Backend::Hip: return "hip";
    }
    return "?";
}

py::list kernels() {
    py::list out;
    for (compute::Kernel* k : compute::KernelRegistry::instance().all()) {
        py::dict d;
        d["name"] = k->name();
        d["backend"] = backendName(k->backend());
        d["description"] = k->description();
        py::list metrics;
        for (auto m : compute::allMetrics())
            if (k->supports(m)) metrics.append(std::string(compute::metricName(m)));
        d["metrics"] = metrics;
        const std::string why = k->unavailableReason();
        d["available"] = why.empty();
        d["unavailable_reason"] = why;
        out.append(d);
    }
    return out;
}

py::list devices() {
    py::list out;
    const auto labels = compute::gpuDeviceLabels();
    for (std::size_t i = 0; i < labels.size(); ++i) {
        py::dict d;
        d["index"] = int(i);
        d["name"] = labels[i];
        out.append(d);
    }
    return out;
}

// `warplab-cli bench` (the kernel table): the device line and the rows, with the keys of its --json.
py::tuple bench(const std::string& metric, int band, double gamma, double nu, double lam, const std::string& cost,
                bool znorm, bool sqrt, const std::vector<std::string>& kernelNames,
                const std::vector<std::size_t>& lengths, std::size_t pairs, std::size_t series, int repeats,
                int threads, bool engineTiming, bool deviceTiming, int queries, int referenceLength, int top,
                const py::handle& devices, const py::handle& progress) {
    compute::BenchConfig cfg;
    cfg.params = toParams(metric, band, gamma, nu, lam, cost, znorm, sqrt);
    cfg.kernels = kernelNames;
    cfg.lengths = lengths;
    cfg.pairs = pairs;
    cfg.series = series;
    cfg.repeats = repeats;
    cfg.threads = threads;
    cfg.engineTiming = engineTiming;
    cfg.deviceTiming = deviceTiming;
    cfg.searchQueries = queries;
    cfg.referenceLength = referenceLength;
    cfg.topk = top;
    cfg.sdtwDevices = toDevices(devices);
    compute::RunOptions run;
    compute::BenchReport report;
    runJob(run, true, [&] {
        cfg.cancel = run.cancel;
        cfg.progress = run.progress;
        report = compute::runBenchmark(cfg);
    }, progress);
    return py::make_tuple(report.device, fromJson(io::benchJson(report.rows, report.device)["rows"].dump()));
}

}  // namespace

void bindInfo(py::module_& m) {
    m.def("kernels", &kernels);
    m.def("devices", &devices);
    m.def("bench", &bench);
    m.def("gpu_unavailable_reason", [] { return compute::gpuUnavailableReason(); });
    m.def("_copied_samples", &copiedSamples,
          "Samples the module has copied from input arrays since it was loaded (float64 or non-C-order\n"
          "input; C-contiguous float32 arrays are read in place). A diagnostic for tests.");
}

}  // namespace warplab::python
