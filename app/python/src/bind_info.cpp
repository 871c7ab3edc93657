// kernels() and devices(): what `warplab-cli bench` lists and where a job can run.
#include "compute/engine/device_list.h"
#include "compute/registry/registry.h"
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

}  // namespace

void bindInfo(py::module_& m) {
    m.def("kernels", &kernels);
    m.def("devices", &devices);
    m.def("gpu_unavailable_reason", [] { return compute::gpuUnavailableReason(); });
}

}  // namespace warplab::python
