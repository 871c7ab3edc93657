// The compiled half of the warplab package (_warplab). Its functions take their arguments
// positionally from warplab/__init__.py, which holds the keyword defaults and the docstrings;
// distance(), the per-pair hot path, is exported as it is, keywords and docstring included.
#include "py_common.h"

namespace warplab::python {
void bindDetection(py::module_& m);  // bind_detection.cpp: score, read_reference
void bindDetector(py::module_& m);   // bind_detector.cpp: the detector, detect, crossval
}

PYBIND11_MODULE(_warplab, m) {
    m.doc() = "WarpLab's engine (compute/, io/) for the warplab package; use `import warplab`.";
    warplab::python::registerErrors(m);
    warplab::python::bindDistances(m);
    warplab::python::bindSearch(m);
    warplab::python::bindRecording(m);
    warplab::python::bindInfo(m);
    warplab::python::bindStudy(m);
    warplab::python::bindSpectral(m);
    warplab::python::bindDetection(m);
    warplab::python::bindDetector(m);
}
